package io.perfj.btf;

import io.perfj.btf.wire.StringSection;
import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A parsed BTF blob (linux {@code Documentation/bpf/btf.rst}): its types by id and its string
 * section. A split BTF (kernel module BTF) sits on a {@link #base()}: its type ids
 * continue after the base's last id and its string offsets after the base's string section, and
 * lookups fall through to the base.
 *
 * <p>Parsing validates everything a consumer relies on: the header (magic in either byte order,
 * version, section bounds, no overlap), every type record's size and kind, that every type id
 * is below {@link #typeCount()} and every string offset inside the string sections. Any failure
 * is a {@link FormatException} naming the offset of the bad field in the source.
 *
 * <p>Two {@code Btf}s are equal when they define the same types from the same first id with the
 * same string section, whatever their byte order, source name or header layout.
 */
public final class Btf {
    private static final int MAX_RESOLVE_DEPTH = 32;

    private final String source;
    private final ByteOrder order;
    private final Btf base;
    private final int startId;
    private final int startStrOff;
    private final BtfType[] types;
    private final int[] typeOffsets;
    private final StringSection section;
    private final byte[] strings;
    private final String[] stringCache;
    private volatile Map<String, int[]> byName;

    Btf(String source, ByteOrder order, Btf base, BtfType[] types, int[] typeOffsets, StringSection section,
            byte[] strings, String[] stringCache) {
        this.source = source;
        this.order = order;
        this.base = base;
        this.startId = base == null ? 1 : base.typeCount();
        this.startStrOff = base == null ? 0 : base.stringsEnd();
        this.types = types;
        this.typeOffsets = typeOffsets;
        this.section = section;
        this.strings = strings;
        this.stringCache = stringCache;
    }

    /** Parses a stand-alone BTF blob. */
    public static Btf parse(byte[] data, String source) {
        return parse(data, source, null);
    }

    /** Parses BTF that may be split on {@code base} (null for stand-alone BTF). */
    public static Btf parse(byte[] data, String source, Btf base) {
        return BtfReader.read(data, 0, source, base);
    }

    /** Parses the bytes of a view (e.g. an ELF section); error offsets are the view's absolute offsets. */
    public static Btf parse(Bytes bytes, Btf base) {
        return BtfReader.read(bytes.bytes(0, bytes.size()), bytes.base(), bytes.source(), base);
    }

    /**
     * Builds a BTF from types and a string section (which must start with a NUL byte unless
     * split, end with one, and hold every {@code nameOff} the types use); validated like a parse.
     * {@link BtfStrings} builds string sections.
     */
    public static Btf of(String source, List<BtfType> types, byte[] strings, Btf base, ByteOrder order) {
        return BtfReader.read(BtfWriter.write(types, strings, order), 0, source, base);
    }

    public String source() {
        return source;
    }

    /** Byte order of the blob (from its magic). */
    public ByteOrder order() {
        return order;
    }

    /** The base of a split BTF. */
    public Optional<Btf> base() {
        return Optional.ofNullable(base);
    }

    /** The first type id this blob defines: 1, or the base's {@link #typeCount()} for split BTF. */
    public int startId() {
        return startId;
    }

    /** One past the last type id, counting void and the base's types (libbpf's btf__type_cnt). */
    public int typeCount() {
        return startId + types.length;
    }

    /** Types this blob defines (not the base's), in id order from {@link #startId()}. */
    public List<BtfType> ownTypes() {
        return Arrays.asList(types).subList(0, types.length);
    }

    /** Whether {@code id} names a type here or in the base (0, void, included). */
    public boolean hasType(int id) {
        return id >= 0 && id < typeCount();
    }

    /** The type with this id; 0 is {@link BtfType.Void}. */
    public BtfType type(int id) {
        if (id >= startId && id < startId + types.length) {
            return types[id - startId];
        }
        if (id == 0) {
            return BtfType.Void.INSTANCE;
        }
        if (base != null && id > 0 && id < startId) {
            return base.type(id);
        }
        throw new IllegalArgumentException("BTF type id " + Integer.toUnsignedString(id) + " out of range [0, "
                + typeCount() + ") in " + source);
    }

    /** Offset of type {@code id}'s record in the type section (for messages and raw access). */
    public int typeOffset(int id) {
        if (id >= startId && id < startId + types.length) {
            return typeOffsets[id - startId];
        }
        throw new IllegalArgumentException("BTF type id " + id + " is not defined by " + source);
    }

    /** One past the last string offset (base strings included). */
    public int stringsEnd() {
        return startStrOff + strings.length;
    }

    /** The first string offset this blob's own string section covers. */
    public int startStringOffset() {
        return startStrOff;
    }

    /** A copy of this blob's own string section. */
    public byte[] stringSection() {
        return strings.clone();
    }

    /** Whether {@code off} is a valid string offset here or in the base. */
    public boolean hasString(int off) {
        return off >= 0 && off < stringsEnd();
    }

    /**
     * The NUL-terminated string at {@code off} of the string sections (split BTF: offsets below
     * {@link #startStringOffset()} are the base's).
     */
    public String string(int off) {
        if (off >= startStrOff && off < startStrOff + strings.length) {
            int rel = off - startStrOff;
            String s = stringCache[rel];
            if (s == null) {
                s = section.get(off);
                stringCache[rel] = s;
            }
            return s;
        }
        if (base != null && off >= 0 && off < startStrOff) {
            return base.string(off);
        }
        throw new FormatException(source, "btf string", -1,
                "string offset 0x" + Integer.toHexString(off) + " is outside the string section (size 0x"
                        + Integer.toHexString(stringsEnd()) + ")");
    }

    /** The string sections, this blob's on top of its base's. */
    StringSection strings() {
        return section;
    }

    /** The lowest type id named {@code name}, here or in the base. */
    public OptionalInt findByName(String name) {
        if (base != null) {
            OptionalInt b = base.findByName(name);
            if (b.isPresent()) {
                return b;
            }
        }
        int[] ids = names().get(name);
        return ids == null ? OptionalInt.empty() : OptionalInt.of(ids[0]);
    }

    /** The lowest type id named {@code name} of kind {@code kind}, here or in the base. */
    public OptionalInt findByName(String name, BtfKind kind) {
        for (int id : findAllByName(name)) {
            if (type(id).kind().equals(kind)) {
                return OptionalInt.of(id);
            }
        }
        return OptionalInt.empty();
    }

    /** Every type id named {@code name}, ascending, base first. */
    public int[] findAllByName(String name) {
        int[] own = names().get(name);
        int[] fromBase = base == null ? new int[0] : base.findAllByName(name);
        if (own == null) {
            return fromBase;
        }
        int[] out = Arrays.copyOf(fromBase, fromBase.length + own.length);
        System.arraycopy(own, 0, out, fromBase.length, own.length);
        return out;
    }

    private Map<String, int[]> names() {
        Map<String, int[]> m = byName;
        if (m == null) {
            m = new HashMap<>(types.length * 2);
            for (int i = 0; i < types.length; i++) {
                BtfType t = types[i];
                if (t.nameOff() != 0) {
                    int id = startId + i;
                    m.merge(t.name(), new int[] {id}, (a, b) -> {
                        int[] c = Arrays.copyOf(a, a.length + 1);
                        c[a.length] = b[0];
                        return c;
                    });
                }
            }
            byName = m;
        }
        return m;
    }

    /** Follows typedefs, const, volatile, restrict and type tags to the first other type's id. */
    public int skipModsAndTypedefs(int id) {
        return skip(id, true);
    }

    /** Follows const, volatile, restrict and type tags (not typedefs) to the first other type's id. */
    public int skipMods(int id) {
        return skip(id, false);
    }

    private int skip(int id, boolean typedefs) {
        for (int depth = 0; depth <= MAX_RESOLVE_DEPTH; depth++) {
            BtfType t = type(id);
            if (t instanceof BtfType.Modifier m) {
                id = m.type();
            } else if (typedefs && t instanceof BtfType.Typedef td) {
                id = td.type();
            } else {
                return id;
            }
        }
        throw loop(id);
    }

    /**
     * The size in bytes of type {@code id} as libbpf's {@code btf__resolve_size} computes it:
     * through modifiers, typedefs, VARs and DECL_TAGs, multiplying array counts; pointers have
     * {@link #pointerSize()}. Void, functions, FWDs and reference loops are format errors.
     */
    public long resolveSize(int id) {
        long nelems = 1;
        int cur = id;
        for (int depth = 0; depth <= MAX_RESOLVE_DEPTH; depth++) {
            BtfType t = type(cur);
            long size;
            switch (t) {
                case BtfType.Sized s -> size = Integer.toUnsignedLong(s.size());
                case BtfType.Ptr p -> size = pointerSize();
                case BtfType.Array a -> {
                    nelems *= a.count();
                    if (nelems > (1L << 40)) {
                        throw unsized(id, "array of more than 2^40 elements");
                    }
                    cur = a.type();
                    continue;
                }
                case BtfType.Typedef td -> {
                    cur = td.type();
                    continue;
                }
                case BtfType.Modifier m -> {
                    cur = m.type();
                    continue;
                }
                case BtfType.Var v -> {
                    cur = v.type();
                    continue;
                }
                case BtfType.DeclTag d -> {
                    cur = d.type();
                    continue;
                }
                default -> throw unsized(id, "type " + cur + " (" + t.kind().label() + ") has no size");
            }
            return nelems * size;
        }
        throw loop(id);
    }

    private FormatException unsized(int id, String why) {
        return new FormatException(source, "btf type " + id, -1, why);
    }

    private FormatException loop(int id) {
        return new FormatException(source, "btf type " + id, -1,
                "more than " + MAX_RESOLVE_DEPTH + " references deep (a reference loop?)");
    }

    /** Pointer size: that of "long" if this BTF has such an INT (libbpf's guess), else 8. */
    public int pointerSize() {
        for (String n : new String[] {"long int", "long unsigned int", "long", "unsigned long"}) {
            OptionalInt id = findByName(n, BtfKind.INT);
            if (id.isPresent()) {
                int size = ((BtfType.Int) type(id.getAsInt())).size();
                if (size == 4 || size == 8) {
                    return size;
                }
            }
        }
        return 8;
    }

    /** A type's name, or {@code "(anon)"} for an anonymous one, as bpftool prints names. */
    public String nameOrAnon(BtfType t) {
        return t.nameOff() == 0 ? "(anon)" : t.name();
    }

    /** Type ids of this blob's own types as a list, for iteration in id order. */
    public List<Integer> ownIds() {
        List<Integer> ids = new ArrayList<>(types.length);
        for (int i = 0; i < types.length; i++) {
            ids.add(startId + i);
        }
        return ids;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Btf b && b.startId == startId && b.startStrOff == startStrOff
                && Arrays.equals(b.types, types) && Arrays.equals(b.strings, strings);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(types) * 31 + Arrays.hashCode(strings);
    }

    @Override
    public String toString() {
        return "Btf[" + source + ", " + types.length + " types from id " + startId + ", " + strings.length
                + " bytes of strings]";
    }
}
