package io.perfj.btf.encode;

import io.perfj.dwarf.info.DieCursor;
import io.perfj.dwarf.info.Dw;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One compile unit as pahole 1.24's DWARF loader sees it (dwarf_loader.c): a types table whose
 * ids are assigned as types are finished (children before their parent, btf_type_tag
 * annotations before their pointer), a functions table, and the unit's variables, with
 * references resolved only to DIEs of the types table. Reused by one thread for unit after unit.
 */
final class CuModel {
    static final int K_BASE = 1;
    static final int K_PTR = 2;
    static final int K_CONST = 3;
    static final int K_VOLATILE = 4;
    static final int K_RESTRICT = 5;
    static final int K_TYPEDEF = 6;
    static final int K_STRUCT = 7;
    static final int K_UNION = 8;
    static final int K_ENUM = 9;
    static final int K_ARRAY = 10;
    static final int K_PROTO = 11;
    static final int K_TYPETAG = 12;
    static final int K_UNSPEC = 13;
    static final int K_UNSUPPORTED = 14;

    /** Deeper DIE nesting than this is taken for damage (compilers stay far below). */
    private static final int MAX_DEPTH = 200;

    static final int F_DECLARATION = 1;
    static final int F_UNSPEC_PARAMS = 2;

    /** Attribute name used by clang for BTF annotations. */
    private static final String BTF_DECL_TAG = "btf_decl_tag";
    private static final String BTF_TYPE_TAG = "btf_type_tag";

    private final StringPool pool;
    /**
     * Pool id + 1 of the string at each offset of .debug_str (0: not looked up yet), shared by all
     * threads: a thread that races another writes the same id. Null for a relocatable object,
     * whose units share no strings (each has its own copies): names are then found by their bytes.
     */
    private final int[] strIds;
    /**
     * A small direct-mapped cache in front of {@link #strIds} (which, at 4 bytes per byte of
     * .debug_str, is far larger than the CPU's caches): the common member and type names hit here.
     */
    private static final int RECENT_BITS = 13;
    private final int[] recentOff = new int[1 << RECENT_BITS];
    private final int[] recentId = new int[1 << RECENT_BITS];
    /** Strings inside the DIEs (DW_FORM_string), by their bytes: shared by all units of a thread. */
    private final InlineNames inlineNames;
    /** The unit's .debug_str bytes (null when not on the heap). */
    private byte[] debugStr;
    DieCursor c;

    // Types table, indexed by id (1-based)
    int nTypes;
    int[] tKind = new int[1024];
    int[] tDwTag = new int[1024];
    int[] tName = new int[1024];
    long[] tTypeRef = new long[1024];
    long[] tSize = new long[1024];
    int[] tFlags = new int[1024];
    int[] tAux = new int[1024];
    int[] tStart = new int[1024];
    int[] tCount = new int[1024];
    int[] tType = new int[1024];
    long[] tOff = new long[1024];
    final Map<Integer, IntBuf> typeAnnots = new HashMap<>();

    // Members (struct/union children), by creation; memberOrder lists each type's members together
    int nMembers;
    int[] mName = new int[4096];
    long[] mTypeRef = new long[4096];
    long[] mByteOff = new long[4096];
    long[] mDataBitOff = new long[4096];
    long[] mBitOffAttr = new long[4096];
    long[] mBitSize = new long[4096];
    long[] mByteSize = new long[4096];
    int[] mFlags = new int[4096];
    int[] mType = new int[4096];
    final IntBuf memberOrder = new IntBuf(4096);
    static final int M_DATA_BIT_OFFSET = 1;
    static final int M_STATIC = 2;
    static final int M_INHERITANCE = 4;

    // Enumerators
    final IntBuf enumName = new IntBuf(1024);
    long[] enumValue = new long[1024];

    // Array dimensions
    long[] dims = new long[256];
    int nDims;

    // Parameters of functions, subroutine types and lexical blocks
    int nParams;
    int[] pName = new int[1024];
    long[] pTypeRef = new long[1024];
    long[] pOriginRef = new long[1024];
    int[] pType = new int[1024];
    final IntBuf paramOrder = new IntBuf(1024);

    final List<Fn> fns = new ArrayList<>();
    final List<Var> vars = new ArrayList<>();
    final List<Var> unitVars = new ArrayList<>();

    /** Types, functions, parameters and variables by DIE offset. */
    private final DieIndex byOff = new DieIndex();

    private final IntBuf[] scratch = new IntBuf[256];
    private int scratchDepth;

    /** A DW_TAG_subprogram (pahole's struct function). */
    static final class Fn {
        long off;
        int name = -1;
        long typeRef = -1;
        long originRef = -1;
        long specRef = -1;
        boolean declaration;
        boolean external;
        boolean unspecParams;
        final IntBuf params = new IntBuf(4);
        IntBuf annots;
        int type;
    }

    /** A DW_TAG_variable (pahole's struct variable). */
    static final class Var {
        long off;
        int name = -1;
        long typeRef = -1;
        long specRef = -1;
        boolean hasSpec;
        boolean declaration;
        boolean external;
        boolean artificial;
        long addr = DieCursor.NO_ADDRESS;
        IntBuf annots;
        int type;
        Var spec;
    }

    CuModel(StringPool pool, int[] strIds) {
        this.pool = pool;
        this.strIds = strIds;
        this.inlineNames = new InlineNames(pool);
    }

    /** DWARF this encoder does not turn into BTF, skipped (what pahole warns about), in DIE order. */
    final java.util.List<String> skipped = new java.util.ArrayList<>();

    private void skipUnsupported(String where, int tag) {
        String name = tag == 0x2f ? "template_type_parameter" : tag == 0x30 ? "template_value_parameter" : "?";
        skipped.add(String.format("%s: tag not supported 0x%x (%s) at <0x%x>, skipped", where, tag, name, c.offset()));
    }

    void reset(DieCursor cursor) {
        skipped.clear();
        this.c = cursor;
        this.debugStr = cursor.dwarf().debugStrBytes();
        nTypes = 0;
        typeAnnots.clear();
        nMembers = 0;
        memberOrder.clear();
        enumName.clear();
        nDims = 0;
        nParams = 0;
        paramOrder.clear();
        fns.clear();
        vars.clear();
        unitVars.clear();
        byOff.reset(cursor.unit().offset(), cursor.unit().end() - cursor.unit().offset());
        signatures.clear();
        signatureIndex.clear();
        scratchDepth = 0;
    }

    /** Pool id of a string attribute, or -1 when absent (pahole's NULL). */
    int str(int at) {
        int i = c.find(at);
        if (i < 0) {
            return -1;
        }
        if (c.form(i) == Dw.FORM_string) {
            return inlineNames.id(c.unitBytes(), c.inlineStringStart(i), c.inlineStringLength(i));
        }
        long off = c.debugStrOffset(i);
        if (off < 0) {
            String s = c.string(i); // .debug_line_str: names of units and directories, rare
            return s == null ? -1 : pool.intern(s);
        }
        int o = (int) off;
        int slot = (o * 0x9E3779B1) >>> (32 - RECENT_BITS);
        if (recentOff[slot] == o + 1) {
            return recentId[slot];
        }
        int id = strIds == null ? -1 : strIds[o] - 1;
        if (id < 0) {
            // by content: a relocatable object's units each have their own copy of every name
            // (xfs.ko: 457k strings in .debug_str, 24k different)
            if (debugStr != null) {
                id = inlineNames.idOfTerminated(debugStr, o);
            } else {
                id = pool.intern(c.string(i));
            }
            if (strIds != null) {
                strIds[o] = id + 1;
            }
        }
        recentOff[slot] = o + 1;
        recentId[slot] = id;
        return id;
    }

    /** A reference by type signature is kept as this flag plus an index into {@link #signatures}. */
    private static final long SIG_REF = 1L << 62;
    /** Type signatures referenced by the unit (DW_FORM_ref_sig8), in order of first use. */
    final java.util.ArrayList<Long> signatures = new java.util.ArrayList<>();
    private final java.util.HashMap<Long, Integer> signatureIndex = new java.util.HashMap<>();

    private long typeRefOf(int at) {
        int i = c.find(at);
        if (i < 0) {
            return -1;
        }
        if (c.isSignatureRef(i)) {
            long sig = c.value(i);
            Integer k = signatureIndex.get(sig);
            if (k == null) {
                k = signatures.size();
                signatures.add(sig);
                signatureIndex.put(sig, k);
            }
            return SIG_REF | k;
        }
        return c.ref(i);
    }

    /**
     * The id standing for a type in another unit, found by its signature: below
     * {@link CuBtf#INDEX_TYPE}, resolved when units are merged.
     */
    static int foreignId(int signatureIndex) {
        return -3 - signatureIndex;
    }

    private IntBuf scratch() {
        IntBuf b = scratch[scratchDepth];
        if (b == null) {
            b = scratch[scratchDepth] = new IntBuf(64);
        }
        b.clear();
        scratchDepth++;
        return b;
    }

    private void release() {
        scratchDepth--;
    }

    // ---- walking ----

    /** Reads the unit DIE and everything below it. Returns false for units pahole skips. */
    boolean load() {
        int t = c.next();
        if (t != Dw.TAG_compile_unit && t != Dw.TAG_type_unit) {
            return false;
        }
        if (!c.hasChildren()) {
            return true;
        }
        while (true) {
            t = c.next();
            if (t <= 0) {
                break;
            }
            processTag(t, true);
        }
        return true;
    }

    /** pahole's die__process_tag plus the caller's table insertion. */
    private void processTag(int t, boolean top) {
        if (scratchDepth >= scratch.length - 2 || c.depth() > MAX_DEPTH) {
            throw c.error("DIEs are nested too deeply");
        }
        switch (t) {
            case Dw.TAG_array_type, Dw.TAG_base_type, Dw.TAG_const_type, Dw.TAG_restrict_type,
                 Dw.TAG_volatile_type, Dw.TAG_unspecified_type, Dw.TAG_reference_type, Dw.TAG_pointer_type,
                 Dw.TAG_ptr_to_member_type, Dw.TAG_enumeration_type, Dw.TAG_class_type, Dw.TAG_interface_type,
                 Dw.TAG_structure_type, Dw.TAG_union_type, Dw.TAG_subroutine_type, Dw.TAG_typedef,
                 Dw.TAG_rvalue_reference_type, Dw.TAG_string_type -> processType(t);
            case Dw.TAG_subprogram -> processFunction();
            case Dw.TAG_variable -> processVariable(top);
            default -> c.skipChildren();
        }
    }

    private int addType(int kind, int dwTag, long off, int name, long typeRef, long size, int flags, int aux,
                        int start, int count) {
        int id = ++nTypes;
        if (id >= tKind.length) {
            int n = tKind.length * 2;
            tKind = Arrays.copyOf(tKind, n);
            tDwTag = Arrays.copyOf(tDwTag, n);
            tName = Arrays.copyOf(tName, n);
            tTypeRef = Arrays.copyOf(tTypeRef, n);
            tSize = Arrays.copyOf(tSize, n);
            tFlags = Arrays.copyOf(tFlags, n);
            tAux = Arrays.copyOf(tAux, n);
            tStart = Arrays.copyOf(tStart, n);
            tCount = Arrays.copyOf(tCount, n);
            tType = Arrays.copyOf(tType, n);
            tOff = Arrays.copyOf(tOff, n);
        }
        tKind[id] = kind;
        tDwTag[id] = dwTag;
        tName[id] = name;
        tTypeRef[id] = typeRef;
        tSize[id] = size;
        tFlags[id] = flags;
        tAux[id] = aux;
        tStart[id] = start;
        tCount[id] = count;
        tType[id] = 0;
        tOff[id] = off;
        byOff.put(DieIndex.TYPE, off, id);
        return id;
    }

    private void processType(int t) {
        long off = c.offset();
        int name = str(Dw.AT_name);
        long typeRef = typeRefOf(Dw.AT_type);
        long byteSize = c.udataOf(Dw.AT_byte_size);
        switch (t) {
            case Dw.TAG_base_type -> {
                int enc = (int) c.udataOf(Dw.AT_encoding);
                c.skipChildren();
                addType(K_BASE, t, off, name, typeRef, byteSize * 8, 0, enc, 0, 0);
            }
            case Dw.TAG_const_type, Dw.TAG_volatile_type, Dw.TAG_restrict_type -> {
                c.skipChildren();
                int k = t == Dw.TAG_const_type ? K_CONST : t == Dw.TAG_volatile_type ? K_VOLATILE : K_RESTRICT;
                addType(k, t, off, -1, typeRef, 0, 0, 0, 0, 0);
            }
            case Dw.TAG_unspecified_type -> {
                c.skipChildren();
                addType(K_UNSPEC, t, off, name, -1, 0, 0, 0, 0, 0);
            }
            case Dw.TAG_reference_type, Dw.TAG_ptr_to_member_type, Dw.TAG_string_type -> {
                c.skipChildren();
                addType(K_UNSUPPORTED, t, off, name, typeRef, byteSize, 0, 0, 0, 0);
            }
            case Dw.TAG_pointer_type -> processPointer(off, typeRef, byteSize);
            case Dw.TAG_enumeration_type -> processEnum(off, name, typeRef, byteSize);
            case Dw.TAG_class_type, Dw.TAG_interface_type, Dw.TAG_structure_type, Dw.TAG_union_type ->
                    processStruct(t, off, name, byteSize);
            case Dw.TAG_subroutine_type -> processSubroutine(off, typeRef, byteSize);
            case Dw.TAG_typedef, Dw.TAG_rvalue_reference_type -> {
                IntBuf annots = annotations(-1);
                int id = addType(t == Dw.TAG_typedef ? K_TYPEDEF : K_UNSUPPORTED, t, off, name, typeRef, byteSize,
                        0, 0, 0, 0);
                if (annots != null) {
                    typeAnnots.put(id, annots);
                }
            }
            case Dw.TAG_array_type -> processArray(off, typeRef, byteSize);
            default -> c.skipChildren();
        }
    }

    /** btf_decl_tag annotations among the current DIE's children (all other children skipped). */
    private IntBuf annotations(int componentIdx) {
        if (!c.hasChildren()) {
            return null;
        }
        IntBuf out = null;
        int t;
        while ((t = c.next()) > 0) {
            if (t == Dw.TAG_LLVM_annotation) {
                out = addAnnotation(out, componentIdx);
            }
            c.skipChildren();
        }
        return out;
    }

    private IntBuf addAnnotation(IntBuf out, int componentIdx) {
        int n = c.find(Dw.AT_name);
        if (n >= 0 && c.stringEquals(n, BTF_DECL_TAG)) {
            if (out == null) {
                out = new IntBuf(4);
            }
            out.add(str(Dw.AT_const_value));
            out.add(componentIdx);
        }
        return out;
    }

    private void processPointer(long off, long typeRef, long byteSize) {
        int first = 0;
        int count = 0;
        if (c.hasChildren()) {
            int t;
            while ((t = c.next()) > 0) {
                if (t == Dw.TAG_LLVM_annotation) {
                    int n = c.find(Dw.AT_name);
                    if (n >= 0 && c.stringEquals(n, BTF_TYPE_TAG)) {
                        int id = addType(K_TYPETAG, t, c.offset(), str(Dw.AT_const_value), -1, 0, 0, 0, 0, 0);
                        if (count == 0) {
                            first = id;
                        }
                        count++;
                    }
                }
                c.skipChildren();
            }
        }
        addType(K_PTR, Dw.TAG_pointer_type, off, -1, typeRef, byteSize, 0, 0, first, count);
    }

    private void processEnum(long off, int name, long typeRef, long byteSize) {
        int flags = c.udataOf(Dw.AT_declaration) != 0 ? F_DECLARATION : 0;
        int start = enumName.size();
        if (c.hasChildren()) {
            int t;
            while ((t = c.next()) > 0) {
                if (t == Dw.TAG_enumerator) {
                    int k = enumName.size();
                    if (k >= enumValue.length) {
                        enumValue = Arrays.copyOf(enumValue, k * 2);
                    }
                    enumName.add(str(Dw.AT_name));
                    int v = c.find(Dw.AT_const_value);
                    enumValue[k] = v < 0 ? 0 : c.udata(v);
                }
                c.skipChildren();
            }
        }
        long bits = byteSize == 0 ? 32 : byteSize * 8;
        addType(K_ENUM, Dw.TAG_enumeration_type, off, name, typeRef, bits, flags, 0, start, enumName.size() - start);
    }

    private void processArray(long off, long typeRef, long byteSize) {
        int start = nDims;
        if (c.hasChildren()) {
            int t;
            while ((t = c.next()) > 0) {
                if (t == Dw.TAG_subrange_type) {
                    long n = 0;
                    int ub = c.find(Dw.AT_upper_bound);
                    if (ub >= 0) {
                        n = isConstant(ub) ? c.udata(ub) + 1 : 0;
                    } else {
                        int cnt = c.find(Dw.AT_count);
                        if (cnt >= 0 && isConstant(cnt)) {
                            n = c.udata(cnt);
                        }
                    }
                    if (nDims == dims.length) {
                        dims = Arrays.copyOf(dims, nDims * 2);
                    }
                    dims[nDims++] = n;
                }
                c.skipChildren();
            }
        }
        addType(K_ARRAY, Dw.TAG_array_type, off, -1, typeRef, byteSize, 0, 0, start, nDims - start);
    }

    private boolean isConstant(int i) {
        return switch (c.form(i)) {
            case Dw.FORM_data1, Dw.FORM_data2, Dw.FORM_data4, Dw.FORM_data8, Dw.FORM_sdata, Dw.FORM_udata,
                 Dw.FORM_implicit_const -> true;
            default -> false;
        };
    }

    private void processStruct(int t, long off, int name, long byteSize) {
        boolean union = t == Dw.TAG_union_type;
        int flags = c.udataOf(Dw.AT_declaration) != 0 ? F_DECLARATION : 0;
        IntBuf members = scratch();
        IntBuf annots = null;
        if (c.hasChildren()) {
            int memberIdx = 0;
            int ct;
            while ((ct = c.next()) > 0) {
                switch (ct) {
                    case Dw.TAG_member, Dw.TAG_inheritance -> {
                        members.add(readMember(ct, union));
                        if (c.hasChildren()) {
                            int at;
                            while ((at = c.next()) > 0) {
                                if (at == Dw.TAG_LLVM_annotation) {
                                    annots = addAnnotation(annots, memberIdx);
                                }
                                c.skipChildren();
                            }
                        }
                        memberIdx++;
                    }
                    case Dw.TAG_LLVM_annotation -> {
                        annots = addAnnotation(annots, -1);
                        c.skipChildren();
                    }
                    case 0x2f /* template_type_param */, 0x30 /* template_value_param */ -> {
                        skipUnsupported("class", ct);
                        c.skipChildren();
                    }
                    case Dw.TAG_subrange_type, 0x33 /* variant_part */, 0x4107, 0x4108, 0x4106 -> c.skipChildren();
                    default -> processTag(ct, false);
                }
            }
        }
        int start = memberOrder.size();
        for (int i = 0; i < members.size(); i++) {
            memberOrder.add(members.get(i));
        }
        release();
        int id = addType(union ? K_UNION : K_STRUCT, t, off, name, -1, byteSize, flags, 0, start, members.size());
        if (annots != null) {
            typeAnnots.put(id, annots);
        }
    }

    private int readMember(int tag, boolean union) {
        int m = nMembers++;
        if (m >= mName.length) {
            int n = mName.length * 2;
            mName = Arrays.copyOf(mName, n);
            mTypeRef = Arrays.copyOf(mTypeRef, n);
            mByteOff = Arrays.copyOf(mByteOff, n);
            mDataBitOff = Arrays.copyOf(mDataBitOff, n);
            mBitOffAttr = Arrays.copyOf(mBitOffAttr, n);
            mBitSize = Arrays.copyOf(mBitSize, n);
            mByteSize = Arrays.copyOf(mByteSize, n);
            mFlags = Arrays.copyOf(mFlags, n);
            mType = Arrays.copyOf(mType, n);
        }
        mName[m] = str(Dw.AT_name);
        mTypeRef[m] = typeRefOf(Dw.AT_type);
        int flags = tag == Dw.TAG_inheritance ? M_INHERITANCE : 0;
        int dbo = c.find(Dw.AT_data_bit_offset);
        mByteOff[m] = 0;
        mDataBitOff[m] = 0;
        if (dbo >= 0) {
            flags |= M_DATA_BIT_OFFSET;
            mDataBitOff[m] = c.isBlock(dbo) ? c.memberOffset(dbo) : c.udata(dbo);
        } else {
            int loc = c.find(Dw.AT_data_member_location);
            if (loc >= 0) {
                long v = c.memberOffset(loc);
                mByteOff[m] = v < 0 ? -1 : v;
            } else if (!union) {
                flags |= M_STATIC;
            }
        }
        mBitOffAttr[m] = c.udataOf(Dw.AT_bit_offset);
        mBitSize[m] = c.udataOf(Dw.AT_bit_size);
        mByteSize[m] = c.udataOf(Dw.AT_byte_size);
        mFlags[m] = flags;
        mType[m] = 0;
        return m;
    }

    private int newParam(Fn owner) {
        int p = nParams++;
        if (p >= pName.length) {
            int n = pName.length * 2;
            pName = Arrays.copyOf(pName, n);
            pTypeRef = Arrays.copyOf(pTypeRef, n);
            pOriginRef = Arrays.copyOf(pOriginRef, n);
            pType = Arrays.copyOf(pType, n);
        }
        pName[p] = str(Dw.AT_name);
        pTypeRef[p] = typeRefOf(Dw.AT_type);
        pOriginRef[p] = typeRefOf(Dw.AT_abstract_origin);
        pType[p] = 0;
        byOff.put(DieIndex.PARAM, c.offset(), p);
        return p;
    }

    private void processSubroutine(long off, long typeRef, long byteSize) {
        IntBuf params = scratch();
        int flags = 0;
        if (c.hasChildren()) {
            int t;
            while ((t = c.next()) > 0) {
                switch (t) {
                    case Dw.TAG_subrange_type -> c.skipChildren();
                    case Dw.TAG_formal_parameter -> {
                        params.add(newParam(null));
                        c.skipChildren();
                    }
                    case Dw.TAG_unspecified_parameters -> {
                        flags |= F_UNSPEC_PARAMS;
                        c.skipChildren();
                    }
                    default -> processTag(t, false);
                }
            }
        }
        int start = paramOrder.size();
        for (int i = 0; i < params.size(); i++) {
            paramOrder.add(params.get(i));
        }
        release();
        addType(K_PROTO, Dw.TAG_subroutine_type, off, -1, typeRef, byteSize, flags, 0, start, params.size());
    }

    private void processFunction() {
        Fn fn = new Fn();
        fn.off = c.offset();
        fn.name = str(Dw.AT_name);
        fn.typeRef = typeRefOf(Dw.AT_type);
        fn.declaration = c.has(Dw.AT_declaration);
        fn.external = c.has(Dw.AT_external);
        fn.originRef = typeRefOf(Dw.AT_abstract_origin);
        fn.specRef = typeRefOf(Dw.AT_specification);
        if (c.hasChildren()) {
            functionChildren(fn, true);
        }
        byOff.put(DieIndex.FN, fn.off, fns.size());
        fns.add(fn);
    }

    /** pahole's die__process_function: the function's own children ({@code top}) or a lexical block's. */
    private void functionChildren(Fn fn, boolean top) {
        if (c.depth() > MAX_DEPTH) {
            throw c.error("DIEs are nested too deeply");
        }
        int paramIdx = 0;
        int t;
        while ((t = c.next()) > 0) {
            switch (t) {
                case Dw.TAG_call_site, 0x49 /* call_site_parameter */, Dw.TAG_GNU_call_site, 0x410a,
                     0x36 /* dwarf_procedure */, 0x2f, 0x30, 0x4107, 0x4108, 0x4106, Dw.TAG_label -> c.skipChildren();
                case Dw.TAG_formal_parameter -> {
                    if (top) {
                        int p = newParam(fn);
                        fn.params.add(p);
                        if (c.hasChildren()) {
                            int at;
                            while ((at = c.next()) > 0) {
                                if (at == Dw.TAG_LLVM_annotation) {
                                    fn.annots = addAnnotation(fn.annots, paramIdx);
                                }
                                c.skipChildren();
                            }
                        }
                        paramIdx++;
                    } else {
                        c.skipChildren();
                    }
                }
                // Variables inside functions never reach BTF (pahole keeps them only for its own
                // printing), so they are not decoded.
                case Dw.TAG_variable -> c.skipChildren();
                case Dw.TAG_unspecified_parameters -> {
                    if (top) {
                        fn.unspecParams = true;
                    }
                    c.skipChildren();
                }
                case Dw.TAG_inlined_subroutine -> {
                    if (c.hasChildren()) {
                        inlineChildren(fn);
                    }
                }
                case Dw.TAG_lexical_block -> {
                    if (c.hasChildren()) {
                        functionChildren(fn, false);
                    }
                }
                case Dw.TAG_LLVM_annotation -> {
                    if (top) {
                        fn.annots = addAnnotation(fn.annots, -1);
                    }
                    c.skipChildren();
                }
                default -> processTag(t, false);
            }
        }
    }

    /** pahole's die__process_inline_expansion: only nested types and blocks matter. */
    private void inlineChildren(Fn fn) {
        if (c.depth() > MAX_DEPTH) {
            throw c.error("DIEs are nested too deeply");
        }
        int t;
        while ((t = c.next()) > 0) {
            switch (t) {
                case Dw.TAG_call_site, 0x49, Dw.TAG_GNU_call_site, 0x410a, Dw.TAG_formal_parameter,
                     Dw.TAG_variable, Dw.TAG_label -> c.skipChildren();
                case Dw.TAG_lexical_block -> {
                    if (c.hasChildren()) {
                        functionChildren(fn, false);
                    }
                }
                case Dw.TAG_inlined_subroutine -> {
                    if (c.hasChildren()) {
                        inlineChildren(fn);
                    }
                }
                default -> processTag(t, false);
            }
        }
    }

    private void processVariable(boolean top) {
        Var v = new Var();
        v.off = c.offset();
        v.name = str(Dw.AT_name);
        v.typeRef = typeRefOf(Dw.AT_type);
        v.external = c.has(Dw.AT_external);
        v.declaration = c.has(Dw.AT_declaration);
        v.artificial = c.flag(0x34); // DW_AT_artificial
        int spec = c.find(Dw.AT_specification);
        v.hasSpec = spec >= 0;
        v.specRef = spec >= 0 ? c.ref(spec) : -1;
        if (!v.declaration) {
            int loc = c.find(Dw.AT_location);
            if (loc >= 0 && c.isBlock(loc)) {
                v.addr = c.staticAddress(loc);
            }
        }
        v.annots = annotations(-1);
        byOff.put(DieIndex.VAR, v.off, vars.size());
        vars.add(v);
        if (top) {
            unitVars.add(v);
        }
    }

    // ---- resolving (pahole's recode step) ----

    int typeAt(long ref) {
        if (ref < 0) {
            return 0;
        }
        if ((ref & SIG_REF) != 0) {
            return foreignId((int) (ref & ~SIG_REF));
        }
        int id = byOff.get(DieIndex.TYPE, ref, 0);
        return id > 0 && tKind[id] == K_UNSPEC ? 0 : id;
    }

    void resolve() {
        for (int id = 1; id <= nTypes; id++) {
            int k = tKind[id];
            if (k == K_PTR && tCount[id] > 0) {
                int first = tStart[id];
                int last = first + tCount[id] - 1;
                tType[id] = last;
                for (int a = last; a > first; a--) {
                    tType[a] = a - 1;
                }
                tType[first] = typeAt(tTypeRef[id]);
            } else if (k != K_TYPETAG) {
                tType[id] = typeAt(tTypeRef[id]);
            }
            if (k == K_STRUCT || k == K_UNION) {
                for (int i = 0; i < tCount[id]; i++) {
                    int m = memberOrder.get(tStart[id] + i);
                    mType[m] = typeAt(mTypeRef[m]);
                }
            } else if (k == K_PROTO) {
                for (int i = 0; i < tCount[id]; i++) {
                    resolveParam(paramOrder.get(tStart[id] + i));
                }
            }
        }
        for (Var v : vars) {
            v.type = typeAt(v.typeRef);
        }
        for (Var v : vars) {
            if (v.hasSpec && v.specRef >= 0) {
                int s = byOff.get(DieIndex.VAR, v.specRef, -1);
                v.spec = s < 0 ? null : vars.get(s);
            }
        }
        // Functions in table order; parameters of lexical blocks belong to their function.
        for (Fn fn : fns) {
            if (fn.name < 0 && (fn.originRef >= 0 || fn.specRef >= 0)) {
                int o = fn.originRef >= 0 ? byOff.get(DieIndex.FN, fn.originRef, -1) : -1;
                if (o < 0 && fn.specRef >= 0) {
                    o = byOff.get(DieIndex.FN, fn.specRef, -1);
                }
                if (o >= 0) {
                    fn.name = fns.get(o).name;
                }
            }
            for (int i = 0; i < fn.params.size(); i++) {
                resolveParam(fn.params.get(i));
            }
            fn.type = typeAt(fn.typeRef);
        }
        for (Fn fn : fns) {
            if (fn.type == 0 && fn.originRef >= 0) {
                int o = byOff.get(DieIndex.FN, fn.originRef, -1);
                if (o >= 0) {
                    fn.type = fns.get(o).type;
                }
            }
        }
    }

    private void resolveParam(int p) {
        if (pTypeRef[p] >= 0) {
            pType[p] = typeAt(pTypeRef[p]);
            return;
        }
        if (pOriginRef[p] < 0) {
            pType[p] = 0;
            return;
        }
        int o = byOff.get(DieIndex.PARAM, pOriginRef[p], -1);
        if (o < 0) {
            return;
        }
        pName[p] = pName[o];
        pType[p] = pType[o];
    }

    // ---- sizes (pahole's tag__size) ----

    long typeSize(int id, int depth) {
        if (id <= 0 || depth > 64) {
            return 0;
        }
        int k = tKind[id];
        return switch (k) {
            case K_PTR -> c.unit().addressSize();
            case K_BASE -> tSize[id] / 8;
            case K_ENUM -> tSize[id] / 8;
            case K_PROTO -> tSize[id] != 0 ? tSize[id] : c.unit().addressSize();
            case K_STRUCT, K_UNION -> tSize[id] == 1 && tCount[id] == 0 ? 0 : tSize[id];
            case K_UNSUPPORTED -> tDwTag[id] == Dw.TAG_reference_type ? c.unit().addressSize() : tSize[id];
            default -> {
                if (tType[id] == 0) {
                    yield tSize[id];
                }
                long s = typeSize(tType[id], depth + 1);
                yield k == K_ARRAY ? s * arrayElements(id) : s;
            }
        };
    }

    /** Product of the dimensions, in 32 bits as pahole computes it. */
    int arrayElements(int id) {
        int n = 1;
        for (int i = tCount[id] - 1; i >= 0; i--) {
            n *= (int) dims[tStart[id] + i];
        }
        return n;
    }

    /** The type after typedefs and qualifiers (tag__strip_typedefs_and_modifiers). */
    int stripTypedefsAndModifiers(int id) {
        for (int guard = 0; id > 0 && guard < 64; guard++) {
            int k = tKind[id];
            if (k != K_TYPEDEF && k != K_CONST && k != K_VOLATILE && k != K_RESTRICT && k != K_TYPETAG) {
                return id;
            }
            id = tType[id];
        }
        return id;
    }
}
