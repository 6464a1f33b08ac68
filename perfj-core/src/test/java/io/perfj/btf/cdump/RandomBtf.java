package io.perfj.btf.cdump;

import io.perfj.btf.wire.Header;
import io.perfj.btf.wire.StringSectionBuilder;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.perfj.btf.wire.Kinds.*;

/**
 * Random but well-formed BTF blobs for differential tests: every kind the C dumper handles, names
 * drawn from a small pool so that structs, typedefs and enumerators clash, bitfields, holes,
 * odd sizes, forward references through pointers and struct members, and no loop that does not
 * pass through a struct or union (libbpf would recurse forever on one).
 */
final class RandomBtf {
    private static final String[] NAMES = {"a", "b", "s", "t", "u", "foo", "bar", "node", "X", "E"};
    private static final String[] ENUMERATORS = {"A", "B", "C", "t", "foo", "X"};
    private static final String[][] INTS = {{"int", "4", "1"}, {"unsigned int", "4", "0"}, {"char", "1", "5"},
            {"long", "8", "1"}, {"long unsigned int", "8", "0"}, {"short", "2", "1"}, {"_Bool", "1", "4"},
            {"long long", "8", "1"}, {"__int128", "16", "1"}};

    private final Random r;
    private final List<int[]> types = new ArrayList<>();
    private final StringSectionBuilder strings = new StringSectionBuilder(0, 256);
    private int[] kinds;

    private RandomBtf(long seed) {
        r = new Random(seed);
    }

    /** A raw little-endian BTF blob. */
    static byte[] generate(long seed) {
        return new RandomBtf(seed).build();
    }

    private int str(String s) {
        return strings.add(s);
    }

    private String name() {
        return NAMES[r.nextInt(NAMES.length)];
    }

    private byte[] build() {
        int n = 4 + r.nextInt(40);
        kinds = new int[n + 1];
        // Two ints first so that every later type has something to lean on.
        kinds[1] = INT;
        kinds[2] = INT;
        int[] menu = {INT, PTR, PTR, ARRAY, STRUCT, STRUCT, STRUCT, UNION, ENUM, ENUM64, FWD, TYPEDEF, TYPEDEF,
                CONST, VOLATILE, RESTRICT, FUNC_PROTO, FUNC, FLOAT, TYPE_TAG, VAR, DECL_TAG};
        for (int id = 3; id <= n; id++) {
            kinds[id] = menu[r.nextInt(menu.length)];
        }
        for (int id = 1; id <= n; id++) {
            types.add(type(id, n));
        }
        int typeLen = 0;
        for (int[] t : types) {
            typeLen += t.length * 4;
        }
        byte[] s = strings.toByteArray();
        ByteBuffer b = Header.allocate(typeLen, s.length, ByteOrder.LITTLE_ENDIAN);
        for (int[] t : types) {
            for (int w : t) {
                b.putInt(w);
            }
        }
        b.put(s);
        return b.array();
    }

    /** Any type below {@code id} that is not a FUNC, VAR or DECL_TAG (or void, sometimes). */
    private int lower(int id, boolean voidOk) {
        for (int tries = 0; tries < 20; tries++) {
            int t = (voidOk && r.nextInt(6) == 0) ? 0 : 1 + r.nextInt(id - 1);
            if (t == 0 || (kinds[t] != FUNC && kinds[t] != VAR && kinds[t] != DECL_TAG && kinds[t] != FUNC_PROTO)) {
                return t;
            }
        }
        return 1;
    }

    /** A member type: a lower type, or any struct/union/fwd (forward references). */
    private int memberType(int id, int n) {
        if (r.nextInt(4) == 0) {
            for (int tries = 0; tries < 10; tries++) {
                int t = 1 + r.nextInt(n);
                if (t != id && (kinds[t] == STRUCT || kinds[t] == UNION)) {
                    return t;
                }
            }
        }
        return lower(id, false);
    }

    private int[] type(int id, int n) {
        int kind = kinds[id];
        switch (kind) {
            case INT: {
                String[] it = INTS[r.nextInt(INTS.length)];
                int size = Integer.parseInt(it[1]);
                int enc = Integer.parseInt(it[2]);
                return new int[] {str(it[0]), info(INT, 0, false), size, enc << 24 | size * 8};
            }
            case FLOAT: {
                boolean dbl = r.nextBoolean();
                return new int[] {str(dbl ? "double" : "float"), info(FLOAT, 0, false), dbl ? 8 : 4};
            }
            case PTR: {
                int target = r.nextInt(3) == 0 ? memberType(id, n) : lower(id, true);
                if (target >= id && kinds[target] != STRUCT && kinds[target] != UNION) {
                    target = lower(id, true);
                }
                if (r.nextInt(8) == 0 && id > 3) {
                    // a pointer to a prototype: function pointers
                    for (int t = id - 1; t > 0; t--) {
                        if (kinds[t] == FUNC_PROTO) {
                            target = t;
                            break;
                        }
                    }
                }
                return new int[] {0, info(PTR, 0, false), target};
            }
            case ARRAY:
                return new int[] {0, info(ARRAY, 0, false), 3, lower(id, false), 1, r.nextInt(5)};
            case STRUCT:
            case UNION: {
                int vlen = r.nextInt(6);
                boolean kflag = r.nextBoolean();
                int[] t = new int[3 + 3 * vlen];
                t[0] = r.nextInt(4) == 0 ? 0 : str(name());
                t[1] = info(kind, vlen, kflag);
                int off = 0;
                for (int i = 0; i < vlen; i++) {
                    int mt = memberType(id, n);
                    int bits = kflag && r.nextInt(3) == 0 ? 1 + r.nextInt(30) : 0;
                    if (bits == 0) {
                        off = (off + 7) / 8 * 8;
                        if (r.nextBoolean()) {
                            off = (off + 63) / 64 * 64;
                        }
                    }
                    off += kind == UNION ? 0 : r.nextInt(3) * 8;
                    t[3 + 3 * i] = r.nextInt(8) == 0 ? 0 : str(name() + i);
                    t[4 + 3 * i] = mt;
                    t[5 + 3 * i] = kflag ? (bits << 24 | (kind == UNION ? 0 : off)) : (kind == UNION ? 0 : off);
                    if (kind == STRUCT) {
                        off += bits != 0 ? bits : 8 * (1 + r.nextInt(16));
                    }
                }
                int size = (off + 7) / 8 + r.nextInt(3) * r.nextInt(9);
                t[2] = kind == UNION ? 4 + r.nextInt(30) : size;
                return t;
            }
            case ENUM:
            case ENUM64: {
                int vlen = r.nextInt(4);
                boolean signed = r.nextBoolean();
                int per = kind == ENUM ? 2 : 3;
                int[] t = new int[3 + per * vlen];
                t[0] = r.nextInt(3) == 0 ? 0 : str(name());
                t[1] = info(kind, vlen, signed);
                int[] sizes = kind == ENUM ? new int[] {4, 4, 1, 2, 8} : new int[] {8, 8, 4};
                t[2] = sizes[r.nextInt(sizes.length)];
                for (int i = 0; i < vlen; i++) {
                    t[3 + per * i] = str(ENUMERATORS[r.nextInt(ENUMERATORS.length)]);
                    long v = r.nextInt(4) == 0 ? r.nextLong() : r.nextInt(200) - 100;
                    t[4 + per * i] = (int) v;
                    if (kind == ENUM64) {
                        t[5 + per * i] = (int) (v >>> 32);
                    }
                }
                return t;
            }
            case FWD:
                return new int[] {str(name()), info(FWD, 0, r.nextBoolean()), 0};
            case TYPEDEF:
                return new int[] {str(r.nextInt(10) == 0 ? "__builtin_va_list" : name()), info(TYPEDEF, 0, false),
                        lower(id, true)};
            case CONST:
            case VOLATILE:
            case RESTRICT:
                return new int[] {0, info(kind, 0, false), lower(id, true)};
            case TYPE_TAG:
                return new int[] {str("tag"), info(TYPE_TAG, 0, false), lower(id, false)};
            case FUNC_PROTO: {
                int vlen = r.nextInt(4);
                int[] t = new int[3 + 2 * vlen];
                t[1] = info(FUNC_PROTO, vlen, false);
                t[2] = lower(id, true);
                for (int i = 0; i < vlen; i++) {
                    boolean vararg = i == vlen - 1 && r.nextInt(4) == 0;
                    t[3 + 2 * i] = vararg || r.nextBoolean() ? 0 : str(name());
                    t[4 + 2 * i] = vararg ? 0 : lower(id, false);
                }
                return t;
            }
            case FUNC: {
                int proto = 0;
                for (int t = id - 1; t > 0; t--) {
                    if (kinds[t] == FUNC_PROTO) {
                        proto = t;
                        break;
                    }
                }
                if (proto == 0) {
                    kinds[id] = CONST;
                    return new int[] {0, info(CONST, 0, false), 1};
                }
                return new int[] {str("f" + id), info(FUNC, 0, false), proto};
            }
            case VAR:
                return new int[] {str("v" + id), info(VAR, 0, false), lower(id, false), 1};
            case DECL_TAG:
                return new int[] {str("dtag"), info(DECL_TAG, 0, false), lower(id, false), -1};
            default:
                throw new IllegalStateException("kind " + kind);
        }
    }
}
