package io.perfj.btf.dump;

import io.perfj.io.TextOut;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfType;
import io.perfj.btf.wire.Kinds;

import java.io.OutputStream;

/**
 * {@code bpftool btf dump file F} (format raw) text: one entry per type this BTF defines (for
 * split BTF only the split types, ids continuing after the base), as bpftool's
 * {@code dump_btf_type} prints them (bpftool {@code src/btf.c}).
 */
public final class BtfRawDumper {
    private final Btf btf;
    private final TextOut out;

    private BtfRawDumper(Btf btf, OutputStream os) {
        this.btf = btf;
        this.out = new TextOut(os, 1 << 16);
    }

    /** Types to print before a second thread is worth starting. */
    private static final int PARALLEL_MIN = 20_000;

    /**
     * Writes every own type of {@code btf} to {@code os}. Large BTF is formatted in two halves at
     * once, the second into memory, written after the first.
     */
    public static void dump(Btf btf, OutputStream os) {
        int start = btf.startId();
        int end = btf.typeCount();
        if (end - start < PARALLEL_MIN || Integer.getInteger("perfj.btf.threads", Runtime.getRuntime().availableProcessors()) < 2) {
            new BtfRawDumper(btf, os).range(start, end);
            return;
        }
        int mid = start + (end - start) / 2;
        java.io.ByteArrayOutputStream second = new java.io.ByteArrayOutputStream(1 << 22);
        RuntimeException[] failed = new RuntimeException[1];
        Thread t = Thread.ofPlatform().name("btf-dump").start(() -> {
            try {
                new BtfRawDumper(btf, second).range(mid, end);
            } catch (RuntimeException e) {
                failed[0] = e;
            }
        });
        try {
            new BtfRawDumper(btf, os).range(start, mid);
        } finally {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        try {
            second.writeTo(os);
            os.flush();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void range(int from, int to) {
        for (int id = from; id < to; id++) {
            type(id, btf.type(id));
        }
        out.flush();
    }

    static String intEncoding(int enc) {
        return switch (enc) {
            case 0 -> "(none)";
            case BtfType.Int.SIGNED -> "SIGNED";
            case BtfType.Int.CHAR -> "CHAR";
            case BtfType.Int.BOOL -> "BOOL";
            default -> "UNKN";
        };
    }

    static String linkage(int l) {
        return switch (l) {
            case 0 -> "static";
            case 1 -> "global";
            case 2 -> "extern";
            default -> "(unknown)";
        };
    }

    private TextOut name(int nameOff, String name) {
        return nameOff == 0 ? out.str("(anon)") : out.str(name);
    }

    private void type(int id, BtfType t) {
        out.ch('[').u32(id).str("] ").str(t.kind().label()).str(" '");
        name(t.nameOff(), t.name()).ch('\'');
        // A switch on the kind number: cheaper than a type pattern switch before the JIT's second tier.
        switch (t.kind().value()) {
            case Kinds.INT -> {
                BtfType.Int i = (BtfType.Int) t;
                out.str(" size=").u32(i.size()).str(" bits_offset=").u32(i.bitOffset())
                        .str(" nr_bits=").u32(i.bits()).str(" encoding=").str(intEncoding(i.encoding()));
            }
            case Kinds.PTR, Kinds.TYPEDEF, Kinds.VOLATILE, Kinds.CONST, Kinds.RESTRICT, Kinds.TYPE_TAG ->
                    out.str(" type_id=").u32(((BtfType.Referring) t).type());
            case Kinds.ARRAY -> {
                BtfType.Array a = (BtfType.Array) t;
                out.str(" type_id=").u32(a.type()).str(" index_type_id=").u32(a.indexType())
                        .str(" nr_elems=").u32(a.nelems());
            }
            case Kinds.STRUCT, Kinds.UNION -> composite((BtfType.Composite) t);
            case Kinds.ENUM, Kinds.ENUM64 -> enumType((BtfType.EnumType) t);
            case Kinds.FWD -> out.str(((BtfType.Fwd) t).union() ? " fwd_kind=union" : " fwd_kind=struct");
            case Kinds.FUNC -> {
                BtfType.Func f = (BtfType.Func) t;
                out.str(" type_id=").u32(f.type()).str(" linkage=").str(linkage(f.linkage()));
            }
            case Kinds.FUNC_PROTO -> {
                BtfType.FuncProto f = (BtfType.FuncProto) t;
                out.str(" ret_type_id=").u32(f.returnType()).str(" vlen=").u32(f.params().size());
                for (BtfType.Param p : f.params()) {
                    out.str("\n\t'");
                    name(p.nameOff(), p.name()).str("' type_id=").u32(p.type());
                }
            }
            case Kinds.VAR -> {
                BtfType.Var v = (BtfType.Var) t;
                out.str(" type_id=").u32(v.type()).str(", linkage=").str(linkage(v.linkage()));
            }
            case Kinds.DATASEC -> datasec((BtfType.Datasec) t);
            case Kinds.FLOAT -> out.str(" size=").u32(((BtfType.Float) t).size());
            case Kinds.DECL_TAG -> {
                BtfType.DeclTag d = (BtfType.DeclTag) t;
                out.str(" type_id=").u32(d.type()).str(" component_idx=").dec(d.componentIdx());
            }
            default -> {
            }
        }
        out.ch('\n');
    }

    private void composite(BtfType.Composite c) {
        out.str(" size=").u32(c.size()).str(" vlen=").u32(c.members().size());
        for (BtfType.Member m : c.members()) {
            out.str("\n\t'");
            name(m.nameOff(), m.name()).str("' type_id=").u32(m.type()).str(" bits_offset=").u32(m.bitOffset());
            if (m.bitfieldSize() != 0) {
                out.str(" bitfield_size=").u32(m.bitfieldSize());
            }
        }
    }

    private void enumType(BtfType.EnumType e) {
        boolean wide = e instanceof BtfType.Enum64;
        out.str(e.signed() ? " encoding=SIGNED size=" : " encoding=UNSIGNED size=").u32(e.size())
                .str(" vlen=").u32(e.values().size());
        for (BtfType.EnumValue v : e.values()) {
            out.str("\n\t'");
            name(v.nameOff(), v.name()).str("' val=");
            if (!wide) {
                if (e.signed()) {
                    out.dec((int) v.value());
                } else {
                    out.u32((int) v.value());
                }
            } else if (e.signed()) {
                out.dec(v.value()).str("LL");
            } else {
                out.udec(v.value()).str("ULL");
            }
        }
    }

    private void datasec(BtfType.Datasec d) {
        out.str(" size=").u32(d.size()).str(" vlen=").u32(d.vars().size());
        for (BtfType.VarSecinfo v : d.vars()) {
            out.str("\n\ttype_id=").u32(v.type()).str(" offset=").u32(v.offset()).str(" size=").u32(v.size());
            if (Integer.compareUnsigned(v.type(), btf.typeCount()) < 0) {
                BtfType vt = btf.type(v.type());
                out.str(" (").str(vt.kind().label()).str(" '");
                name(vt.nameOff(), vt.name()).str("')");
            }
        }
    }
}
