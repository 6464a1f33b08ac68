package io.perfj.btf;

import io.perfj.btf.wire.Header;
import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code .BTF.ext} section of a BPF object (linux {@code Documentation/bpf/btf.rst} section
 * 4.2; libbpf {@code btf_ext_parse}): per ELF section, function info, line info and CO-RE
 * relocations. Names and file/line strings are offsets into the matching {@code .BTF}'s string
 * section and are resolved through it.
 */
public record BtfExt(ByteOrder order, List<Sec<FuncInfo>> funcInfo, List<Sec<LineInfo>> lineInfo,
        List<Sec<CoreRelo>> coreRelo) {
    private static final String HDR = "btf_ext_header";

    /** The records of one ELF section (e.g. "tracepoint/syscalls/sys_enter_openat"). */
    public record Sec<T>(String name, int nameOff, List<T> records) {
    }

    /** {@code bpf_func_info}: the FUNC type of the function at {@code insnOff} (bytes in an object file). */
    public record FuncInfo(int insnOff, int typeId) {
    }

    /** {@code bpf_line_info}: {@code line = line_col >> 10}, {@code column = line_col & 0x3ff}. */
    public record LineInfo(int insnOff, int fileNameOff, String fileName, int lineOff, String line, int lineCol) {
        public int lineNumber() {
            return lineCol >>> 10;
        }

        public int column() {
            return lineCol & 0x3ff;
        }
    }

    /** {@code bpf_core_relo}: kind is {@code enum bpf_core_relo_kind}. */
    public record CoreRelo(int insnOff, int typeId, int accessStrOff, String accessStr, int kind) {
    }

    /** Parses a {@code .BTF.ext} whose strings and types live in {@code btf}. */
    public static BtfExt parse(Bytes data, Btf btf) {
        return parse(data.bytes(0, data.size()), data.base(), data.source(), btf);
    }

    public static BtfExt parse(byte[] data, long origin, String source, Btf btf) {
        if (data.length < 8) {
            throw new FormatException(source, HDR, origin, "only " + data.length + " bytes");
        }
        ByteOrder order = Header.orderOf(data[0], data[1]);
        if (order == null) {
            throw new FormatException(source, HDR, origin, "bad magic");
        }
        ByteBuffer b = ByteBuffer.wrap(data).order(order);
        if ((data[2] & 0xff) != 1) {
            throw new FormatException(source, HDR, origin + 2, "unsupported version " + (data[2] & 0xff));
        }
        long hdrLen = Integer.toUnsignedLong(b.getInt(4));
        if (hdrLen < 24 || hdrLen > data.length) {
            throw new FormatException(source, HDR, origin + 4, "hdr_len " + hdrLen + " is outside [24, " + data.length + "]");
        }
        Reader r = new Reader(b, origin, source, btf, hdrLen, data.length);
        List<Sec<FuncInfo>> fi = r.info(8, "func_info", 8, (p, bb) -> new FuncInfo(bb.getInt(p), r.type(bb.getInt(p + 4), p + 4)));
        List<Sec<LineInfo>> li = r.info(16, "line_info", 16, (p, bb) -> {
            int fo = bb.getInt(p + 4);
            int lo = bb.getInt(p + 8);
            return new LineInfo(bb.getInt(p), fo, r.str(fo, p + 4), lo, r.str(lo, p + 8), bb.getInt(p + 12));
        });
        List<Sec<CoreRelo>> cr = hdrLen >= 32 ? r.info(24, "core_relo", 16, (p, bb) -> {
            int ao = bb.getInt(p + 8);
            return new CoreRelo(bb.getInt(p), r.type(bb.getInt(p + 4), p + 4), ao, r.str(ao, p + 8), bb.getInt(p + 12));
        }) : List.of();
        return new BtfExt(b.order(), fi, li, cr);
    }

    private interface RecordReader<T> {
        T read(int pos, ByteBuffer b);
    }

    private record Reader(ByteBuffer b, long origin, String source, Btf btf, long hdrLen, int size) {
        <T> List<Sec<T>> info(int hdrField, String what, int minRec, RecordReader<T> rr) {
            long off = Integer.toUnsignedLong(b.getInt(hdrField));
            long len = Integer.toUnsignedLong(b.getInt(hdrField + 4));
            if (len == 0) {
                return List.of();
            }
            long start = hdrLen + off;
            long end = start + len;
            if (end > size) {
                throw new FormatException(source, what, origin + hdrField,
                        "section [0x" + Long.toHexString(start) + ", 0x" + Long.toHexString(end) + ") ends past the "
                                + size + "-byte .BTF.ext");
            }
            if (len < 4) {
                throw new FormatException(source, what, origin + start, "no record size");
            }
            long recSize = Integer.toUnsignedLong(b.getInt((int) start));
            if (recSize < minRec || (recSize & 3) != 0 || recSize > len) {
                throw new FormatException(source, what, origin + start, "bad record size " + recSize);
            }
            List<Sec<T>> out = new ArrayList<>();
            long p = start + 4;
            while (p < end) {
                if (end - p < 8) {
                    throw new FormatException(source, what, origin + p, "truncated section header");
                }
                int nameOff = b.getInt((int) p);
                long n = Integer.toUnsignedLong(b.getInt((int) p + 4));
                if (n == 0) {
                    throw new FormatException(source, what, origin + p + 4, "section with no records");
                }
                if (n * recSize > end - p - 8) {
                    throw new FormatException(source, what, origin + p + 4, n + " records of " + recSize
                            + " bytes do not fit in the " + (end - p - 8) + " bytes left");
                }
                String name = str(nameOff, (int) p);
                p += 8;
                List<T> recs = new ArrayList<>((int) n);
                for (long i = 0; i < n; i++, p += recSize) {
                    recs.add(rr.read((int) p, b));
                }
                out.add(new Sec<>(name, nameOff, List.copyOf(recs)));
            }
            return List.copyOf(out);
        }

        String str(int off, int pos) {
            if (!btf.hasString(off)) {
                throw new FormatException(source, ".BTF.ext", origin + pos, "string offset 0x"
                        + Integer.toHexString(off) + " is outside the .BTF string section");
            }
            return btf.string(off);
        }

        int type(int id, int pos) {
            if (!btf.hasType(id)) {
                throw new FormatException(source, ".BTF.ext", origin + pos, "type id "
                        + Integer.toUnsignedString(id) + " is out of range");
            }
            return id;
        }
    }
}
