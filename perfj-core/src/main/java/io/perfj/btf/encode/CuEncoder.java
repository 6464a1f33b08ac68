package io.perfj.btf.encode;

import io.perfj.dwarf.info.DieCursor;
import io.perfj.dwarf.info.Dw;
import io.perfj.dwarf.info.DwarfInfo;
import io.perfj.dwarf.info.UnitHeader;

import static io.perfj.btf.wire.Kinds.*;
import static io.perfj.btf.encode.CuModel.*;

/**
 * Turns one compile unit into BTF records the way pahole 1.24's btf_encoder__encode_cu does
 * (dwarves btf_encoder.c): every entry of the types table in order, then decl tags of structs,
 * unions and typedefs, then the functions pahole emits (with their prototypes and decl tags),
 * then variables. One instance per thread.
 */
final class CuEncoder {
    private final DwarfInfo dwarf;
    private final StringPool pool;
    private final ElfContext elf;
    private final EncodeOptions.Vars varsMode;
    private final CuModel m;
    private final int intName;
    private final int percpuName;

    private IntBuf words;
    private IntBuf starts;
    private int[] outId;

    CuEncoder(DwarfInfo dwarf, StringPool pool, ElfContext elf, EncodeOptions.Vars varsMode, int[] strIds) {
        this.dwarf = dwarf;
        this.pool = pool;
        this.elf = elf;
        this.varsMode = varsMode;
        this.m = new CuModel(pool, strIds);
        this.intName = pool.intern("int");
        this.percpuName = pool.intern(ElfContext.PERCPU_SECTION);
    }

    /** The unit's records, or null for units pahole skips (partial and skeleton units). */
    CuBtf encode(UnitHeader unit) {
        DieCursor c = dwarf.cursor(unit, m.c);
        m.reset(c);
        if (!m.load()) {
            return null;
        }
        m.resolve();
        words = new IntBuf(Math.max(64, m.nTypes * 10 + m.fns.size() * 8));
        starts = new IntBuf(m.nTypes + 16);
        CuBtf out = new CuBtf();
        out.skipped = m.skipped.toArray(new String[0]);
        emitTypes(out);
        out.nTypes = starts.size();
        IntBuf groupStart = new IntBuf(16);
        IntBuf groupKey = new IntBuf(16);
        emitTypeDeclTags(groupStart, groupKey);
        emitFunctions(groupStart, groupKey);
        emitVariables(out, groupStart, groupKey);
        out.signatures = m.signatures.stream().mapToLong(Long::longValue).toArray();
        if (unit.isTypeUnit()) {
            out.typeSignature = unit.typeSignature();
            out.typeLocal = ref(m.typeAt(unit.typeOffset()));
        }
        // handed over without copying; the arrays may be longer than what they hold
        out.words = words.a;
        out.starts = starts.a;
        out.nRecords = starts.size();
        out.groupStart = groupStart.toArray();
        out.groupKey = groupKey.toArray();
        out.nGroups = groupStart.size();
        words = null;
        starts = null;
        return out;
    }

    private int begin(int name, int info, int word2) {
        starts.add(words.size());
        words.add(name < 0 ? 0 : name);
        words.add(info);
        words.add(word2);
        return starts.size();
    }

    /** A types-table id as an output-local id (0 for void and skipped types). */
    private int ref(int typeId) {
        if (typeId < CuBtf.INDEX_TYPE) {
            return typeId; // a type in another unit, by signature
        }
        return typeId <= 0 ? 0 : outId[typeId];
    }

    private void emitTypes(CuBtf out) {
        outId = new int[m.nTypes + 1];
        int next = 1;
        for (int id = 1; id <= m.nTypes; id++) {
            outId[id] = m.tKind[id] == K_UNSPEC ? 0 : next++;
        }
        for (int id = 1; id <= m.nTypes; id++) {
            int k = m.tKind[id];
            switch (k) {
                case K_UNSPEC -> {
                }
                case K_BASE -> emitBase(id, out);
                case K_PTR -> begin(0, info(PTR, 0, false), ref(m.tType[id]));
                case K_CONST -> begin(0, info(CONST, 0, false), ref(m.tType[id]));
                case K_VOLATILE -> begin(0, info(VOLATILE, 0, false), ref(m.tType[id]));
                case K_RESTRICT -> begin(0, info(RESTRICT, 0, false), ref(m.tType[id]));
                case K_TYPETAG -> begin(m.tName[id], info(TYPE_TAG, 0, false), ref(m.tType[id]));
                case K_TYPEDEF -> {
                    requireName(id, "typedef");
                    begin(m.tName[id], info(TYPEDEF, 0, false), ref(m.tType[id]));
                }
                case K_STRUCT, K_UNION -> emitStruct(id, k == K_UNION);
                case K_ENUM -> emitEnum(id);
                case K_ARRAY -> {
                    out.usesIndex = true;
                    begin(0, info(ARRAY, 0, false), 0);
                    words.add(ref(m.tType[id]));
                    words.add(CuBtf.INDEX_TYPE);
                    words.add(m.arrayElements(id));
                }
                case K_PROTO -> emitProto(ref(m.tType[id]), m.tStart[id], m.tCount[id],
                        (m.tFlags[id] & F_UNSPEC_PARAMS) != 0, false, null);
                default -> throw new EncodeException(dwarf.source() + ": " + Dw.tagName(m.tDwTag[id]) + " at <0x"
                        + Long.toHexString(m.tOff[id]) + "> has no BTF encoding (pahole 1.24 stops here too)");
            }
        }
    }

    private void requireName(int id, String what) {
        if (m.tName[id] <= 0) {
            throw new EncodeException(dwarf.source() + ": " + what + " at <0x" + Long.toHexString(m.tOff[id])
                    + "> has no name, which BTF requires");
        }
    }

    private void emitBase(int id, CuBtf out) {
        int enc = m.tAux[id];
        int encoding = 0;
        if (enc == Dw.ATE_signed || enc == Dw.ATE_signed_char) {
            encoding = 1;
        } else if (enc == Dw.ATE_boolean) {
            encoding = 4;
        }
        long bits = m.tSize[id];
        long bytes = (bits + 7) / 8;
        int name = m.tName[id];
        if (bytes == 0 || (bytes & (bytes - 1)) != 0 || bytes > 16) {
            name = pool.intern("__SANITIZED_FAKE_INT__");
            bytes = 4;
        }
        if (name <= 0) {
            throw new EncodeException(dwarf.source() + ": base type at <0x" + Long.toHexString(m.tOff[id])
                    + "> has no name, which BTF requires");
        }
        int local = begin(name, info(INT, 0, false), (int) bytes);
        words.add(encoding << 24 | (int) (bytes * 8));
        if (out.intLocal == 0 && m.tName[id] == intName) {
            out.intLocal = local;
        }
    }

    private void emitStruct(int id, boolean union) {
        int name = m.tName[id];
        if ((m.tFlags[id] & F_DECLARATION) != 0) {
            requireName(id, "declaration");
            begin(name, info(FWD, 0, union), 0);
            return;
        }
        int start = m.tStart[id];
        int count = m.tCount[id];
        begin(name, 0, (int) m.tSize[id]);
        int recPos = words.size() - 3;
        int vlen = 0;
        boolean kflag = false;
        for (int i = 0; i < count; i++) {
            int mi = m.memberOrder.get(start + i);
            int flags = m.mFlags[mi];
            if ((flags & (M_STATIC | M_INHERITANCE)) != 0) {
                continue;
            }
            long bitSize = m.mBitSize[mi];
            long bitOffset = memberBitOffset(mi);
            boolean bitfield = bitSize != 0 || (bitOffset % 8) != 0;
            if (bitfield && (bitSize == 0 || bitSize > 255 || bitOffset > 0xffffff || bitOffset < 0)) {
                throw new EncodeException(dwarf.source() + ": member " + vlen + " of the struct at <0x"
                        + Long.toHexString(m.tOff[id]) + "> has bit offset " + bitOffset + " and size " + bitSize
                        + ", which BTF cannot hold");
            }
            kflag |= bitfield;
            words.add(m.mName[mi] < 0 ? 0 : m.mName[mi]);
            words.add(ref(m.mType[mi]));
            words.add((int) bitOffset | (int) (bitSize << 24));
            vlen++;
        }
        if (vlen > 0xffff) {
            throw new EncodeException(dwarf.source() + ": struct at <0x" + Long.toHexString(m.tOff[id])
                    + "> has more members than BTF allows");
        }
        words.set(recPos + 1, info(union ? UNION : STRUCT, vlen, kflag));
    }

    /** pahole's class_member__cache_byte_size: the member's offset in bits from the struct's start. */
    private long memberBitOffset(int mi) {
        int flags = m.mFlags[mi];
        long bitfieldSize = m.mBitSize[mi];
        if ((flags & M_DATA_BIT_OFFSET) != 0) {
            return m.mDataBitOff[mi];
        }
        long byteOffset = m.mByteOff[mi];
        if (bitfieldSize == 0) {
            return byteOffset * 8;
        }
        long byteSize = m.mByteSize[mi];
        if (byteSize == 0) {
            int t = m.stripTypedefsAndModifiers(m.mType[mi]);
            byteSize = m.typeSize(t, 0);
            if (byteSize == 0) {
                long bits = t > 0 && m.tKind[t] == K_ENUM ? m.tSize[t] : t > 0 && m.tKind[t] == K_BASE ? m.tSize[t] : 0;
                byteSize = (bits + 7) / 8 * 8;
            }
        }
        if (byteSize == 0) {
            return byteOffset * 8;
        }
        long bitfieldOffset = m.mBitOffAttr[mi];
        if (dwarf.order() == java.nio.ByteOrder.LITTLE_ENDIAN) {
            bitfieldOffset = byteSize * 8 - bitfieldOffset - bitfieldSize;
        }
        long bitOffset = byteOffset * 8 + bitfieldOffset;
        if (bitfieldOffset < 0) {
            bitOffset = (byteOffset - byteSize) * 8 + bitfieldOffset + byteSize * 8;
        }
        return bitOffset;
    }

    private void emitEnum(int id) {
        long bits = m.tSize[id];
        int size = (int) ((bits + 7) / 8);
        int start = m.tStart[id];
        int count = m.tCount[id];
        boolean signed = false;
        int under = m.typeAt(m.tTypeRef[id]);
        if (under > 0 && m.tKind[under] == K_BASE) {
            int enc = m.tAux[under];
            signed = enc == Dw.ATE_signed || enc == Dw.ATE_signed_char;
        }
        if (count > 0xffff) {
            throw new EncodeException(dwarf.source() + ": enum at <0x" + Long.toHexString(m.tOff[id])
                    + "> has more values than BTF allows");
        }
        if (size <= 4) {
            begin(m.tName[id], info(ENUM, count, false), size);
            int recPos = words.size() - 3;
            boolean kflag = false;
            for (int i = 0; i < count; i++) {
                long v = m.enumValue[start + i];
                if (v < Integer.MIN_VALUE || v > 0xffff_ffffL) {
                    throw new EncodeException(dwarf.source() + ": enumerator value " + v + " of the enum at <0x"
                            + Long.toHexString(m.tOff[id]) + "> does not fit its 32-bit BTF enum");
                }
                kflag |= v < 0;
                int nm = m.enumName.get(start + i);
                words.add(nm < 0 ? 0 : nm);
                words.add((int) v);
            }
            words.set(recPos + 1, info(ENUM, count, kflag));
        } else {
            begin(m.tName[id], info(ENUM64, count, signed), size);
            for (int i = 0; i < count; i++) {
                long v = m.enumValue[start + i];
                int nm = m.enumName.get(start + i);
                words.add(nm < 0 ? 0 : nm);
                words.add((int) v);
                words.add((int) (v >>> 32));
            }
        }
    }

    /** A FUNC_PROTO; params come from the model's paramOrder (types) or a function's list. */
    private int emitProto(int ret, int start, int count, boolean unspec, boolean fnParams, IntBuf list) {
        int vlen = count + (unspec ? 1 : 0);
        if (vlen > 0xffff) {
            throw new EncodeException(dwarf.source() + ": a function type has more parameters than BTF allows");
        }
        int local = begin(0, info(FUNC_PROTO, vlen, false), ret);
        for (int i = 0; i < count; i++) {
            int p = fnParams ? list.get(i) : m.paramOrder.get(start + i);
            words.add(m.pName[p] < 0 ? 0 : m.pName[p]);
            words.add(ref(m.pType[p]));
        }
        if (unspec) {
            words.add(0);
            words.add(0);
        }
        return local;
    }

    private void emitTypeDeclTags(IntBuf groupStart, IntBuf groupKey) {
        if (m.typeAnnots.isEmpty()) {
            return; // the usual case (GCC has no decl tags): no boxed lookup per type
        }
        for (int id = 1; id <= m.nTypes; id++) {
            int k = m.tKind[id];
            int tag = m.tDwTag[id];
            if (k != K_TYPEDEF && tag != Dw.TAG_structure_type && tag != Dw.TAG_union_type) {
                continue;
            }
            IntBuf a = m.typeAnnots.get(id);
            if (a == null || outId[id] == 0) {
                continue;
            }
            for (int i = 0; i < a.size(); i += 2) {
                groupStart.add(starts.size());
                groupKey.add(-1);
                begin(a.get(i), info(DECL_TAG, 0, false), outId[id]);
                words.add(a.get(i + 1));
            }
        }
    }

    private void emitFunctions(IntBuf groupStart, IntBuf groupKey) {
        boolean bySymbols = !elf.funcNames.isEmpty();
        for (CuModel.Fn fn : m.fns) {
            if (fn.declaration) {
                continue;
            }
            boolean named = true;
            for (int i = 0; i < fn.params.size(); i++) {
                if (m.pName[fn.params.get(i)] < 0) {
                    named = false;
                    break;
                }
            }
            if (!named) {
                continue;
            }
            int key = -1;
            if (bySymbols) {
                if (fn.name < 0 || !elf.funcNames.contains(fn.name)) {
                    continue;
                }
                key = fn.name;
            } else if (!fn.external) {
                continue;
            }
            if (fn.name <= 0) {
                continue;
            }
            groupStart.add(starts.size());
            groupKey.add(key);
            int proto = emitProto(ref(fn.type), 0, fn.params.size(), fn.unspecParams, true, fn.params);
            int func = begin(fn.name, info(FUNC, 0, false), proto);
            if (fn.annots != null) {
                for (int i = 0; i < fn.annots.size(); i += 2) {
                    begin(fn.annots.get(i), info(DECL_TAG, 0, false), func);
                    words.add(fn.annots.get(i + 1));
                }
            }
        }
    }

    private void emitVariables(CuBtf out, IntBuf groupStart, IntBuf groupKey) {
        if (varsMode == EncodeOptions.Vars.NONE || !elf.hasSymtab) {
            return;
        }
        IntBuf vLocal = new IntBuf(8);
        IntBuf vShndx = new IntBuf(8);
        IntBuf vSize = new IntBuf(8);
        java.util.ArrayList<Long> vOff = new java.util.ArrayList<>();
        for (CuModel.Var var : m.unitVars) {
            if (varsMode == EncodeOptions.Vars.PERCPU) {
                percpuVar(var, groupStart, groupKey, vLocal, vShndx, vSize, vOff);
            } else {
                globalVar(var, groupStart, groupKey, vLocal, vShndx, vSize, vOff);
            }
        }
        out.nVars = vLocal.size();
        out.varLocal = vLocal.toArray();
        out.varShndx = vShndx.toArray();
        out.varSize = vSize.toArray();
        out.varOffset = vOff.stream().mapToLong(Long::longValue).toArray();
    }

    private void percpuVar(CuModel.Var var, IntBuf groupStart, IntBuf groupKey, IntBuf vLocal, IntBuf vShndx,
                           IntBuf vSize, java.util.List<Long> vOff) {
        if (elf.percpuShndx == 0) {
            return;
        }
        if (var.declaration && var.spec == null) {
            return;
        }
        boolean global = var.addr != DieCursor.NO_ADDRESS;
        if (!global && var.spec == null) {
            return;
        }
        long rawAddr = global ? var.addr : 0;
        if (Long.compareUnsigned(rawAddr, elf.percpuAddr) < 0
                || Long.compareUnsigned(rawAddr, elf.percpuAddr + elf.percpuSize) >= 0) {
            return;
        }
        long addr = rawAddr - elf.percpuAddr;
        int sym = elf.percpuSymbolAt(addr);
        if (sym < 0) {
            return;
        }
        int name = elf.percpuSymName[sym];
        if (rawAddr == 0 && (var.name < 0 || var.name != name)) {
            return;
        }
        CuModel.Var v = var.spec != null ? var.spec : var;
        if (v.type == 0 || m.typeSize(v.type, 0) == 0) {
            return;
        }
        addVar(name, v, elf.percpuShndx, addr, elf.percpuSymSize[sym], groupStart, groupKey, vLocal, vShndx, vSize,
                vOff);
    }

    private void globalVar(CuModel.Var var, IntBuf groupStart, IntBuf groupKey, IntBuf vLocal, IntBuf vShndx,
                           IntBuf vSize, java.util.List<Long> vOff) {
        if (var.declaration && var.spec == null) {
            return;
        }
        if (var.artificial || var.addr == DieCursor.NO_ADDRESS) {
            return;
        }
        int shndx = elf.sectionOf(var.addr);
        if (shndx == 0) {
            return;
        }
        long addr = var.addr - elf.sectionAddr[shndx];
        CuModel.Var v = var.spec != null ? var.spec : var;
        if (v.name <= 0) {
            return;
        }
        String name = pool.get(v.name);
        if (Names.filteredVariable(name) || !Names.btfNameValid(name)) {
            return;
        }
        if (addr == 0 && !elf.objectsBySection.contains((long) shndx << 32 | v.name)) {
            return;
        }
        if (v.type == 0) {
            return;
        }
        long size = m.typeSize(v.type, 0);
        if (size <= 0 || size > 0xffff_ffffL || addr > 0xffff_ffffL) {
            return;
        }
        addVar(v.name, v, shndx, addr, (int) size, groupStart, groupKey, vLocal, vShndx, vSize, vOff);
    }

    private void addVar(int name, CuModel.Var v, int shndx, long addr, int size, IntBuf groupStart,
                        IntBuf groupKey, IntBuf vLocal, IntBuf vShndx, IntBuf vSize, java.util.List<Long> vOff) {
        groupStart.add(starts.size());
        groupKey.add(-1);
        int local = begin(name, info(VAR, 0, false), ref(v.type));
        words.add(v.external ? 1 : 0);
        if (v.annots != null) {
            for (int i = 0; i < v.annots.size(); i += 2) {
                begin(v.annots.get(i), info(DECL_TAG, 0, false), local);
                words.add(v.annots.get(i + 1));
            }
        }
        vLocal.add(local);
        vShndx.add(shndx);
        vSize.add(size);
        vOff.add(addr);
    }
}
