package io.perfj.btf.cdump;

import io.perfj.btf.wire.Kinds;
import io.perfj.btf.wire.StringSection;
import io.perfj.btf.wire.TypeSection;
import io.perfj.io.FormatException;

import static io.perfj.btf.wire.Kinds.*;

/**
 * The types of one BTF (a base and, for split BTF, the split part on top of it) as the wire layout
 * has them ({@link TypeSection}, {@link Kinds}), with what the C dumper asks about them. Sizes and
 * alignments follow libbpf's {@code btf__resolve_size} and {@code btf__align_of}; the pointer
 * size is guessed from a {@code long} integer as libbpf does.
 */
public final class TypeTable {
    private final TypeSection types;
    /** {@code types}' words and record starts by id, read here directly: the dumper's hot loops. */
    private final int[] words;
    private final int[] pos;
    private final int count;
    private final StringSection strings;
    private final String source;
    private int ptrSize;
    private byte[] alignCache;
    private boolean[] referenced;

    /**
     * @param types   the records, ids from 1 (a split BTF's with its base's in front)
     * @param strings the name at a string offset (of the split string section when split)
     * @param source  the file, for error messages
     */
    public TypeTable(TypeSection types, StringSection strings, String source) {
        this.types = types;
        this.words = types.words();
        this.pos = types.starts();
        this.count = types.end();
        this.strings = strings;
        this.source = source;
    }

    /** Number of type ids including void (id 0), so ids run from 0 to count-1. */
    public int count() {
        return count;
    }

    TypeSection types() {
        return types;
    }

    String source() {
        return source;
    }

    int kind(int id) {
        return id == 0 ? 0 : (words[pos[id] + 1] >>> 24) & 0x1f;
    }

    int nameOff(int id) {
        return id == 0 ? 0 : words[pos[id]];
    }

    int vlen(int id) {
        return id == 0 ? 0 : words[pos[id] + 1] & 0xffff;
    }

    boolean kflag(int id) {
        return id != 0 && words[pos[id] + 1] < 0;
    }

    /** {@code size} of INT, ENUM, STRUCT, UNION, DATASEC, FLOAT, ENUM64 types. */
    int size(int id) {
        return id == 0 ? 0 : words[pos[id] + 2];
    }

    /** {@code type} of PTR, TYPEDEF, modifiers, FUNC, FUNC_PROTO (return), VAR, DECL_TAG, TYPE_TAG. */
    int ref(int id) {
        return id == 0 ? 0 : words[pos[id] + 2];
    }

    /** Word {@code i} after the header. */
    int extra(int id, int i) {
        return words[pos[id] + 3 + i];
    }

    int arrayType(int id) {
        return extra(id, 0);
    }

    int arrayIndexType(int id) {
        return extra(id, 1);
    }

    int arrayNelems(int id) {
        return extra(id, 2);
    }

    int memberNameOff(int id, int i) {
        return extra(id, 3 * i);
    }

    int memberType(int id, int i) {
        return extra(id, 3 * i + 1);
    }

    /** The member's bit offset (the low 24 bits when the struct's kind_flag is set). */
    int memberBitOffset(int id, int i) {
        int off = extra(id, 3 * i + 2);
        return kflag(id) ? off & 0xffffff : off;
    }

    /** The raw offset word, as libbpf's alignment checks use it. */
    int memberOffsetWord(int id, int i) {
        return extra(id, 3 * i + 2);
    }

    int memberBitfieldSize(int id, int i) {
        return kflag(id) ? extra(id, 3 * i + 2) >>> 24 : 0;
    }

    int enumNameOff(int id, int i) {
        return extra(id, 2 * i);
    }

    int enumValue(int id, int i) {
        return extra(id, 2 * i + 1);
    }

    int enum64NameOff(int id, int i) {
        return extra(id, 3 * i);
    }

    long enum64Value(int id, int i) {
        return (extra(id, 3 * i + 1) & 0xffffffffL) | ((long) extra(id, 3 * i + 2) << 32);
    }

    int enum64Hi(int id, int i) {
        return extra(id, 3 * i + 2);
    }

    int paramNameOff(int id, int i) {
        return extra(id, 2 * i);
    }

    int paramType(int id, int i) {
        return extra(id, 2 * i + 1);
    }

    int datasecType(int id, int i) {
        return extra(id, 3 * i);
    }

    String name(int off) {
        return strings.get(off);
    }

    boolean nameEmpty(int off) {
        return strings.isEmpty(off);
    }

    /** Appends the name at {@code off} as its bytes, with no String in between. */
    void appendName(CText out, int off) {
        strings.appendTo(out, off);
    }

    String typeName(int id) {
        return name(nameOff(id));
    }

    /** libbpf's guess: the size of an INT named like {@code long}, else 8 (the host's). */
    int ptrSize() {
        if (ptrSize == 0) {
            ptrSize = 8;
            for (int id = 1; id < count; id++) {
                if (kind(id) != INT || (size(id) != 4 && size(id) != 8)) {
                    continue;
                }
                if (isLongName(typeName(id))) {
                    ptrSize = size(id);
                    break;
                }
            }
        }
        return ptrSize;
    }

    private static boolean isLongName(String n) {
        return switch (n) {
            case "long", "long int", "int long", "unsigned long", "long unsigned", "unsigned long int",
                 "unsigned int long", "long unsigned int", "long int unsigned", "int unsigned long",
                 "int long unsigned" -> true;
            default -> false;
        };
    }

    /** libbpf's {@code btf__align_of}: 0 where it fails. Cached, since members nest. */
    int alignOf(int id) {
        byte[] cache = alignCache;
        if (cache == null) {
            cache = alignCache = new byte[count];
        }
        int c = cache[id];
        if (c != 0) {
            return c - 1;
        }
        int a = computeAlign(id);
        cache[id] = (byte) (Math.min(a, 126) + 1);
        return a;
    }

    private int computeAlign(int id) {
        for (int depth = 0; depth < count; depth++) {
            switch (kind(id)) {
                case INT, ENUM, ENUM64, FLOAT:
                    return (int) Math.min(ptrSize(), size(id) & 0xffffffffL);
                case PTR:
                    return ptrSize();
                case TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG:
                    id = ref(id);
                    continue;
                case ARRAY:
                    id = arrayType(id);
                    continue;
                case STRUCT, UNION:
                    return compositeAlign(id);
                default:
                    return 0;
            }
        }
        throw cycle(id);
    }

    private int compositeAlign(int id) {
        int vlen = vlen(id);
        int max = 1;
        for (int i = 0; i < vlen; i++) {
            int m = memberType(id, i);
            int align = alignOf(m);
            if (align <= 0) {
                return 0;
            }
            max = Math.max(max, align);
            if (memberBitfieldSize(id, i) == 0 && Integer.remainderUnsigned(memberOffsetWord(id, i), 8 * align) != 0) {
                return 1;
            }
        }
        return Integer.remainderUnsigned(size(id), max) != 0 ? 1 : max;
    }

    /** libbpf's {@code btf__resolve_size}: negative where it fails. */
    long resolveSize(int id) {
        long nelems = 1;
        for (int depth = 0; depth < 32; depth++) {
            switch (kind(id)) {
                case 0, FWD:
                    return -1;
                case INT, STRUCT, UNION, ENUM, ENUM64, DATASEC, FLOAT: {
                    long size = size(id) & 0xffffffffL;
                    if (nelems != 0 && size > 0xffffffffL / nelems) {
                        return -1;
                    }
                    return nelems * size;
                }
                case PTR: {
                    long size = ptrSize();
                    if (nelems != 0 && size > 0xffffffffL / nelems) {
                        return -1;
                    }
                    return nelems * size;
                }
                case TYPEDEF, VOLATILE, CONST, RESTRICT, VAR, DECL_TAG, TYPE_TAG:
                    id = ref(id);
                    break;
                case ARRAY: {
                    long n = arrayNelems(id) & 0xffffffffL;
                    if (nelems != 0 && n > 0xffffffffL / nelems) {
                        return -1;
                    }
                    nelems *= n;
                    id = arrayType(id);
                    break;
                }
                default:
                    return -1;
            }
        }
        return -1;
    }

    StringSection strings() {
        return strings;
    }

    /**
     * Every type id a type refers to exists and every name offset is inside the string sections,
     * as libbpf checks when it opens a BTF; anything else is a format error.
     */
    void validate(int firstId, boolean[] baseReferenced) {
        int strLen = strings.length();
        boolean[] refd = new boolean[count];
        if (baseReferenced != null) {
            System.arraycopy(baseReferenced, 0, refd, 0, baseReferenced.length);
        }
        for (int id = firstId; id < count; id++) {
            int vlen = vlen(id);
            checkName(id, nameOff(id), strLen);
            switch (kind(id)) {
                case PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, FUNC, VAR, DECL_TAG, TYPE_TAG -> refd[check(id, ref(id))] = true;
                case ARRAY -> {
                    refd[check(id, arrayType(id))] = true;
                    refd[check(id, arrayIndexType(id))] = true;
                }
                case STRUCT, UNION -> {
                    for (int i = 0; i < vlen; i++) {
                        checkName(id, memberNameOff(id, i), strLen);
                        refd[check(id, memberType(id, i))] = true;
                    }
                }
                case FUNC_PROTO -> {
                    check(id, ref(id)); // libbpf does not count a return type as a reference
                    for (int i = 0; i < vlen; i++) {
                        checkName(id, paramNameOff(id, i), strLen);
                        refd[check(id, paramType(id, i))] = true;
                    }
                }
                case DATASEC -> {
                    for (int i = 0; i < vlen; i++) {
                        refd[check(id, datasecType(id, i))] = true;
                    }
                }
                case ENUM -> {
                    for (int i = 0; i < vlen; i++) {
                        checkName(id, enumNameOff(id, i), strLen);
                    }
                }
                case ENUM64 -> {
                    for (int i = 0; i < vlen; i++) {
                        checkName(id, enum64NameOff(id, i), strLen);
                    }
                }
                default -> { }
            }
        }
        referenced = refd;
    }

    /**
     * Whether another type refers to this one (libbpf's {@code btf_dump_mark_referenced}): an
     * anonymous enum that nothing refers to is a top-level declaration of constants.
     */
    boolean[] referenced() {
        return referenced;
    }

    private void checkName(int id, int off, int strLen) {
        if (Integer.compareUnsigned(off, strLen) >= 0) {
            throw new FormatException(source, "BTF type [" + id + "]", -1,
                    "name offset 0x" + Integer.toHexString(off) + " outside the " + strLen + "-byte string section");
        }
    }

    private int check(int id, int ref) {
        if (Integer.compareUnsigned(ref, count) >= 0) {
            throw new FormatException(source, "BTF type [" + id + "]", -1,
                    "refers to type " + Integer.toUnsignedString(ref) + " of " + count);
        }
        return ref;
    }

    FormatException cycle(int id) {
        return new FormatException(source, "BTF type [" + id + "]", -1, "type reference cycle");
    }
}
