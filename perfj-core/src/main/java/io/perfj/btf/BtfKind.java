package io.perfj.btf;

/**
 * A BTF type kind (linux {@code include/uapi/linux/btf.h}, {@code BTF_KIND_*}) as an open value:
 * the named constants cover kinds 1..19, any other value keeps its number.
 */
public record BtfKind(int value) {
    public static final BtfKind UNKN = new BtfKind(0);
    public static final BtfKind INT = new BtfKind(1);
    public static final BtfKind PTR = new BtfKind(2);
    public static final BtfKind ARRAY = new BtfKind(3);
    public static final BtfKind STRUCT = new BtfKind(4);
    public static final BtfKind UNION = new BtfKind(5);
    public static final BtfKind ENUM = new BtfKind(6);
    public static final BtfKind FWD = new BtfKind(7);
    public static final BtfKind TYPEDEF = new BtfKind(8);
    public static final BtfKind VOLATILE = new BtfKind(9);
    public static final BtfKind CONST = new BtfKind(10);
    public static final BtfKind RESTRICT = new BtfKind(11);
    public static final BtfKind FUNC = new BtfKind(12);
    public static final BtfKind FUNC_PROTO = new BtfKind(13);
    public static final BtfKind VAR = new BtfKind(14);
    public static final BtfKind DATASEC = new BtfKind(15);
    public static final BtfKind FLOAT = new BtfKind(16);
    public static final BtfKind DECL_TAG = new BtfKind(17);
    public static final BtfKind TYPE_TAG = new BtfKind(18);
    public static final BtfKind ENUM64 = new BtfKind(19);

    /** The highest kind this model knows. */
    public static final int MAX = 19;

    private static final String[] NAMES = {"UNKNOWN", "INT", "PTR", "ARRAY", "STRUCT", "UNION", "ENUM", "FWD",
            "TYPEDEF", "VOLATILE", "CONST", "RESTRICT", "FUNC", "FUNC_PROTO", "VAR", "DATASEC", "FLOAT",
            "DECL_TAG", "TYPE_TAG", "ENUM64"};

    /** The kind's name as bpftool prints it ({@code UNKNOWN} for 0 and unknown kinds). */
    public String label() {
        return value >= 0 && value <= MAX ? NAMES[value] : "UNKNOWN";
    }

    static String kindName(int kind) {
        return new BtfKind(kind).toString();
    }

    @Override
    public String toString() {
        return value >= 0 && value <= MAX ? NAMES[value] : "KIND_" + value;
    }
}
