package io.perfj.btf;

import io.perfj.io.FormatException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a BTF blob into a {@link Btf}: header checks as libbpf's {@code btf_parse_hdr} and
 * {@code btf_parse_str_sec}, one pass over the type section building a record per type, then a
 * check that every referenced type id and string offset is in range. Bits the model cannot keep
 * (reserved bits of the info and INT words, kind_flag or vlen where a kind has none) are
 * rejected, as the kernel rejects them, so that writing a parsed model gives back its bytes.
 */
final class BtfReader {
    private static final String HDR = "btf_header";
    private static final String TYPE = "btf_type";
    private static final String STR = "btf strings";

    private final String source;
    private final long origin;
    private final ByteBuffer buf;
    private final byte[] data;
    private final boolean le;
    private final long typeBase;
    private final Btf base;
    private final int startId;
    private final int startStrOff;
    private final byte[] strings;
    private final String[] cache;

    private BtfReader(String source, long origin, ByteBuffer buf, long typeBase, Btf base, byte[] strings) {
        this.source = source;
        this.origin = origin;
        this.buf = buf;
        this.data = buf.array();
        this.le = buf.order() == ByteOrder.LITTLE_ENDIAN;
        this.typeBase = typeBase;
        this.base = base;
        this.startId = base == null ? 1 : base.typeCount();
        this.startStrOff = base == null ? 0 : base.stringsEnd();
        this.strings = strings;
        this.cache = new String[strings.length];
    }

    static Btf read(byte[] data, long origin, String source, Btf base) {
        if (data.length < 4) {
            throw new FormatException(source, HDR, origin, "only " + data.length + " bytes, no BTF header");
        }
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        if ((b.getShort(0) & 0xffff) != BtfHeader.MAGIC) {
            b.order(ByteOrder.BIG_ENDIAN);
            if ((b.getShort(0) & 0xffff) != BtfHeader.MAGIC) {
                throw new FormatException(source, HDR, origin, String.format("bad magic 0x%02x%02x (expected 0xeb9f)",
                        data[0] & 0xff, data[1] & 0xff));
            }
        }
        if (data.length < BtfHeader.SIZE) {
            throw new FormatException(source, HDR, origin, "only " + data.length + " bytes, the header needs 24");
        }
        int version = data[2] & 0xff;
        int flags = data[3] & 0xff;
        long hdrLen = Integer.toUnsignedLong(b.getInt(4));
        if (version != BtfHeader.VERSION) {
            throw new FormatException(source, HDR, origin + 2, "unsupported BTF version " + version);
        }
        if (hdrLen < BtfHeader.SIZE || hdrLen > data.length) {
            throw new FormatException(source, HDR, origin + 4, "hdr_len " + hdrLen + " is outside [24, "
                    + data.length + "]");
        }
        for (int i = BtfHeader.SIZE; i < hdrLen; i++) {
            if (data[i] != 0) {
                throw new FormatException(source, HDR, origin + i, "unknown non-zero header bytes");
            }
        }
        long typeOff = Integer.toUnsignedLong(b.getInt(8));
        long typeLen = Integer.toUnsignedLong(b.getInt(12));
        long strOff = Integer.toUnsignedLong(b.getInt(16));
        long strLen = Integer.toUnsignedLong(b.getInt(20));
        long avail = data.length - hdrLen;
        if (typeOff + typeLen > avail) {
            throw new FormatException(source, HDR, origin + 8, "type section [0x" + Long.toHexString(typeOff)
                    + ", +0x" + Long.toHexString(typeLen) + ") ends past the " + avail + " bytes after the header");
        }
        if (strOff + strLen > avail) {
            throw new FormatException(source, HDR, origin + 16, "string section [0x" + Long.toHexString(strOff)
                    + ", +0x" + Long.toHexString(strLen) + ") ends past the " + avail + " bytes after the header");
        }
        if ((typeOff & 3) != 0) {
            throw new FormatException(source, HDR, origin + 8, "type section offset is not 4-byte aligned");
        }
        if (typeLen > 0 && strLen > 0 && typeOff < strOff + strLen && strOff < typeOff + typeLen) {
            throw new FormatException(source, HDR, origin + 8, "type and string sections overlap");
        }
        BtfHeader header = new BtfHeader(version, flags, (int) hdrLen, (int) typeOff, (int) typeLen, (int) strOff,
                (int) strLen);
        long strAt = origin + hdrLen + strOff;
        if (strLen == 0) {
            if (base == null) {
                throw new FormatException(source, STR, strAt, "empty string section");
            }
        } else {
            if (data[(int) (hdrLen + strOff + strLen - 1)] != 0) {
                throw new FormatException(source, STR, strAt + strLen - 1, "string section does not end with NUL");
            }
            if (base == null && data[(int) (hdrLen + strOff)] != 0) {
                throw new FormatException(source, STR, strAt, "string section does not start with NUL (split BTF? it needs its base BTF)");
            }
        }
        if (base != null && (long) base.stringsEnd() + strLen > Integer.MAX_VALUE) {
            throw new FormatException(source, STR, strAt, "string offsets exceed 2^31");
        }
        byte[] strings = Arrays.copyOfRange(data, (int) (hdrLen + strOff), (int) (hdrLen + strOff + strLen));
        BtfReader r = new BtfReader(source, origin, b, hdrLen + typeOff, base, strings);
        return r.types(header, (int) typeLen);
    }

    private BtfType[] out;
    private int[] offs;
    private int n;
    private int count;
    private int tb;

    /** Types to decode before a second thread is worth starting. */
    private static final int PARALLEL_MIN = 20_000;

    private Btf types(BtfHeader header, int typeLen) {
        tb = (int) typeBase;
        index(typeLen);
        count = startId + n;
        if (count < 0) {
            throw err(offs[n - 1], "more than 2^31 type ids");
        }
        out = new BtfType[n];
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
        return new Btf(source, buf.order(), header, base, out, Arrays.copyOf(offs, n), strings, cache);
    }

    /** A 32-bit field; plain byte arithmetic, which the JIT's first tier compiles well. */
    private int i32(int p) {
        byte[] d = data;
        return le ? (d[p] & 0xff) | (d[p + 1] & 0xff) << 8 | (d[p + 2] & 0xff) << 16 | d[p + 3] << 24
                : d[p] << 24 | (d[p + 1] & 0xff) << 16 | (d[p + 2] & 0xff) << 8 | (d[p + 3] & 0xff);
    }

    /** Finds every record's offset, checking kinds and that each record fits. */
    private void index(int typeLen) {
        offs = new int[Math.max(16, typeLen / 24)];
        int pos = 0;
        while (pos < typeLen) {
            if (typeLen - pos < 12) {
                throw err(pos, "truncated type record: " + (typeLen - pos) + " bytes left, 12 needed");
            }
            if (n == offs.length) {
                offs = Arrays.copyOf(offs, n * 2);
            }
            offs[n++] = pos;
            int info = i32(tb + pos + 4);
            int kind = (info >>> 24) & 0x1f;
            int vlen = info & 0xffff;
            long extra = switch (kind) {
                case 1, 14, 17 -> 4;
                case 3 -> 12;
                case 4, 5, 15, 19 -> 12L * vlen;
                case 6, 13 -> 8L * vlen;
                case 2, 7, 8, 9, 10, 11, 12, 16, 18 -> 0;
                default -> throw err(pos + 4, "unknown BTF kind " + kind);
            };
            if (12 + extra > typeLen - pos) {
                throw err(pos, BtfKind.kindName(kind) + " record needs " + (12 + extra) + " bytes, only "
                        + (typeLen - pos) + " left in the type section");
            }
            pos += (int) (12 + extra);
        }
    }

    private void decode(int from, int to) {
        // One call per type (not one long loop) so the JIT compiles it after a few hundred types.
        for (int i = from; i < to; i++) {
            out[i] = decodeType(offs[i]);
        }
    }

    private BtfType decodeType(int pos) {
        int at = tb + pos;
        int nameOff = i32(at);
        int info = i32(at + 4);
        int sizeOrType = i32(at + 8);
        int kind = (info >>> 24) & 0x1f;
        int vlen = info & 0xffff;
        boolean kflag = info < 0;
        if ((info & 0x60ff0000) != 0) {
            throw err(pos + 4, "reserved bits set in info 0x" + Integer.toHexString(info));
        }
        checkFlags(pos, kind, vlen, kflag, sizeOrType);
        String name = name(nameOff, pos);
        int p = at + 12;
        BtfType t = switch (kind) {
            case 1 -> {
                int v = i32(p);
                if ((v & 0xf000ff00) != 0) {
                    throw err(pos + 12, "reserved bits set in INT data 0x" + Integer.toHexString(v));
                }
                yield new BtfType.Int(name, nameOff, sizeOrType, (v >>> 24) & 0xf, (v >>> 16) & 0xff, v & 0xff);
            }
            case 2 -> new BtfType.Ptr(name, nameOff, ref(sizeOrType, pos + 8));
            case 3 -> new BtfType.Array(name, nameOff, ref(i32(p), pos + 12), ref(i32(p + 4), pos + 16),
                    i32(p + 8));
            case 4, 5 -> {
                BtfType.Member[] ms = new BtfType.Member[vlen];
                for (int i = 0; i < vlen; i++, p += 12) {
                    int mo = i32(p);
                    int off = i32(p + 8);
                    ms[i] = new BtfType.Member(name(mo, p - tb), mo, ref(i32(p + 4), p + 4 - tb),
                            kflag ? off & 0xffffff : off, kflag ? off >>> 24 : 0);
                }
                List<BtfType.Member> l = List.of(ms);
                yield kind == 4 ? new BtfType.Struct(name, nameOff, sizeOrType, kflag, l)
                        : new BtfType.Union(name, nameOff, sizeOrType, kflag, l);
            }
            case 6 -> {
                BtfType.EnumValue[] vs = new BtfType.EnumValue[vlen];
                for (int i = 0; i < vlen; i++, p += 8) {
                    int vo = i32(p);
                    int v = i32(p + 4);
                    vs[i] = new BtfType.EnumValue(name(vo, p - tb), vo, kflag ? v : Integer.toUnsignedLong(v));
                }
                yield new BtfType.Enum(name, nameOff, sizeOrType, kflag, List.of(vs));
            }
            case 19 -> {
                BtfType.EnumValue[] vs = new BtfType.EnumValue[vlen];
                for (int i = 0; i < vlen; i++, p += 12) {
                    int vo = i32(p);
                    long v = Integer.toUnsignedLong(i32(p + 4)) | ((long) i32(p + 8) << 32);
                    vs[i] = new BtfType.EnumValue(name(vo, p - tb), vo, v);
                }
                yield new BtfType.Enum64(name, nameOff, sizeOrType, kflag, List.of(vs));
            }
            case 7 -> new BtfType.Fwd(name, nameOff, kflag);
            case 8 -> new BtfType.Typedef(name, nameOff, ref(sizeOrType, pos + 8));
            case 9 -> new BtfType.Volatile(name, nameOff, ref(sizeOrType, pos + 8));
            case 10 -> new BtfType.Const(name, nameOff, ref(sizeOrType, pos + 8));
            case 11 -> new BtfType.Restrict(name, nameOff, ref(sizeOrType, pos + 8));
            case 12 -> new BtfType.Func(name, nameOff, ref(sizeOrType, pos + 8), vlen);
            case 13 -> {
                BtfType.Param[] ps = new BtfType.Param[vlen];
                for (int i = 0; i < vlen; i++, p += 8) {
                    int po = i32(p);
                    ps[i] = new BtfType.Param(name(po, p - tb), po, ref(i32(p + 4), p + 4 - tb));
                }
                yield new BtfType.FuncProto(name, nameOff, ref(sizeOrType, pos + 8), List.of(ps));
            }
            case 14 -> new BtfType.Var(name, nameOff, ref(sizeOrType, pos + 8), i32(p));
            case 15 -> {
                BtfType.VarSecinfo[] vs = new BtfType.VarSecinfo[vlen];
                for (int i = 0; i < vlen; i++, p += 12) {
                    vs[i] = new BtfType.VarSecinfo(ref(i32(p), p - tb), i32(p + 4), i32(p + 8));
                }
                yield new BtfType.Datasec(name, nameOff, sizeOrType, List.of(vs));
            }
            case 16 -> new BtfType.Float(name, nameOff, sizeOrType);
            case 17 -> new BtfType.DeclTag(name, nameOff, ref(sizeOrType, pos + 8), i32(p), kflag);
            case 18 -> new BtfType.TypeTag(name, nameOff, ref(sizeOrType, pos + 8), kflag);
            default -> throw new IllegalStateException();
        };
        return t;
    }

    private void checkFlags(int pos, int kind, int vlen, boolean kflag, int sizeOrType) {
        boolean hasVlen = switch (kind) {
            case 4, 5, 6, 12, 13, 15, 19 -> true;
            default -> false;
        };
        if (!hasVlen && vlen != 0) {
            throw err(pos + 4, BtfKind.kindName(kind) + " with vlen " + vlen);
        }
        if (kind == 12 && vlen > 2) {
            throw err(pos + 4, "FUNC linkage " + vlen + " is unknown");
        }
        boolean hasKflag = switch (kind) {
            case 4, 5, 6, 7, 17, 18, 19 -> true;
            default -> false;
        };
        if (!hasKflag && kflag) {
            throw err(pos + 4, BtfKind.kindName(kind) + " with kind_flag set");
        }
        if ((kind == 3 || kind == 7) && sizeOrType != 0) {
            throw err(pos + 8, BtfKind.kindName(kind) + " with non-zero size/type " + sizeOrType);
        }
    }

    /** A type reference, checked against the number of types. */
    private int ref(int id, long relPos) {
        if (Integer.compareUnsigned(id, count) >= 0) {
            throw err(relPos, "type id " + Integer.toUnsignedString(id) + " is out of range (last id "
                    + (count - 1) + ")");
        }
        return id;
    }

    private String name(int off, int relPos) {
        int rel = off - startStrOff;
        if (rel >= 0 && rel < strings.length) {
            String s = cache[rel];
            if (s == null) {
                s = Btf.decode(strings, rel);
                cache[rel] = s;
            }
            return s;
        }
        if (off >= 0 && off < startStrOff) {
            return base.string(off);
        }
        throw err(relPos, "string offset 0x" + Integer.toHexString(off) + " is outside the string section (size 0x"
                + Integer.toHexString(startStrOff + strings.length) + ")");
    }

    private FormatException err(long relPos, String detail) {
        return new FormatException(source, TYPE, origin + typeBase + relPos, detail);
    }
}
