package io.perfj.btf;

import io.perfj.btf.wire.Header;
import io.perfj.btf.wire.Kinds;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Writes BTF as the kernel and libbpf read it: a 24-byte {@code btf_header}, the type section
 * right after it, then the string section. Writing a parsed {@link Btf} in its own byte order
 * gives back the parsed bytes whenever the input had this standard layout (as every kernel and
 * pahole/libbpf output has). Split BTF writes only its own types and strings.
 */
public final class BtfWriter {
    private BtfWriter() {
    }

    /** The blob of {@code btf} in its byte order. */
    public static byte[] write(Btf btf) {
        return write(btf, btf.order());
    }

    public static byte[] write(Btf btf, ByteOrder order) {
        return write(btf.ownTypes(), btf.stringSection(), order);
    }

    /** A blob of {@code types} (ids from 1, or from the base's count) with string section {@code strings}. */
    public static byte[] write(List<BtfType> types, byte[] strings, ByteOrder order) {
        long typeLen = 0;
        for (BtfType t : types) {
            typeLen += recordSize(t);
        }
        ByteBuffer b = Header.allocate(typeLen, strings.length, order);
        for (BtfType t : types) {
            put(b, t);
        }
        b.put(strings);
        return b.array();
    }

    /** Bytes of a type's record in the type section. */
    public static int recordSize(BtfType t) {
        int entries = switch (t) {
            case BtfType.Composite c -> c.members().size();
            case BtfType.Datasec d -> d.vars().size();
            case BtfType.Enum64 e -> e.values().size();
            case BtfType.Enum e -> e.values().size();
            case BtfType.FuncProto f -> f.params().size();
            default -> 0;
        };
        return 4 * Kinds.words(Kinds.info(t.kind().value(), entries, false));
    }

    private static void head(ByteBuffer b, BtfType t, int vlen, boolean kflag, int sizeOrType) {
        if (vlen < 0 || vlen > 0xffff) {
            throw new IllegalArgumentException(t.kind() + " '" + t.name() + "' has " + vlen + " entries (max 65535)");
        }
        b.putInt(t.nameOff());
        b.putInt(Kinds.info(t.kind().value(), vlen, kflag));
        b.putInt(sizeOrType);
    }

    private static void put(ByteBuffer b, BtfType t) {
        switch (t) {
            case BtfType.Void v -> throw new IllegalArgumentException("void (id 0) has no record");
            case BtfType.Int i -> {
                head(b, t, 0, false, i.size());
                b.putInt((i.encoding() & 0xf) << 24 | (i.bitOffset() & 0xff) << 16 | (i.bits() & 0xff));
            }
            case BtfType.Ptr p -> head(b, t, 0, false, p.type());
            case BtfType.Array a -> {
                head(b, t, 0, false, 0);
                b.putInt(a.type()).putInt(a.indexType()).putInt(a.nelems());
            }
            case BtfType.Composite c -> {
                head(b, t, c.members().size(), c.kindFlag(), c.size());
                for (BtfType.Member m : c.members()) {
                    b.putInt(m.nameOff()).putInt(m.type());
                    b.putInt(c.kindFlag() ? m.bitfieldSize() << 24 | (m.bitOffset() & 0xffffff) : m.bitOffset());
                }
            }
            case BtfType.Enum e -> {
                head(b, t, e.values().size(), e.signed(), e.size());
                for (BtfType.EnumValue v : e.values()) {
                    b.putInt(v.nameOff()).putInt((int) v.value());
                }
            }
            case BtfType.Enum64 e -> {
                head(b, t, e.values().size(), e.signed(), e.size());
                for (BtfType.EnumValue v : e.values()) {
                    b.putInt(v.nameOff()).putInt((int) v.value()).putInt((int) (v.value() >>> 32));
                }
            }
            case BtfType.Fwd f -> head(b, t, 0, f.union(), 0);
            case BtfType.Typedef r -> head(b, t, 0, false, r.type());
            case BtfType.Volatile r -> head(b, t, 0, false, r.type());
            case BtfType.Const r -> head(b, t, 0, false, r.type());
            case BtfType.Restrict r -> head(b, t, 0, false, r.type());
            case BtfType.TypeTag r -> head(b, t, 0, r.kindFlag(), r.type());
            case BtfType.Func f -> head(b, t, f.linkage(), false, f.type());
            case BtfType.FuncProto f -> {
                head(b, t, f.params().size(), false, f.returnType());
                for (BtfType.Param p : f.params()) {
                    b.putInt(p.nameOff()).putInt(p.type());
                }
            }
            case BtfType.Var v -> {
                head(b, t, 0, false, v.type());
                b.putInt(v.linkage());
            }
            case BtfType.Datasec d -> {
                head(b, t, d.vars().size(), false, d.size());
                for (BtfType.VarSecinfo v : d.vars()) {
                    b.putInt(v.type()).putInt(v.offset()).putInt(v.size());
                }
            }
            case BtfType.Float f -> head(b, t, 0, false, f.size());
            case BtfType.DeclTag d -> {
                head(b, t, 0, d.kindFlag(), d.type());
                b.putInt(d.componentIdx());
            }
        }
    }
}
