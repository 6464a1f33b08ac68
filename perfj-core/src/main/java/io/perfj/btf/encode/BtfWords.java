package io.perfj.btf.encode;

/**
 * The in-memory form of BTF types used while encoding and deduplicating: each type is the wire
 * layout of {@code include/uapi/linux/btf.h} as 32-bit words ({@code name_off}, {@code info},
 * {@code size/type}, then the kind's trailing data), except that every name is a
 * {@link StringPool} id instead of a string-section offset.
 */
final class BtfWords {
    private BtfWords() {
    }

    static final int INT = 1;
    static final int PTR = 2;
    static final int ARRAY = 3;
    static final int STRUCT = 4;
    static final int UNION = 5;
    static final int ENUM = 6;
    static final int FWD = 7;
    static final int TYPEDEF = 8;
    static final int VOLATILE = 9;
    static final int CONST = 10;
    static final int RESTRICT = 11;
    static final int FUNC = 12;
    static final int FUNC_PROTO = 13;
    static final int VAR = 14;
    static final int DATASEC = 15;
    static final int FLOAT = 16;
    static final int DECL_TAG = 17;
    static final int TYPE_TAG = 18;
    static final int ENUM64 = 19;

    static int info(int kind, int vlen, boolean kflag) {
        return (kflag ? 1 << 31 : 0) | kind << 24 | (vlen & 0xffff);
    }

    static int kind(int info) {
        return (info >>> 24) & 0x1f;
    }

    static int vlen(int info) {
        return info & 0xffff;
    }

    static boolean kflag(int info) {
        return info < 0;
    }

    /** Number of words of the type whose info word is {@code info}. */
    static int length(int info) {
        int vlen = vlen(info);
        return 3 + switch (kind(info)) {
            case INT, VAR, DECL_TAG -> 1;
            case ARRAY -> 3;
            case STRUCT, UNION, DATASEC, ENUM64 -> 3 * vlen;
            case ENUM, FUNC_PROTO -> 2 * vlen;
            default -> 0;
        };
    }

    /** Whether word 2 ({@code size/type}) of this kind is a type id. */
    static boolean word2IsType(int kind) {
        return switch (kind) {
            case PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, FUNC, FUNC_PROTO, VAR, DECL_TAG, TYPE_TAG -> true;
            default -> false;
        };
    }

    /** Calls {@code f} with the position of every type-id word of the type at {@code p}. */
    static void forEachTypeRef(int[] w, int p, IntConsumerAt f) {
        int info = w[p + 1];
        int kind = kind(info);
        int vlen = vlen(info);
        if (word2IsType(kind)) {
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

    /** Calls {@code f} with the position of every name word of the type at {@code p}. */
    static void forEachName(int[] w, int p, IntConsumerAt f) {
        int info = w[p + 1];
        int kind = kind(info);
        int vlen = vlen(info);
        f.at(p);
        switch (kind) {
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

    @FunctionalInterface
    interface IntConsumerAt {
        void at(int pos);
    }
}
