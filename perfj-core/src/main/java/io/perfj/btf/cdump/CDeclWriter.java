package io.perfj.btf.cdump;

import io.perfj.btf.wire.StringSection;
import io.perfj.io.FormatException;


import static io.perfj.btf.wire.Kinds.*;

/**
 * Turns BTF types into C declarations and definitions, following libbpf's BTF-to-C converter
 * ({@code src/btf_dump.c}, libbpf 1.1 with the later fix that writes {@code (void)} for a
 * prototype without parameters): which types need a forward declaration, in which order
 * definitions come, how declarators nest (pointers, arrays, function pointers, qualifiers), where
 * explicit padding members go, when a struct is marked packed, and how clashing names get
 * {@code ___N} suffixes.
 *
 * <p>Per-type state lives in parallel arrays indexed by type id; one writer keeps its state across
 * calls to {@link #dumpType}, so a type already written is never written again.
 */
final class CDeclWriter {
    private static final byte NOT_ORDERED = 0, ORDERING = 1, ORDERED = 2;
    private static final byte NOT_EMITTED = 0, EMITTING = 1, EMITTED = 2;

    /**
     * libbpf would print a gap of any size as `long: 64;` lines; one past 1 MiB (the largest
     * struct of a 6.18 kernel is 236 KiB) is taken for damaged input rather than printed.
     */
    private static final int MAX_PADDING_BITS = 1 << 23;

    private final TypeTable t;
    private final CText out;
    private final int ptrSz;
    private final byte[] orderState;
    private final byte[] emitState;
    private final boolean[] fwdEmitted;
    private final boolean[] nameResolved;
    private final boolean[] referenced;
    /** The ___N suffix each type got (1: none), 0 before its name is resolved. */
    private final int[] dupSuffix;
    private final NameCounts typeNames;
    private final NameCounts identNames;

    private final int maxDepth;
    private int depth;
    private int[] emitQueue = new int[256];
    private int emitQueueCnt;
    private int[] declStack = new int[64];
    private int declStackCnt;

    CDeclWriter(TypeTable types, CText out) {
        this.t = types;
        this.out = out;
        this.ptrSz = types.ptrSize();
        int n = types.count();
        orderState = new byte[n];
        emitState = new byte[n];
        fwdEmitted = new boolean[n];
        nameResolved = new boolean[n];
        referenced = types.referenced();
        dupSuffix = new int[n];
        typeNames = new NameCounts(types.strings(), n / 2);
        identNames = new NameCounts(types.strings(), n);
        maxDepth = n + 64;
        orderState[0] = ORDERED;
        emitState[0] = EMITTED;
    }

    /**
     * Writes type {@code id} and every type it needs that is not written yet, in an order a C
     * compiler accepts.
     *
     * @throws TypeCycleException when the types form a cycle C cannot express
     */
    void dumpType(int id) {
        emitQueueCnt = 0;
        depth = 0;
        orderType(id, false);
        for (int i = 0; i < emitQueueCnt; i++) {
            emitType(emitQueue[i], 0);
        }
    }

    /** A cycle of types that no forward declaration resolves (libbpf fails with ELOOP). */
    static final class TypeCycleException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int id;

        TypeCycleException(int id) {
            super("unsatisfiable type cycle, id:[" + id + "]", null, false, false);
            this.id = id;
        }
    }

    private void enqueue(int id) {
        if (emitQueueCnt == emitQueue.length) {
            emitQueue = java.util.Arrays.copyOf(emitQueue, emitQueue.length * 2);
        }
        emitQueue[emitQueueCnt++] = id;
    }

    private static boolean isComposite(int kind) {
        return kind == STRUCT || kind == UNION;
    }

    /**
     * Depth-first ordering. Returns true for a strong link (the type must be complete where it is
     * used), false for a weak one (a forward declaration is enough).
     */
    private boolean orderType(int id, boolean throughPtr) {
        // Deeper than there are types: a loop of pointers, qualifiers, typedefs or arrays, which
        // libbpf would follow until its stack overflows.
        if (++depth > maxDepth) {
            throw t.cycle(id);
        }
        boolean strong = order(id, throughPtr);
        depth--;
        return strong;
    }

    private boolean order(int id, boolean throughPtr) {
        if (orderState[id] == ORDERED) {
            return true;
        }
        int kind = t.kind(id);
        if (orderState[id] == ORDERING) {
            if (isComposite(kind) && throughPtr && t.nameOff(id) != 0) {
                return false;
            }
            throw new TypeCycleException(id);
        }
        switch (kind) {
            case INT, FLOAT:
                orderState[id] = ORDERED;
                return false;
            case PTR: {
                boolean strong = orderType(t.ref(id), true);
                orderState[id] = ORDERED;
                return strong;
            }
            case ARRAY:
                return orderType(t.arrayType(id), false);
            case STRUCT, UNION: {
                if (throughPtr && t.nameOff(id) != 0) {
                    return false;
                }
                orderState[id] = ORDERING;
                int vlen = t.vlen(id);
                for (int i = 0; i < vlen; i++) {
                    orderType(t.memberType(id, i), false);
                }
                if (t.nameOff(id) != 0) {
                    enqueue(id);
                }
                orderState[id] = ORDERED;
                return true;
            }
            case ENUM, ENUM64, FWD:
                if (t.nameOff(id) != 0 || !referenced[id]) {
                    enqueue(id);
                }
                orderState[id] = ORDERED;
                return true;
            case TYPEDEF: {
                boolean strong = orderType(t.ref(id), throughPtr);
                if (throughPtr && !strong) {
                    return false;
                }
                enqueue(id);
                orderState[id] = ORDERED;
                return true;
            }
            case VOLATILE, CONST, RESTRICT, TYPE_TAG:
                return orderType(t.ref(id), throughPtr);
            case FUNC_PROTO: {
                boolean strong = orderType(t.ref(id), throughPtr);
                int vlen = t.vlen(id);
                for (int i = 0; i < vlen; i++) {
                    if (orderType(t.paramType(id, i), throughPtr)) {
                        strong = true;
                    }
                }
                return strong;
            }
            case FUNC, VAR, DATASEC, DECL_TAG:
                orderState[id] = ORDERED;
                return false;
            default:
                throw new FormatException(t.source(), "BTF type [" + id + "]", -1, "unknown kind " + kind);
        }
    }

    private boolean isBlacklisted(int id) {
        return t.nameOff(id) != 0 && t.strings().is(t.nameOff(id), "__builtin_va_list");
    }

    private void emitType(int id, int contId) {
        if (++depth > maxDepth) {
            throw t.cycle(id);
        }
        emit(id, contId);
        depth--;
    }

    private void emit(int id, int contId) {
        if (emitState[id] == EMITTED) {
            return;
        }
        boolean topLevel = contId == 0;
        int kind = t.kind(id);
        if (emitState[id] == EMITTING) {
            if (fwdEmitted[id]) {
                return;
            }
            switch (kind) {
                case STRUCT, UNION -> {
                    if (id == contId || t.nameOff(id) == 0) {
                        return;
                    }
                    emitStructFwd(id);
                    out.add(";\n\n");
                    fwdEmitted[id] = true;
                }
                case TYPEDEF -> {
                    if (!isBlacklisted(id)) {
                        emitTypedefDef(id, 0);
                        out.add(";\n\n");
                    }
                    fwdEmitted[id] = true;
                }
                default -> { }
            }
            return;
        }
        switch (kind) {
            case INT -> {
                emitMissingAliases(id);
                emitState[id] = EMITTED;
            }
            case ENUM, ENUM64 -> {
                if (topLevel) {
                    emitEnumDef(id, 0);
                    out.add(";\n\n");
                }
                emitState[id] = EMITTED;
            }
            case PTR, VOLATILE, CONST, RESTRICT, TYPE_TAG -> emitType(t.ref(id), contId);
            case ARRAY -> emitType(t.arrayType(id), contId);
            case FWD -> {
                emitFwdDef(id);
                out.add(";\n\n");
                emitState[id] = EMITTED;
            }
            case TYPEDEF -> {
                emitState[id] = EMITTING;
                emitType(t.ref(id), id);
                if (!fwdEmitted[id] && !isBlacklisted(id)) {
                    emitTypedefDef(id, 0);
                    out.add(";\n\n");
                }
                emitState[id] = EMITTED;
            }
            case STRUCT, UNION -> {
                emitState[id] = EMITTING;
                boolean anon = t.nameOff(id) == 0;
                if (topLevel || anon) {
                    int vlen = t.vlen(id);
                    int newCont = anon ? contId : id;
                    for (int i = 0; i < vlen; i++) {
                        emitType(t.memberType(id, i), newCont);
                    }
                } else if (!fwdEmitted[id] && id != contId) {
                    emitStructFwd(id);
                    out.add(";\n\n");
                    fwdEmitted[id] = true;
                }
                if (topLevel) {
                    emitStructDef(id, 0);
                    out.add(";\n\n");
                    emitState[id] = EMITTED;
                } else {
                    emitState[id] = NOT_EMITTED;
                }
            }
            case FUNC_PROTO -> {
                emitType(t.ref(id), contId);
                int n = t.vlen(id);
                for (int i = 0; i < n; i++) {
                    emitType(t.paramType(id, i), contId);
                }
            }
            default -> { }
        }
    }

    /** libbpf's {@code btf_is_struct_packed}. */
    private boolean isStructPacked(int id) {
        int vlen = t.vlen(id);
        int maxAlign = 1;
        for (int i = 0; i < vlen; i++) {
            int align = t.alignOf(t.memberType(id, i));
            int bitSz = t.memberBitfieldSize(id, i);
            if (align != 0 && bitSz == 0 && Integer.remainderUnsigned(t.memberOffsetWord(id, i), 8 * align) != 0) {
                return true;
            }
            maxAlign = Math.max(align, maxAlign);
        }
        return Integer.remainderUnsigned(t.size(id), maxAlign) != 0;
    }

    private static int roundup(int x, int y) {
        return (x + y - 1) / y * y;
    }

    private String padType(int i) {
        return switch (i) {
            case 0 -> "long";
            case 1 -> "int";
            case 2 -> "short";
            default -> "char";
        };
    }

    private int padBits(int i) {
        return switch (i) {
            case 0 -> ptrSz * 8;
            case 1 -> 32;
            case 2 -> 16;
            default -> 8;
        };
    }

    /** Explicit padding members from bit {@code curOff} to {@code nextOff}. */
    private void emitBitPadding(int curOff, int nextOff, int nextAlign, boolean inBitfield, int lvl) {
        if (curOff >= nextOff) {
            return;
        }
        if (nextOff - curOff > MAX_PADDING_BITS || nextOff - curOff < 0) {
            throw new FormatException(t.source(), "BTF struct", -1, "a padding gap of "
                    + Integer.toUnsignedString(nextOff - curOff) + " bits (over 1 MiB)");
        }
        int padBits = 0;
        int newOff = 0;
        String padType = null;
        for (int i = 0; i < 4; i++) {
            padBits = padBits(i);
            padType = padType(i);
            newOff = roundup(curOff, padBits);
            if (newOff <= nextOff) {
                break;
            }
        }
        if (newOff > curOff && newOff <= nextOff) {
            if (inBitfield
                    || (newOff == nextOff && (nextAlign == 0 || roundup(curOff, nextAlign * 8) != newOff))
                    || (newOff != nextOff && nextOff - newOff <= newOff - curOff)) {
                out.add('\n').indent(lvl).add(padType).add(": ").add(inBitfield ? newOff - curOff : 0).add(';');
            }
            curOff = newOff;
        }
        while (curOff != nextOff) {
            int bits = Math.min(nextOff - curOff, padBits);
            if (bits == padBits) {
                out.add('\n').indent(lvl).add(padType).add(": ").add(padBits).add(';');
                curOff += bits;
                continue;
            }
            for (int i = 3; i >= 0; i--) {
                padType = padType(i);
                padBits = padBits(i);
                if (padBits < bits) {
                    continue;
                }
                out.add('\n').indent(lvl).add(padType).add(": ").add(bits).add(';');
                curOff += bits;
                break;
            }
        }
    }

    private void emitStructFwd(int id) {
        out.add(t.kind(id) == STRUCT ? "struct" : "union");
        if (t.nameOff(id) != 0) {
            out.add(' ');
        }
        appendTypeName(id);
    }

    private void emitStructDef(int id, int lvl) {
        boolean isStruct = t.kind(id) == STRUCT;
        int vlen = t.vlen(id);
        int align = t.alignOf(id);
        boolean packed = isStruct && isStructPacked(id);

        out.add(isStruct ? "struct" : "union");
        if (t.nameOff(id) != 0) {
            out.add(' ');
        }
        appendTypeName(id);
        out.add(" {");

        int off = 0;
        boolean prevBitfield = false;
        for (int i = 0; i < vlen; i++) {
            int mType = t.memberType(id, i);
            int fnameOff = t.memberNameOff(id, i);
            int mSz = t.memberBitfieldSize(id, i);
            int mOff = t.memberBitOffset(id, i);
            int mAlign = packed ? 1 : t.alignOf(mType);
            boolean inBitfield = prevBitfield && mSz != 0;

            emitBitPadding(off, mOff, mAlign, inBitfield, lvl + 1);
            out.add('\n').indent(lvl + 1);
            emitTypeDecl(mType, fnameOff, 1, lvl + 1);

            if (mSz != 0) {
                out.add(": ").add(mSz);
                off = mOff + mSz;
                prevBitfield = true;
            } else {
                long sz = Math.max(0, t.resolveSize(mType));
                off = (int) (mOff + sz * 8);
                prevBitfield = false;
            }
            out.add(';');
        }
        if (isStruct) {
            emitBitPadding(off, t.size(id) * 8, align, false, lvl + 1);
        }
        if (vlen != 0 || t.size(id) != 0) {
            out.add('\n').indent(lvl).add('}');
        } else {
            out.add('}');
        }
        if (packed) {
            out.add(" __attribute__((packed))");
        }
    }

    private void emitMissingAliases(int id) {
        resolve(id, typeNames);
        StringSection s = t.strings();
        int off = t.nameOff(id);
        String alias = s.is(off, "__Poly8_t") ? "unsigned char"
                : s.is(off, "__Poly16_t") ? "unsigned short"
                : s.is(off, "__Poly64_t") ? "unsigned long long"
                : s.is(off, "__Poly128_t") ? "unsigned __int128" : null;
        if (alias != null) {
            out.add("typedef ").add(alias).add(' ');
            appendTypeName(id);
            out.add(";\n\n");
        }
    }

    private void emitEnumFwd(int id) {
        out.add("enum ");
        appendTypeName(id);
    }

    private void emitEnumDef(int id, int lvl) {
        int vlen = t.vlen(id);
        out.add("enum");
        if (t.nameOff(id) != 0) {
            out.add(' ');
        }
        appendTypeName(id);
        if (vlen == 0) {
            return;
        }
        out.add(" {");
        boolean signed = t.kflag(id);
        boolean is32 = t.kind(id) == ENUM;
        for (int i = 0; i < vlen; i++) {
            int nameOff = is32 ? t.enumNameOff(id, i) : t.enum64NameOff(id, i);
            int dups = identNames.increment(nameOff);
            out.add('\n').indent(lvl + 1);
            t.appendName(out, nameOff);
            if (dups > 1) {
                out.add("___").add(dups);
            }
            out.add(" = ");
            if (is32) {
                int v = t.enumValue(id, i);
                if (signed) {
                    out.add(v);
                } else {
                    out.addUnsigned(v);
                }
            } else {
                long v = t.enum64Value(id, i);
                if (signed) {
                    out.add(v).add("LL");
                } else {
                    out.addUnsigned(v).add("ULL");
                }
            }
            out.add(',');
        }
        out.add('\n').indent(lvl).add('}');
    }

    private void emitFwdDef(int id) {
        out.add(t.kflag(id) ? "union " : "struct ");
        appendTypeName(id);
    }

    private void emitTypedefDef(int id, int lvl) {
        int dup = resolve(id, identNames);
        if (t.ref(id) == 0 && dup == 1 && t.strings().is(t.nameOff(id), "__gnuc_va_list")) {
            out.add("typedef __builtin_va_list __gnuc_va_list");
            return;
        }
        out.add("typedef ");
        emitTypeDecl(t.ref(id), t.nameOff(id), dup, lvl);
    }

    private void pushDecl(int id) {
        if (declStackCnt == declStack.length) {
            if (declStack.length > 4 * t.count() + 64) {
                throw t.cycle(id);
            }
            declStack = java.util.Arrays.copyOf(declStack, declStack.length * 2);
        }
        declStack[declStackCnt++] = id;
    }

    private static boolean isMod(int kind) {
        return kind == VOLATILE || kind == CONST || kind == RESTRICT || kind == TYPE_TAG;
    }

    /** One declaration: the chain of types from {@code id} down to a named or base type, then the name. */
    private void emitTypeDecl(int id, int fnameOff, int fnameDup, int lvl) {
        int stackStart = declStackCnt;
        int steps = 0;
        loop:
        for (;;) {
            pushDecl(id);
            if (id == 0) {
                break;
            }
            if (++steps > t.count()) {
                throw t.cycle(id);
            }
            switch (t.kind(id)) {
                case PTR, VOLATILE, CONST, RESTRICT, FUNC_PROTO, TYPE_TAG -> id = t.ref(id);
                case ARRAY -> id = t.arrayType(id);
                default -> {
                    break loop;
                }
            }
        }
        // A view of this frame of the shared stack: [stackStart, declStackCnt).
        Frame frame = new Frame(stackStart, declStackCnt);
        emitTypeChain(frame, fnameOff, fnameDup, lvl);
        declStackCnt = stackStart;
    }

    /** A local view of the shared declaration stack; {@code top} shrinks as the chain is written. */
    private static final class Frame {
        final int start;
        int top;

        Frame(int start, int top) {
            this.start = start;
            this.top = top;
        }

        boolean empty() {
            return top == start;
        }
    }

    private void emitMods(Frame f) {
        while (!f.empty()) {
            int id = declStack[f.top - 1];
            switch (t.kind(id)) {
                case VOLATILE -> out.add("volatile ");
                case CONST -> out.add("const ");
                case RESTRICT -> out.add("restrict ");
                default -> {
                    return;
                }
            }
            f.top--;
        }
    }

    private void dropMods(Frame f) {
        while (!f.empty()) {
            int id = declStack[f.top - 1];
            if (id == 0 || !isMod(t.kind(id))) {
                return;
            }
            f.top--;
        }
    }

    /** A declarator name: a string offset, with a ___N suffix when {@code dup} is above 1. */
    private void emitName(int fnameOff, int dup, boolean lastWasPtr) {
        if (!lastWasPtr && !t.nameEmpty(fnameOff)) {
            out.add(' ');
        }
        appendName(fnameOff, dup);
    }

    private void emitTypeChain(Frame f, int fnameOff, int fnameDup, int lvl) {
        boolean lastWasPtr = true;
        while (!f.empty()) {
            int id = declStack[--f.top];
            if (id == 0) {
                emitMods(f);
                out.add("void");
                lastWasPtr = false;
                continue;
            }
            int kind = t.kind(id);
            switch (kind) {
                case INT, FLOAT -> {
                    emitMods(f);
                    t.appendName(out, t.nameOff(id));
                }
                case STRUCT, UNION -> {
                    emitMods(f);
                    if (t.nameOff(id) == 0) {
                        emitStructDef(id, lvl);
                    } else {
                        emitStructFwd(id);
                    }
                }
                case ENUM, ENUM64 -> {
                    emitMods(f);
                    if (t.nameOff(id) == 0) {
                        emitEnumDef(id, lvl);
                    } else {
                        emitEnumFwd(id);
                    }
                }
                case FWD -> {
                    emitMods(f);
                    emitFwdDef(id);
                }
                case TYPEDEF -> {
                    emitMods(f);
                    appendName(t.nameOff(id), resolve(id, identNames));
                }
                case PTR -> out.add(lastWasPtr ? "*" : " *");
                case VOLATILE -> out.add(" volatile");
                case CONST -> out.add(" const");
                case RESTRICT -> out.add(" restrict");
                case TYPE_TAG -> {
                    emitMods(f);
                    out.add(" __attribute__((btf_type_tag(\"");
                    t.appendName(out, t.nameOff(id));
                    out.add("\")))");
                }
                case ARRAY -> {
                    dropMods(f);
                    int nelems = t.arrayNelems(id);
                    if (f.empty()) {
                        emitName(fnameOff, fnameDup, lastWasPtr);
                        out.add('[').addUnsigned(nelems).add(']');
                        return;
                    }
                    int next = declStack[f.top - 1];
                    boolean multidim = next != 0 && t.kind(next) == ARRAY;
                    if (!lastWasPtr && !t.nameEmpty(fnameOff)) {
                        out.add(' ');
                    }
                    if (!multidim) {
                        out.add('(');
                    }
                    emitTypeChain(f, fnameOff, fnameDup, lvl);
                    if (!multidim) {
                        out.add(')');
                    }
                    out.add('[').addUnsigned(nelems).add(']');
                    return;
                }
                case FUNC_PROTO -> {
                    int vlen = t.vlen(id);
                    dropMods(f);
                    if (!f.empty()) {
                        out.add(" (");
                        emitTypeChain(f, fnameOff, fnameDup, lvl);
                        out.add(')');
                    } else {
                        emitName(fnameOff, fnameDup, lastWasPtr);
                    }
                    out.add('(');
                    if (vlen == 0 || (vlen == 1 && t.paramType(id, 0) == 0)) {
                        out.add("void)");
                        return;
                    }
                    for (int i = 0; i < vlen; i++) {
                        if (i > 0) {
                            out.add(", ");
                        }
                        int pType = t.paramType(id, i);
                        if (i == vlen - 1 && pType == 0) {
                            out.add("...");
                            break;
                        }
                        emitTypeDecl(pType, t.paramNameOff(id, i), 1, lvl);
                    }
                    out.add(')');
                    return;
                }
                default -> {
                    return;
                }
            }
            lastWasPtr = kind == PTR;
        }
        emitName(fnameOff, fnameDup, lastWasPtr);
    }

    /**
     * libbpf's name resolution: the first time a named type is written its name is counted, and
     * the N-th type with that name is called {@code name___N}. Forward declarations and enum
     * forward declarations keep their names uncounted. Returns the suffix number (1: none).
     */
    private int resolve(int id, NameCounts counts) {
        int off = t.nameOff(id);
        if (off == 0) {
            return 1;
        }
        int d = dupSuffix[id];
        if (d != 0) {
            return d;
        }
        int kind = t.kind(id);
        if (kind == FWD || (kind == ENUM && t.vlen(id) == 0)) {
            d = 1;
        } else {
            d = counts.increment(off);
        }
        dupSuffix[id] = d;
        return d;
    }

    private void appendTypeName(int id) {
        appendName(t.nameOff(id), resolve(id, typeNames));
    }

    /** A name with its ___N suffix; libbpf builds renamed names in a 256-byte buffer. */
    private void appendName(int off, int dup) {
        if (dup <= 1) {
            t.appendName(out, off);
            return;
        }
        String suffix = "___" + dup;
        if (t.strings().byteLength(off) + suffix.length() <= 255) {
            t.appendName(out, off);
            out.add(suffix);
        } else {
            byte[] full = (t.name(off) + suffix).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.add(full, 0, Math.min(full.length, 255));
        }
    }
}
