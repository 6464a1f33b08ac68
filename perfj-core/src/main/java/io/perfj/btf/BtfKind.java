package io.perfj.btf;

import io.perfj.btf.wire.Kinds;

/**
 * A BTF type kind (linux {@code include/uapi/linux/btf.h}, {@code BTF_KIND_*}) as an open value:
 * the named constants cover kinds 1..19 ({@link Kinds}, the wire layer's numbers), any other
 * value keeps its number.
 */
public record BtfKind(int value) {
    public static final BtfKind UNKN = new BtfKind(Kinds.UNKN);
    public static final BtfKind INT = new BtfKind(Kinds.INT);
    public static final BtfKind PTR = new BtfKind(Kinds.PTR);
    public static final BtfKind ARRAY = new BtfKind(Kinds.ARRAY);
    public static final BtfKind STRUCT = new BtfKind(Kinds.STRUCT);
    public static final BtfKind UNION = new BtfKind(Kinds.UNION);
    public static final BtfKind ENUM = new BtfKind(Kinds.ENUM);
    public static final BtfKind FWD = new BtfKind(Kinds.FWD);
    public static final BtfKind TYPEDEF = new BtfKind(Kinds.TYPEDEF);
    public static final BtfKind VOLATILE = new BtfKind(Kinds.VOLATILE);
    public static final BtfKind CONST = new BtfKind(Kinds.CONST);
    public static final BtfKind RESTRICT = new BtfKind(Kinds.RESTRICT);
    public static final BtfKind FUNC = new BtfKind(Kinds.FUNC);
    public static final BtfKind FUNC_PROTO = new BtfKind(Kinds.FUNC_PROTO);
    public static final BtfKind VAR = new BtfKind(Kinds.VAR);
    public static final BtfKind DATASEC = new BtfKind(Kinds.DATASEC);
    public static final BtfKind FLOAT = new BtfKind(Kinds.FLOAT);
    public static final BtfKind DECL_TAG = new BtfKind(Kinds.DECL_TAG);
    public static final BtfKind TYPE_TAG = new BtfKind(Kinds.TYPE_TAG);
    public static final BtfKind ENUM64 = new BtfKind(Kinds.ENUM64);

    /** The highest kind this model knows. */
    public static final int MAX = Kinds.MAX;

    /** The kind's name as bpftool prints it ({@code UNKNOWN} for 0 and unknown kinds). */
    public String label() {
        return Kinds.label(value);
    }

    @Override
    public String toString() {
        return Kinds.name(value);
    }
}
