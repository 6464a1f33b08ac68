package io.perfj.btf;

import io.perfj.btf.wire.Header;
import io.perfj.btf.wire.Kinds;
import io.perfj.btf.wire.StringSection;
import io.perfj.btf.wire.TypeChecks;
import io.perfj.btf.wire.TypeSection;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a BTF blob into a {@link Btf}: the wire layer checks the header and indexes the type
 * section ({@link Header}, {@link TypeSection}) and {@link TypeChecks} checks each record (type
 * ids and string offsets in range, and no bits the model cannot keep: reserved bits of the info
 * and INT words, kind_flag or vlen where a kind has none, so that writing a parsed model gives
 * back its bytes), then one pass over the records builds a record per type.
 */
final class BtfReader {
    private final String source;
    private final Header header;
    private final TypeSection section;
    private final int[] w;
    private final Btf base;
    private final int startId;
    private final int startStrOff;
    private final StringSection strings;
    private final byte[] own;
    private final String[] cache;
    private final BtfType[] out;
    private final TypeChecks checks;

    private BtfReader(String source, long origin, Header header, TypeSection section, Btf base,
                      StringSection strings, byte[] own) {
        this.source = source;
        this.header = header;
        this.section = section;
        this.w = section.words();
        this.base = base;
        this.startId = section.first();
        this.startStrOff = strings.baseLength();
        this.strings = strings;
        this.own = own;
        this.cache = new String[strings.ownLength()];
        this.out = new BtfType[section.size()];
        this.checks = new TypeChecks(section, strings, source, origin + header.typeStart());
    }

    static Btf read(byte[] data, long origin, String source, Btf base) {
        ByteBuffer blob = ByteBuffer.wrap(data);
        Header h = Header.read(blob, source, origin, base != null, base == null ? 0 : base.stringsEnd());
        byte[] own = Arrays.copyOfRange(data, h.strStart(), h.strStart() + h.strLen());
        StringSection strings = StringSection.of(own, base == null ? null : base.strings());
        TypeSection types = TypeSection.read(blob, h, source, origin, base == null ? 1 : base.typeCount(), null);
        return new BtfReader(source, origin, h, types, base, strings, own).types();
    }

    /** Types to decode before a second thread is worth starting. */
    private static final int PARALLEL_MIN = 20_000;

    private Btf types() {
        int n = out.length;
        if (n >= PARALLEL_MIN && Integer.getInteger("perfj.btf.threads", Runtime.getRuntime().availableProcessors()) > 1) {
            int mid = n / 2;
            RuntimeException[] second = new RuntimeException[1];
            Thread t = Thread.ofPlatform().name("btf-parse").start(() -> {
                try {
                    decode(mid, n);
                } catch (RuntimeException e) {
                    second[0] = e;
                }
            });
            RuntimeException first = null;
            try {
                decode(0, mid);
            } catch (RuntimeException e) {
                first = e;
            }
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            if (first != null) {
                throw first;
            }
            if (second[0] != null) {
                throw second[0];
            }
        } else {
            decode(0, n);
        }
        int[] offs = new int[n];
        for (int i = 0; i < n; i++) {
            offs[i] = 4 * section.pos(startId + i);
        }
        return new Btf(source, header.order(), base, out, offs, strings, own, cache);
    }

    private void decode(int from, int to) {
        checks.check(startId + from, startId + to);
        // One call per type (not one long loop) so the JIT compiles it after a few hundred types.
        for (int i = from; i < to; i++) {
            out[i] = decodeType(section.pos(startId + i));
        }
    }

    /** The record at word {@code q}, checked. */
    private BtfType decodeType(int q) {
        int[] w = this.w;
        int nameOff = w[q];
        int info = w[q + 1];
        int sizeOrType = w[q + 2];
        int kind = Kinds.kind(info);
        int vlen = Kinds.vlen(info);
        boolean kflag = Kinds.kflag(info);
        String name = name(nameOff);
        int p = q + 3;
        BtfType t = switch (kind) {
            case Kinds.INT -> {
                int v = w[p];
                yield new BtfType.Int(name, nameOff, sizeOrType, (v >>> 24) & 0xf, (v >>> 16) & 0xff, v & 0xff);
            }
            case Kinds.PTR -> new BtfType.Ptr(name, nameOff, sizeOrType);
            case Kinds.ARRAY -> new BtfType.Array(name, nameOff, w[p], w[p + 1], w[p + 2]);
            case Kinds.STRUCT, Kinds.UNION -> {
                BtfType.Member[] ms = new BtfType.Member[vlen];
                for (int i = 0; i < vlen; i++, p += 3) {
                    int mo = w[p];
                    int off = w[p + 2];
                    ms[i] = new BtfType.Member(name(mo), mo, w[p + 1],
                            kflag ? off & 0xffffff : off, kflag ? off >>> 24 : 0);
                }
                List<BtfType.Member> l = List.of(ms);
                yield kind == Kinds.STRUCT ? new BtfType.Struct(name, nameOff, sizeOrType, kflag, l)
                        : new BtfType.Union(name, nameOff, sizeOrType, kflag, l);
            }
            case Kinds.ENUM -> {
                BtfType.EnumValue[] vs = new BtfType.EnumValue[vlen];
                for (int i = 0; i < vlen; i++, p += 2) {
                    int vo = w[p];
                    int v = w[p + 1];
                    vs[i] = new BtfType.EnumValue(name(vo), vo, kflag ? v : Integer.toUnsignedLong(v));
                }
                yield new BtfType.Enum(name, nameOff, sizeOrType, kflag, List.of(vs));
            }
            case Kinds.ENUM64 -> {
                BtfType.EnumValue[] vs = new BtfType.EnumValue[vlen];
                for (int i = 0; i < vlen; i++, p += 3) {
                    int vo = w[p];
                    long v = Integer.toUnsignedLong(w[p + 1]) | ((long) w[p + 2] << 32);
                    vs[i] = new BtfType.EnumValue(name(vo), vo, v);
                }
                yield new BtfType.Enum64(name, nameOff, sizeOrType, kflag, List.of(vs));
            }
            case Kinds.FWD -> new BtfType.Fwd(name, nameOff, kflag);
            case Kinds.TYPEDEF -> new BtfType.Typedef(name, nameOff, sizeOrType);
            case Kinds.VOLATILE -> new BtfType.Volatile(name, nameOff, sizeOrType);
            case Kinds.CONST -> new BtfType.Const(name, nameOff, sizeOrType);
            case Kinds.RESTRICT -> new BtfType.Restrict(name, nameOff, sizeOrType);
            case Kinds.FUNC -> new BtfType.Func(name, nameOff, sizeOrType, vlen);
            case Kinds.FUNC_PROTO -> {
                BtfType.Param[] ps = new BtfType.Param[vlen];
                for (int i = 0; i < vlen; i++, p += 2) {
                    int po = w[p];
                    ps[i] = new BtfType.Param(name(po), po, w[p + 1]);
                }
                yield new BtfType.FuncProto(name, nameOff, sizeOrType, List.of(ps));
            }
            case Kinds.VAR -> new BtfType.Var(name, nameOff, sizeOrType, w[p]);
            case Kinds.DATASEC -> {
                BtfType.VarSecinfo[] vs = new BtfType.VarSecinfo[vlen];
                for (int i = 0; i < vlen; i++, p += 3) {
                    vs[i] = new BtfType.VarSecinfo(w[p], w[p + 1], w[p + 2]);
                }
                yield new BtfType.Datasec(name, nameOff, sizeOrType, List.of(vs));
            }
            case Kinds.FLOAT -> new BtfType.Float(name, nameOff, sizeOrType);
            case Kinds.DECL_TAG -> new BtfType.DeclTag(name, nameOff, sizeOrType, w[p], kflag);
            case Kinds.TYPE_TAG -> new BtfType.TypeTag(name, nameOff, sizeOrType, kflag);
            default -> throw new IllegalStateException();
        };
        return t;
    }

    /** The name at a string offset the checks have let through: this blob's own, or its base's. */
    private String name(int off) {
        int rel = off - startStrOff;
        if (rel >= 0 && rel < cache.length) {
            String s = cache[rel];
            if (s == null) {
                s = strings.get(off);
                cache[rel] = s;
            }
            return s;
        }
        return base.string(off);
    }
}
