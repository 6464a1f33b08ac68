package io.perfj.btf.wire;

/**
 * The BTF type kinds ({@code BTF_KIND_*} of linux {@code include/uapi/linux/btf.h}) and what each
 * kind's record looks like on the wire: the {@code info} word (vlen bits 0-15, kind bits 24-28,
 * kind_flag bit 31), which header fields it uses, and the words that follow the three header
 * words ({@code name_off}, {@code info}, {@code size|type}): INT 1, ARRAY 3 (type, index_type,
 * nelems), STRUCT/UNION 3 per member (name_off, type, offset), ENUM 2 per value (name_off, val),
 * ENUM64 3 per value (name_off, lo32, hi32), FUNC_PROTO 2 per parameter (name_off, type), VAR 1
 * (linkage), DATASEC 3 per entry (type, offset, size), DECL_TAG 1 (component_idx).
 */
public final class Kinds {
    private Kinds() {
    }

    public static final int UNKN = 0;
    public static final int INT = 1;
    public static final int PTR = 2;
    public static final int ARRAY = 3;
    public static final int STRUCT = 4;
    public static final int UNION = 5;
    public static final int ENUM = 6;
    public static final int FWD = 7;
    public static final int TYPEDEF = 8;
    public static final int VOLATILE = 9;
    public static final int CONST = 10;
    public static final int RESTRICT = 11;
    public static final int FUNC = 12;
    public static final int FUNC_PROTO = 13;
    public static final int VAR = 14;
    public static final int DATASEC = 15;
    public static final int FLOAT = 16;
    public static final int DECL_TAG = 17;
    public static final int TYPE_TAG = 18;
    public static final int ENUM64 = 19;
    /** The highest kind known here. */
    public static final int MAX = ENUM64;

    private static final String[] NAMES = {"UNKNOWN", "INT", "PTR", "ARRAY", "STRUCT", "UNION", "ENUM", "FWD",
            "TYPEDEF", "VOLATILE", "CONST", "RESTRICT", "FUNC", "FUNC_PROTO", "VAR", "DATASEC", "FLOAT",
            "DECL_TAG", "TYPE_TAG", "ENUM64"};

    /** Whether {@code kind} is one of the kinds 1..{@link #MAX} a type record may have. */
    public static boolean known(int kind) {
        return kind >= INT && kind <= MAX;
    }

    /** The kind's name as bpftool prints it ({@code UNKNOWN} for 0 and unknown kinds). */
    public static String label(int kind) {
        return kind >= 0 && kind <= MAX ? NAMES[kind] : "UNKNOWN";
    }

    /** The kind's name, or {@code KIND_n} for a kind not known here. */
    public static String name(int kind) {
        return kind >= 0 && kind <= MAX ? NAMES[kind] : "KIND_" + kind;
    }

    public static int info(int kind, int vlen, boolean kflag) {
        return (kflag ? 1 << 31 : 0) | kind << 24 | (vlen & 0xffff);
    }

    public static int kind(int info) {
        return (info >>> 24) & 0x1f;
    }

    public static int vlen(int info) {
        return info & 0xffff;
    }

    public static boolean kflag(int info) {
        return info < 0;
    }

    /** Words after the three header words of a record with this {@code info}. */
    public static int extraWords(int info) {
        int vlen = vlen(info);
        return switch (kind(info)) {
            case INT, VAR, DECL_TAG -> 1;
            case ARRAY -> 3;
            case STRUCT, UNION, DATASEC, ENUM64 -> 3 * vlen;
            case ENUM, FUNC_PROTO -> 2 * vlen;
            default -> 0;
        };
    }

    /** All words of a record with this {@code info}, header included. */
    public static int words(int info) {
        return 3 + extraWords(info);
    }

    /** Whether the kind uses vlen (a count, or FUNC's linkage); the kernel rejects it elsewhere. */
    public static boolean hasVlen(int kind) {
        return switch (kind) {
            case STRUCT, UNION, ENUM, FUNC, FUNC_PROTO, DATASEC, ENUM64 -> true;
            default -> false;
        };
    }

    /** Whether the kind gives kind_flag a meaning; the kernel rejects it elsewhere. */
    public static boolean hasKindFlag(int kind) {
        return switch (kind) {
            case STRUCT, UNION, ENUM, FWD, DECL_TAG, TYPE_TAG, ENUM64 -> true;
            default -> false;
        };
    }

    /** Whether the {@code size|type} word of this kind is a type id. */
    public static boolean sizeIsType(int kind) {
        return switch (kind) {
            case PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, FUNC, FUNC_PROTO, VAR, DECL_TAG, TYPE_TAG -> true;
            default -> false;
        };
    }

    /** Receives the index of a word of a record. */
    @FunctionalInterface
    public interface WordVisitor {
        void at(int word);
    }

    /** Calls {@code f} with the index of every type-id word of the record at {@code w[p]}. */
    public static void forEachTypeRef(int[] w, int p, WordVisitor f) {
        int info = w[p + 1];
        int kind = kind(info);
        int vlen = vlen(info);
        if (sizeIsType(kind)) {
            f.at(p + 2);
        }
        switch (kind) {
            case ARRAY -> {
                f.at(p + 3);
                f.at(p + 4);
            }
            case STRUCT, UNION -> {
                for (int i = 0; i < vlen; i++) {
                    f.at(p + 3 + 3 * i + 1);
                }
            }
            case FUNC_PROTO -> {
                for (int i = 0; i < vlen; i++) {
                    f.at(p + 3 + 2 * i + 1);
                }
            }
            case DATASEC -> {
                for (int i = 0; i < vlen; i++) {
                    f.at(p + 3 + 3 * i);
                }
            }
            default -> {
            }
        }
    }

    /** Calls {@code f} with the index of every name-offset word of the record at {@code w[p]}. */
    public static void forEachName(int[] w, int p, WordVisitor f) {
        int info = w[p + 1];
        int vlen = vlen(info);
        f.at(p);
        switch (kind(info)) {
            case STRUCT, UNION, ENUM64 -> {
                for (int i = 0; i < vlen; i++) {
                    f.at(p + 3 + 3 * i);
                }
            }
            case ENUM, FUNC_PROTO -> {
                for (int i = 0; i < vlen; i++) {
                    f.at(p + 3 + 2 * i);
                }
            }
            default -> {
            }
        }
    }
}
