package io.perfj.btf.layout;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfKind;
import io.perfj.btf.BtfType;
import io.perfj.io.FormatException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A struct's or union's memory layout printed the way {@code pahole -F btf -C TYPE} (dwarves
 * 1.24) prints it: members with their offsets and sizes, holes, bit holes, cacheline boundaries,
 * anonymous structs and unions inline, and the closing summary.
 *
 * <p>Member placement follows pahole's BTF loader: a bitfield's byte offset is that of the
 * naturally aligned unit of its base type holding it; alignment attributes are inferred from
 * gaps between members (there is no alignment in BTF).
 */
public final class BtfLayout {
    private static final int CACHELINE = 64;
    private static final int TYPE_SPACING = 26;
    private static final int NAME_SPACING = 23;
    /** How deep types may nest (arrays of arrays, inline structs, qualifiers) before it is a loop. */
    private static final int MAX_DEPTH = 64;

    private final Btf btf;
    private final int ptrSize;
    private final Map<Integer, Info> infos = new HashMap<>();
    private final Map<Integer, Integer> natural = new HashMap<>();
    private int cacheline;

    private FormatException tooDeep(int id) {
        return new FormatException(btf.source(), "btf type " + id, -1,
                "types nest more than " + MAX_DEPTH + " deep (a reference loop?)");
    }

    private BtfLayout(Btf btf) {
        this.btf = btf;
        this.ptrSize = btf.pointerSize();
    }

    /** The id of the struct or union named {@code name}; throws IllegalArgumentException if none. */
    public static int find(Btf btf, String name) {
        OptionalInt s = btf.findByName(name, BtfKind.STRUCT);
        if (s.isPresent()) {
            return s.getAsInt();
        }
        OptionalInt u = btf.findByName(name, BtfKind.UNION);
        if (u.isPresent()) {
            return u.getAsInt();
        }
        OptionalInt any = btf.findByName(name);
        if (any.isPresent()) {
            throw new IllegalArgumentException("type '" + name + "' is a "
                    + btf.type(any.getAsInt()).kind().label() + ", not a struct or union");
        }
        throw new IllegalArgumentException("type '" + name + "' not found");
    }

    /** pahole's layout of the struct or union with id {@code id}, ending with a newline. */
    public static String layout(Btf btf, int id) {
        BtfType t = btf.type(id);
        if (!(t instanceof BtfType.Composite)) {
            throw new IllegalArgumentException("type " + id + " is a " + t.kind().label() + ", not a struct or union");
        }
        BtfLayout l = new BtfLayout(btf);
        StringBuilder sb = new StringBuilder();
        Conf c = new Conf();
        c.indent = 0;
        c.typeSpacing = TYPE_SPACING;
        c.nameSpacing = t instanceof BtfType.Union ? 21 : NAME_SPACING;
        c.emitStats = true;
        if (t instanceof BtfType.Struct) {
            l.printStruct(id, c, sb);
        } else {
            l.printUnion(id, c, sb);
        }
        sb.append(";\n");
        return sb.toString();
    }

    // ---- member placement, as pahole's BTF loader and hole finder compute it ----

    private static final class Mem {
        String name;
        int type;
        long bitOffset;
        int bitfieldSize;
        long byteSize;
        long byteOffset;
        int bitfieldOffset;
        long bitSize;
        int alignment;
        long hole;
        long bitHole;
    }

    private static final class Info {
        List<Mem> members = new ArrayList<>();
        long preHole;
        long preBitHole;
        int nrHoles;
        int nrBitHoles;
        long padding;
        long bitPadding;
        int alignment;
        boolean isStruct;
        long size;
        boolean packed;
        boolean packedInferred;
    }

    /** pahole's guess that a struct is __packed__ (members at unnatural offsets, odd sizes). */
    private boolean inferPacked(int id) {
        if (!(btf.type(id) instanceof BtfType.Struct)) {
            return false;
        }
        Info in = info(id);
        if (in.packedInferred) {
            return in.packed;
        }
        if (in.padding != 0 || in.nrHoles != 0) {
            for (Mem m : in.members) {
                int st = btf.skipModsAndTypedefs(m.type);
                if (btf.type(st) instanceof BtfType.Struct && m.byteOffset % naturalAlignment(st) != 0) {
                    Info mi = info(st);
                    mi.packed = true;
                    mi.packedInferred = true;
                }
            }
            in.packed = false;
            in.packedInferred = true;
            return false;
        }
        long max = 1;
        for (Mem m : in.members) {
            long nat = naturalAlignment(btf.skipModsAndTypedefs(m.type));
            if (nat == 1) {
                continue;
            }
            max = Math.max(max, nat);
            if (m.byteOffset % nat != 0) {
                in.packed = true;
                in.packedInferred = true;
                return true;
            }
        }
        if ((max != 1 && in.alignment == 1) || in.size % max != 0) {
            in.packed = true;
        }
        in.packedInferred = true;
        return in.packed;
    }

    private void inferUnionPacked(int id) {
        Info in = info(id);
        if (in.packedInferred) {
            return;
        }
        for (Mem m : in.members) {
            int st = btf.skipModsAndTypedefs(m.type);
            if (btf.type(st) instanceof BtfType.Struct && in.size % naturalAlignment(st) != 0) {
                Info mi = info(st);
                mi.packed = true;
                mi.packedInferred = true;
            }
        }
        in.packedInferred = true;
    }

    private Info info(int id) {
        Info in = infos.get(id);
        if (in != null) {
            return in;
        }
        BtfType.Composite ct = (BtfType.Composite) btf.type(id);
        in = new Info();
        in.isStruct = ct instanceof BtfType.Struct;
        in.size = Integer.toUnsignedLong(ct.size());
        long smallest = 0;
        for (BtfType.Member m : ct.members()) {
            Mem p = new Mem();
            p.name = m.nameOff() == 0 ? null : m.name();
            p.type = m.type();
            p.bitOffset = Integer.toUnsignedLong(m.bitOffset());
            p.bitfieldSize = m.bitfieldSize();
            p.byteOffset = p.bitOffset / 8;
            in.members.add(p);
            int st = btf.skipModsAndTypedefs(p.type);
            BtfType stt = btf.type(st);
            p.byteSize = tagSize(st);
            p.bitSize = p.byteSize * 8;
            if (p.byteSize == 0) {
                continue;
            }
            if (stt instanceof BtfType.Int || stt instanceof BtfType.EnumType || stt instanceof BtfType.Float) {
                if (p.bitfieldSize != 0) {
                    p.byteOffset = p.bitOffset / p.bitSize * p.bitSize / 8;
                    p.bitfieldOffset = (int) (p.bitOffset - p.byteOffset * 8);
                } else {
                    p.byteOffset = p.bitOffset / 8;
                }
            }
            p.alignment = inferAlignment(p.byteOffset, naturalAlignment(st), smallest);
            smallest = p.byteOffset + p.byteSize;
        }
        in.alignment = inferAlignment(in.size, naturalAlignment(id), smallest);
        if (in.isStruct) {
            findHoles(in);
        }
        infos.put(id, in);
        return in;
    }

    private long tagSize(int id) {
        return tagSize(id, 0);
    }

    private long tagSize(int id, int depth) {
        if (depth > MAX_DEPTH) {
            throw tooDeep(id);
        }
        BtfType t = btf.type(id);
        if (t instanceof BtfType.Composite c && c.size() == 1 && c.members().isEmpty()) {
            return 0;
        }
        if (t instanceof BtfType.Void || t instanceof BtfType.Fwd || t instanceof BtfType.FuncProto
                || t instanceof BtfType.Func) {
            return 0;
        }
        if (t instanceof BtfType.Array a) {
            return a.count() * tagSize(btf.skipModsAndTypedefs(a.type()), depth + 1);
        }
        return btf.resolveSize(id);
    }

    private static int inferAlignment(long byteOffset, long naturalAlignment, long smallest) {
        long delta = byteOffset - smallest;
        long alignment = 0;
        if (delta > 0 && delta < (1L << 31) && byteOffset % 2 == 0) {
            alignment = Long.highestOneBit(delta) << 1;
        }
        if (alignment == 0 || alignment <= naturalAlignment || alignment == 1) {
            return 0;
        }
        if (alignment < CACHELINE && CACHELINE % alignment == 0 && byteOffset % CACHELINE == 0) {
            return CACHELINE;
        }
        return (int) alignment;
    }

    private int naturalAlignment(int id) {
        return naturalAlignment(id, 0);
    }

    private int naturalAlignment(int id, int depth) {
        if (depth > MAX_DEPTH) {
            throw tooDeep(id);
        }
        BtfType t = btf.type(id);
        int a = 1;
        switch (t) {
            case BtfType.Ptr p -> a = ptrSize;
            case BtfType.Int i -> a = i.size();
            case BtfType.Float f -> a = f.size();
            case BtfType.EnumType e -> a = e.size();
            case BtfType.Composite c -> {
                Integer cached = natural.get(id);
                if (cached != null) {
                    return cached;
                }
                natural.put(id, 1);
                for (BtfType.Member m : c.members()) {
                    a = Math.max(a, naturalAlignment(btf.skipModsAndTypedefs(m.type()), depth + 1));
                }
                natural.put(id, a);
            }
            case BtfType.Array arr -> a = naturalAlignment(btf.skipModsAndTypedefs(arr.type()), depth + 1);
            default -> a = 1;
        }
        return a <= 0 ? 1 : a;
    }

    private static void findHoles(Info in) {
        long curBitfieldEnd = in.size * 8;
        long curBitfieldSize = 0;
        long lastSeenBit = 0;
        boolean inBitfield = false;
        Mem last = null;
        for (Mem pos : in.members) {
            long bitStart = pos.bitOffset;
            long bitEnd = pos.bitfieldSize != 0 ? bitStart + pos.bitfieldSize : bitStart + pos.byteSize * 8;
            long bitHoles = 0;
            long byteHoles = 0;
            if (inBitfield) {
                long bitfieldEnd = Math.min(bitStart, curBitfieldEnd);
                bitHoles = bitfieldEnd - lastSeenBit;
                lastSeenBit = bitfieldEnd;
            }
            if (pos.bitfieldSize != 0) {
                long alignedStart = pos.byteOffset * 8;
                if (lastSeenBit < alignedStart && alignedStart <= bitStart) {
                    byteHoles = pos.byteOffset - lastSeenBit / 8;
                    lastSeenBit = alignedStart;
                }
                bitHoles += bitStart - lastSeenBit;
            } else {
                byteHoles = bitStart / 8 - lastSeenBit / 8;
            }
            lastSeenBit = bitEnd;
            if (pos.bitfieldSize != 0) {
                inBitfield = true;
                if (bitEnd > curBitfieldEnd || pos.bitSize > curBitfieldSize) {
                    curBitfieldSize = pos.bitSize;
                    curBitfieldEnd = pos.byteOffset * 8 + curBitfieldSize;
                    if (bitEnd > curBitfieldEnd) {
                        curBitfieldEnd += curBitfieldSize;
                    }
                }
            } else {
                inBitfield = false;
                curBitfieldSize = 0;
                curBitfieldEnd = bitEnd;
            }
            if (last != null) {
                last.hole = byteHoles;
                last.bitHole = bitHoles;
            } else {
                in.preHole = byteHoles;
                in.preBitHole = bitHoles;
            }
            if (bitHoles != 0) {
                in.nrBitHoles++;
            }
            if (byteHoles != 0) {
                in.nrHoles++;
            }
            last = pos;
        }
        if (inBitfield) {
            long bitfieldEnd = Math.min(in.size * 8, curBitfieldEnd);
            in.bitPadding = bitfieldEnd - lastSeenBit;
            lastSeenBit = bitfieldEnd;
        } else {
            in.bitPadding = 0;
        }
        in.padding = in.size - lastSeenBit / 8;
    }

    // ---- printing ----

    private static final class Conf implements Cloneable {
        int indent;
        int typeSpacing;
        int nameSpacing;
        boolean emitStats;
        String suffix;
        long baseOffset;
        boolean unionMember;
        boolean firstMember;
        boolean lastMember;
        boolean relOffset;

        Conf copy() {
            try {
                return (Conf) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static void tabs(StringBuilder sb, int n) {
        for (int i = 0; i < Math.min(n, 16); i++) {
            sb.append('\t');
        }
    }

    /** C's {@code %-*s}: a negative width left-justifies too. */
    private static String pad(String s, int width) {
        width = Math.abs(width);
        if (s.length() >= width) {
            return s;
        }
        return s + " ".repeat(width - s.length());
    }

    private void cachelineBoundary(Conf conf, long offset, StringBuilder sb) {
        long cl = offset / CACHELINE;
        if (cl > cacheline) {
            long pos = offset % CACHELINE;
            long inBytes = offset - pos;
            if (pos == 0) {
                sb.append("/* --- cacheline ").append(cl).append(" boundary (").append(inBytes).append(" bytes) --- */\n");
            } else {
                sb.append("/* --- cacheline ").append(cl).append(" boundary (").append(inBytes)
                        .append(" bytes) was ").append(pos).append(" byte").append(pos > 1 ? "s" : "")
                        .append(" ago --- */\n");
            }
            tabs(sb, conf.indent);
            cacheline = (int) cl;
        }
    }

    private void printStruct(int id, Conf conf, StringBuilder sb) {
        if (conf.indent > MAX_DEPTH) {
            throw tooDeep(id);
        }
        BtfType.Composite ct = (BtfType.Composite) btf.type(id);
        Info in = info(id);
        sb.append("struct");
        if (!ct.anonymous()) {
            sb.append(' ').append(ct.name());
        }
        Conf c = conf.copy();
        c.indent = Math.min(conf.indent, 15) + 1;
        int indent = Math.min(conf.indent, 15);
        inferPacked(id);
        sb.append(" {\n");
        boolean newline = false;
        long sumBytes = 0;
        long sumBits = 0;
        long sumHoles = 0;
        long sumBitHoles = 0;
        int nrPaddings = 0;
        long sumPaddings = 0;
        int nrForced = 0;
        int nrForcedHoles = 0;
        long sumForcedHoles = 0;
        if (in.preBitHole > 0) {
            if (!newline) {
                sb.append('\n');
                newline = true;
            }
            tabs(sb, c.indent);
            sb.append("/* XXX ").append(in.preBitHole).append(" bit").append(in.preBitHole != 1 ? "s" : "")
                    .append(" hole, try to pack */\n");
            sumBitHoles += in.preBitHole;
        }
        if (in.preHole > 0) {
            if (!newline) {
                sb.append('\n');
                newline = true;
            }
            tabs(sb, c.indent);
            sb.append("/* XXX ").append(in.preHole).append(" byte").append(in.preHole != 1 ? "s" : "")
                    .append(" hole, try to pack */\n");
            sumHoles += in.preHole;
        }
        Mem last = null;
        long lastSize = 0;
        List<Mem> ms = in.members;
        for (int i = 0; i < ms.size(); i++) {
            Mem pos = ms.get(i);
            if (pos.alignment != 0) {
                long forcedHole = last != null ? last.hole : in.preHole;
                if (forcedHole != 0) {
                    nrForcedHoles++;
                    sumForcedHoles += forcedHole;
                }
                nrForced++;
            }
            if (last != null && lastSize != 0) {
                if (last.bitHole != 0 && pos.bitfieldSize != 0) {
                    long bfs = last.bitHole;
                    if (last.byteOffset != pos.byteOffset) {
                        sb.append('\n');
                        tabs(sb, c.indent);
                        sb.append("/* Force alignment to the next boundary: */\n");
                        bfs = 0;
                    }
                    tabs(sb, c.indent);
                    typeFprintf(pos.type, "", c, sb);
                    sb.append(':').append(bfs).append(";\n");
                }
                if (pos.byteOffset < last.byteOffset
                        || (pos.byteOffset == last.byteOffset && last.bitfieldSize == 0 && pos.bitfieldSize != 0)) {
                    if (!newline) {
                        sb.append('\n');
                        newline = true;
                    }
                    tabs(sb, c.indent);
                    sb.append("/* Bitfield combined with previous fields */\n");
                } else {
                    long cc = pos.byteOffset - last.byteOffset;
                    if (cc > 0 && cc < lastSize) {
                        if (!newline) {
                            sb.append('\n');
                            newline = true;
                        }
                        tabs(sb, c.indent);
                        sb.append("/* Bitfield combined with next fields */\n");
                    }
                }
            }
            if (newline) {
                sb.append('\n');
                newline = false;
            }
            c.lastMember = i == ms.size() - 1;
            c.firstMember = last == null;
            long size = pos.byteSize;
            tabs(sb, c.indent);
            memberFprintf(pos, false, c, sb);
            BtfType pt = btf.type(pos.type);
            if (pt instanceof BtfType.Struct) {
                Info ti = info(pos.type);
                inferPacked(pos.type);
                if (ti.padding > 0) {
                    nrPaddings++;
                    sumPaddings += ti.padding;
                    if (!newline) {
                        sb.append('\n');
                        newline = true;
                    }
                    sb.append('\n');
                    tabs(sb, c.indent);
                    sb.append("/* XXX last struct has ").append(ti.padding).append(" byte")
                            .append(ti.padding != 1 ? "s" : "").append(" of padding */");
                }
            }
            if (pos.bitHole != 0) {
                if (!newline) {
                    sb.append('\n');
                    newline = true;
                }
                sb.append('\n');
                tabs(sb, c.indent);
                sb.append("/* XXX ").append(pos.bitHole).append(" bit").append(pos.bitHole != 1 ? "s" : "")
                        .append(" hole, try to pack */");
                sumBitHoles += pos.bitHole;
            }
            if (pos.hole > 0) {
                if (!newline) {
                    sb.append('\n');
                    newline = true;
                }
                sb.append('\n');
                tabs(sb, c.indent);
                sb.append("/* XXX ").append(pos.hole).append(" byte").append(pos.hole != 1 ? "s" : "")
                        .append(" hole, try to pack */");
                sumHoles += pos.hole;
            }
            sb.append('\n');
            if (pos.bitfieldSize != 0) {
                sumBits += pos.bitfieldSize;
            } else {
                sumBytes += pos.byteSize;
            }
            if (last == null || lastSize == 0 || last.byteOffset != pos.byteOffset) {
                lastSize = size;
            } else if (last.bitfieldSize == 0 && pos.bitfieldSize != 0) {
                lastSize = size;
            }
            last = pos;
        }
        if (conf.emitStats) {
            tabs(sb.append('\n'), c.indent);
            sb.append("/* size: ").append(in.size).append(", cachelines: ").append((in.size + CACHELINE - 1) / CACHELINE)
                    .append(", members: ").append(ms.size()).append(" */\n");
            if (sumHoles > 0 || sumBitHoles > 0) {
                if (sumBytes > 0) {
                    tabs(sb, c.indent);
                    sb.append("/* sum members: ").append(sumBytes);
                    if (sumHoles > 0) {
                        sb.append(", holes: ").append(in.nrHoles).append(", sum holes: ").append(sumHoles);
                    }
                    sb.append(" */\n");
                }
                if (sumBits > 0) {
                    tabs(sb, c.indent);
                    sb.append("/* sum bitfield members: ").append(sumBits).append(" bits");
                    if (sumBitHoles > 0) {
                        sb.append(", bit holes: ").append(in.nrBitHoles).append(", sum bit holes: ")
                                .append(sumBitHoles).append(" bits");
                    } else {
                        sb.append(" (").append(sumBits / 8).append(" bytes)");
                    }
                    sb.append(" */\n");
                }
            }
            if (in.padding > 0) {
                tabs(sb, c.indent);
                sb.append("/* padding: ").append(in.padding).append(" */\n");
            }
            if (nrPaddings > 0) {
                tabs(sb, c.indent);
                sb.append("/* paddings: ").append(nrPaddings).append(", sum paddings: ").append(sumPaddings).append(" */\n");
            }
            if (in.bitPadding > 0) {
                tabs(sb, c.indent);
                sb.append("/* bit_padding: ").append(in.bitPadding).append(" bits */\n");
            }
            if (nrForced != 0) {
                tabs(sb, c.indent);
                sb.append("/* forced alignments: ").append(nrForced);
                if (nrForcedHoles != 0) {
                    sb.append(", forced holes: ").append(nrForcedHoles).append(", sum forced holes: ")
                            .append(sumForcedHoles);
                }
                sb.append(" */\n");
            }
            long lastCl = (c.baseOffset + in.size) % CACHELINE;
            if (lastCl != 0) {
                tabs(sb, c.indent);
                sb.append("/* last cacheline: ").append(lastCl).append(" bytes */\n");
            }
            long diff = in.size * 8 - (sumBytes * 8 + sumBits + sumHoles * 8 + sumBitHoles + in.padding * 8 + in.bitPadding);
            if (diff != 0 && !ms.isEmpty()) {
                sb.append('\n');
                tabs(sb, c.indent);
                sb.append("/* BRAIN FART ALERT! ").append(in.size).append(" bytes != ").append(sumBytes)
                        .append(" (member bytes) + ").append(sumBits).append(" (member bits) + ").append(sumHoles)
                        .append(" (byte holes) + ").append(sumBitHoles).append(" (bit holes), diff = ")
                        .append(diff).append(" bits */\n");
            }
        }
        tabs(sb, indent);
        sb.append('}');
        if (in.packed) {
            sb.append(" __attribute__((__packed__))");
        }
        if (conf.suffix != null) {
            sb.append(' ').append(conf.suffix);
        }
        if (in.alignment != 0 && !in.packed) {
            sb.append(" __attribute__((__aligned__(").append(in.alignment).append(")))");
        }
    }

    private void printUnion(int id, Conf conf, StringBuilder sb) {
        if (conf.indent > MAX_DEPTH) {
            throw tooDeep(id);
        }
        BtfType.Composite ct = (BtfType.Composite) btf.type(id);
        Info in = info(id);
        int indent = Math.min(conf.indent, 15);
        sb.append("union");
        if (!ct.anonymous()) {
            sb.append(' ').append(ct.name());
        }
        sb.append(" {\n");
        inferUnionPacked(id);
        Conf u = conf.copy();
        u.indent = indent + 1;
        int initial = cacheline;
        for (Mem pos : in.members) {
            u.unionMember = true;
            tabs(sb, u.indent);
            memberFprintf(pos, true, u, sb);
            sb.append('\n');
            cacheline = initial;
        }
        tabs(sb, indent);
        sb.append('}');
        if (conf.suffix != null) {
            sb.append(' ').append(conf.suffix);
        }
    }

    private boolean isCompositeOrEnum(BtfType t) {
        return t instanceof BtfType.Composite || t instanceof BtfType.EnumType;
    }

    private void memberFprintf(Mem m, boolean unionMember, Conf conf, StringBuilder sb) {
        Conf s = conf.copy();
        long offset = m.byteOffset;
        if (!s.relOffset) {
            offset += s.baseOffset;
            if (!unionMember) {
                s.baseOffset = offset;
            }
        }
        cachelineBoundary(conf, offset, sb);
        int start = sb.length();
        BtfType t = btf.type(m.type);
        if (isCompositeOrEnum(t)) {
            typeFprintf(m.type, null, s, sb);
            if (m.name != null) {
                if (t.anonymous()) {
                    sb.append(' ');
                }
                sb.append(m.name);
            }
        } else {
            typeFprintf(m.type, m.name == null ? "" : m.name, s, sb);
        }
        if (m.bitfieldSize != 0) {
            sb.append(':').append(m.bitfieldSize);
        }
        int alignPrinted = 0;
        if (m.alignment != 0) {
            String a = " __attribute__((__aligned__(" + m.alignment + ")))";
            sb.append(a);
            alignPrinted = a.length();
        }
        sb.append(';');
        int sizeSpacing = 5;
        if (isCompositeOrEnum(t) && t.anonymous()) {
            int slen = alignPrinted + (m.name != null ? m.name.length() : -1);
            if (t instanceof BtfType.Struct && info(m.type).packed) {
                slen += "__attribute__((__packed__))".length() + 1;
            }
            int spacing = s.typeSpacing + s.nameSpacing - slen - 3;
            // C's %*s of " ": a negative width left-justifies
            sb.append(" ".repeat(Math.max(Math.abs(spacing), 1)));
        } else {
            int printed = sb.length() - start;
            int spacing = s.typeSpacing + s.nameSpacing - printed;
            sb.append(" ".repeat(Math.max(spacing, 1)));
        }
        sb.append("/* ").append(String.format("%5d", offset));
        if (m.bitfieldSize != 0) {
            sb.append(':').append(String.format("%2d", m.bitfieldOffset));
            sizeSpacing -= 3;
        }
        sb.append(' ').append(String.format("%" + sizeSpacing + "d", m.byteSize)).append(" */");
    }

    /** dwarves' type__fprintf: a member's type and name, padded to the type column. */
    private void typeFprintf(int id, String name, Conf conf, StringBuilder sb) {
        Conf t = conf.copy();
        BtfType type = btf.type(id);
        if (type instanceof BtfType.Composite || type instanceof BtfType.EnumType) {
            t.suffix = name;
            t.emitStats = false;
        }
        for (int depth = 0; ; depth++) {
            if (depth > MAX_DEPTH) {
                throw tooDeep(id);
            }
            switch (type) {
                case BtfType.TypeTag tt -> {
                    // pahole 1.24 does not know TYPE_TAG: the type is "not found"
                    sb.append(pad("<ERROR", t.typeSpacing)).append("> ").append(name == null ? "" : name);
                    return;
                }
                case BtfType.Ptr p when p.type() != 0 && btf.type(p.type()) instanceof BtfType.TypeTag -> {
                    sb.append(pad("<ERROR", t.typeSpacing)).append("> ").append(name == null ? "" : name);
                    return;
                }
                case BtfType.Ptr p when p.type() != 0 && btf.type(p.type()) instanceof BtfType.Composite c
                        && c.anonymous() -> {
                    // a pointer to an anonymous struct or union: pahole prints the type inline
                    name = "* " + name;
                    t.relOffset = true;
                    t.typeSpacing -= 8;
                    t.suffix = name;
                    t.emitStats = false;
                    id = p.type();
                    type = btf.type(id);
                    continue;
                }
                case BtfType.Ptr p when p.type() != 0 && btf.type(p.type()) instanceof BtfType.FuncProto fp -> {
                    funcProto(fp, name, true, t.typeSpacing, sb);
                    return;
                }
                case BtfType.FuncProto fp -> {
                    funcProto(fp, name, false, t.typeSpacing, sb);
                    return;
                }
                case BtfType.Const c -> {
                    sb.append("const ");
                    t.typeSpacing -= 6;
                    id = c.type();
                    type = btf.type(id);
                    continue;
                }
                case BtfType.Array a -> {
                    arrayFprintf(a, name, t, sb);
                    return;
                }
                case BtfType.Struct s -> {
                    if (!s.anonymous()) {
                        sb.append("struct ").append(pad(s.name(), t.typeSpacing - 7)).append(' ')
                                .append(name == null ? "" : name);
                    } else {
                        t.typeSpacing -= 8;
                        printStruct(id, t, sb);
                    }
                    return;
                }
                case BtfType.Union u -> {
                    if (!u.anonymous()) {
                        sb.append("union ").append(pad(u.name(), t.typeSpacing - 6)).append(' ')
                                .append(name == null ? "" : name);
                    } else {
                        t.typeSpacing -= 8;
                        printUnion(id, t, sb);
                    }
                    return;
                }
                case BtfType.EnumType e -> {
                    if (!e.anonymous()) {
                        sb.append("enum ").append(pad(e.name(), t.typeSpacing - 5)).append(' ')
                                .append(name == null ? "" : name);
                    } else {
                        enumFprintf(e, t, sb);
                    }
                    return;
                }
                default -> {
                    sb.append(pad(tagName(id), t.typeSpacing)).append(' ').append(name);
                    return;
                }
            }
        }
    }

    private void enumFprintf(BtfType.EnumType e, Conf conf, StringBuilder sb) {
        sb.append("enum");
        int indent = Math.min(conf.indent, 15);
        if (e.values().isEmpty()) {
            return;
        }
        sb.append(" {\n");
        int max = 0;
        for (BtfType.EnumValue v : e.values()) {
            max = Math.max(max, v.name().length());
        }
        for (BtfType.EnumValue v : e.values()) {
            tabs(sb, indent);
            sb.append('\t').append(pad(v.name(), max)).append(" = ");
            // pahole 1.24 reads BTF enumerators as unsigned
            sb.append(Long.toUnsignedString(e instanceof BtfType.Enum ? v.value() & 0xffffffffL : v.value()));
            sb.append(",\n");
        }
        tabs(sb, indent);
        sb.append('}');
        if (e.size() != 4) {
            sb.append(" __attribute__((__packed__))");
        }
        if (conf.suffix != null) {
            sb.append(' ').append(conf.suffix);
        }
    }

    private void arrayFprintf(BtfType.Array a, String name, Conf conf, StringBuilder sb) {
        List<Long> dims = new ArrayList<>();
        BtfType.Array cur = a;
        int elem;
        while (true) {
            if (dims.size() > MAX_DEPTH) {
                throw tooDeep(a.type());
            }
            dims.add(cur.count());
            elem = cur.type();
            if (btf.type(elem) instanceof BtfType.Array inner) {
                cur = inner;
            } else {
                break;
            }
        }
        if (dims.getFirst() == 0 && btf.type(elem) instanceof BtfType.Const c) {
            elem = c.type();
        }
        // pahole 1.24's BTF loader lists the dimensions innermost first
        List<Long> printed = dims.reversed();
        typeFprintf(elem, name, conf, sb);
        boolean single = conf.lastMember && conf.firstMember;
        for (long n : printed) {
            if (n != 0 || !conf.lastMember || single || conf.unionMember) {
                sb.append('[').append(n).append(']');
            } else {
                sb.append("[]");
            }
        }
    }

    private int protoDepth;

    private void funcProto(BtfType.FuncProto fp, String name, boolean pointer, int spacing, StringBuilder sb) {
        if (++protoDepth > MAX_DEPTH) {
            throw tooDeep(fp.returnType());
        }
        try {
            funcProto0(fp, name, pointer, spacing, sb);
        } finally {
            protoDepth--;
        }
    }

    private void funcProto0(BtfType.FuncProto fp, String name, boolean pointer, int spacing, StringBuilder sb) {
        sb.append(pad(tagName(fp.returnType()), spacing)).append(" (");
        if (pointer) {
            sb.append('*');
        }
        sb.append(name == null ? "" : name).append(')');
        params(fp, sb);
    }

    private void params(BtfType.FuncProto fp, StringBuilder sb) {
        sb.append('(');
        boolean first = true;
        boolean variadic = fp.variadic();
        List<BtfType.Param> ps = variadic ? fp.params().subList(0, fp.params().size() - 1) : fp.params();
        for (BtfType.Param p : ps) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            String name = p.nameOff() == 0 ? null : p.name();
            BtfType t = btf.type(p.type());
            if (t instanceof BtfType.Ptr ptr && ptr.type() != 0 && btf.type(ptr.type()) instanceof BtfType.FuncProto f) {
                funcProto(f, name, true, 0, sb);
                continue;
            } else if (t instanceof BtfType.FuncProto f) {
                funcProto(f, name, false, 0, sb);
                continue;
            }
            sb.append(tagName(p.type()));
            if (name != null) {
                sb.append(' ').append(name);
            }
        }
        if (first) {
            sb.append("void)");
        } else if (variadic) {
            sb.append(", ...)");
        } else {
            sb.append(')');
        }
    }

    /** dwarves' tag__name: the C spelling of a type used inside another one. */
    private String tagName(int id) {
        return tagName(id, 0);
    }

    private String tagName(int id, int depth) {
        if (depth > 64) {
            throw tooDeep(id);
        }
        BtfType t = btf.type(id);
        return switch (t) {
            case BtfType.Void v -> "void";
            case BtfType.Int i -> i.name();
            case BtfType.Float f -> "single " + f.name(); // pahole 1.24's spelling of BTF floats
            case BtfType.Ptr p -> {
                if (p.type() == 0) {
                    yield "void *";
                }
                int target = p.type();
                String constPtr = "";
                if (btf.type(target) instanceof BtfType.Const c && btf.type(c.type()) instanceof BtfType.Ptr) {
                    constPtr = "const ";
                    target = c.type();
                }
                yield tagName(target, depth + 1) + " " + constPtr + "*";
            }
            case BtfType.Const c -> "const " + tagName(c.type(), depth + 1) + " ";
            case BtfType.Volatile v -> "volatile " + tagName(v.type(), depth + 1) + " ";
            case BtfType.Restrict r -> tagName(r.type(), depth + 1) + " restrict ";
            case BtfType.TypeTag tt -> tagName(tt.type(), depth + 1);
            case BtfType.Array a -> tagName(a.type(), depth + 1);
            case BtfType.FuncProto fp -> {
                StringBuilder sb = new StringBuilder();
                funcProto(fp, null, false, 0, sb);
                yield sb.toString();
            }
            case BtfType.Struct s -> "struct " + s.name();
            case BtfType.Union u -> "union " + u.name();
            case BtfType.EnumType e -> "enum " + e.name();
            case BtfType.Fwd f -> (f.union() ? "union " : "struct ") + f.name();
            case BtfType.Typedef td -> td.name();
            default -> t.name();
        };
    }
}
