package io.perfj.trace;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The tracing_data blob of a tracepoint recording (HEADER_TRACING_DATA feature, or the payload
 * of a PERF_RECORD_HEADER_TRACING_DATA in pipe mode): magic {@code \x17\x08Dtracing}, a version
 * string, the recording machine's endianness, long size and page size, then the ftrace
 * {@code header_page} and {@code header_event} files, the ftrace event formats, the event format
 * files of each system, kallsyms (perf writes none), the printk formats and, from version 0.6,
 * the saved cmdlines.
 *
 * <p>A blob cut short or damaged keeps what was read before the damage: {@link #warnings()}
 * then holds one message naming the file, the structure and the offset.
 */
public record TracingData(String version, boolean bigEndian, int longSize, long pageSize, String headerPage,
                          String headerEvent, List<String> ftraceFormats, List<EventFile> eventFiles,
                          String kallsyms, String printk, String cmdlines, List<String> warnings) {
    /** One event format file and the system (directory under tracefs {@code events/}) it came from. */
    public record EventFile(String system, String text, long offset) {
    }

    static final byte[] MAGIC = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
    /** A format file larger than this is damage, not a format (the real ones are a few KB). */
    private static final long MAX_FILE = 64L << 20;
    /** No recording has this many systems or events; a larger count is damage. */
    private static final long MAX_COUNT = 1 << 20;

    /**
     * Reads the blob in {@code b}. A bad magic is a {@link FormatException} (nothing can be read);
     * damage after the header ends the reading with a warning and keeps what came before.
     */
    public static TracingData parse(Bytes b) {
        Reader r = new Reader(b);
        for (int i = 0; i < MAGIC.length; i++) {
            if (r.b.u8(i) != (MAGIC[i] & 0xff)) {
                throw b.error(0, "not tracing data (magic is not \\x17\\x08Dtracing)");
            }
        }
        r.pos = MAGIC.length;
        String version = r.cstring("version string");
        boolean big = r.u8("endianness") != 0;
        r.b = b.withOrder(big ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int longSize = r.u8("long size");
        long pageSize = r.u32("page size");
        Builder out = new Builder(version, big, longSize, pageSize);
        try {
            out.headerPage = r.headerFile("header_page");
            out.headerEvent = r.headerFile("header_event");
            long n = r.count("ftrace format count");
            for (long i = 0; i < n; i++) {
                out.ftrace.add(r.file8("ftrace format").text);
            }
            long systems = r.count("event system count");
            for (long s = 0; s < systems; s++) {
                String sys = r.cstring("event system name");
                long events = r.count("event format count of " + sys);
                for (long e = 0; e < events; e++) {
                    Text t = r.file8("event format of " + sys);
                    out.events.add(new EventFile(sys, t.text, b.base() + t.offset));
                }
            }
            out.kallsyms = r.file4("kallsyms").text;
            out.printk = r.file4("printk formats").text;
            if (versionAtLeast06(version) && r.pos < b.size()) {
                out.cmdlines = r.file8("saved cmdlines").text;
            }
        } catch (FormatException e) {
            out.warnings.add(e.getMessage());
        }
        return out.build();
    }

    /** perf writes the saved cmdlines from tracing_data version 0.6 on. */
    private static boolean versionAtLeast06(String v) {
        try {
            return Double.parseDouble(v) >= 0.6;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private record Text(String text, long offset) {
    }

    /** A position in the blob; every read names the structure it reads. */
    private static final class Reader {
        Bytes b;
        long pos;

        Reader(Bytes b) {
            this.b = b;
        }

        private Bytes at(String structure) {
            return b.named("tracing_data " + structure);
        }

        int u8(String what) {
            int v = at(what).u8(pos);
            pos += 1;
            return v;
        }

        long u32(String what) {
            long v = at(what).u32(pos);
            pos += 4;
            return v;
        }

        long u64(String what) {
            long v = at(what).u64(pos);
            pos += 8;
            return v;
        }

        long count(String what) {
            long start = pos;
            long n = u32(what);
            if (n > MAX_COUNT) {
                throw at(what).error(start, "count " + n + " is not plausible");
            }
            return n;
        }

        String cstring(String what) {
            Bytes v = at(what);
            long end = pos;
            while (true) {
                if (end >= v.size()) {
                    throw v.error(pos, "string runs past the end of the tracing data");
                }
                if (v.u8(end) == 0) {
                    break;
                }
                end++;
            }
            String s = new String(v.bytes(pos, end - pos), StandardCharsets.UTF_8);
            pos = end + 1;
            return s;
        }

        Text body(String what, long start, long size) {
            Bytes v = at(what);
            if (size < 0 || size > MAX_FILE || !v.has(pos, size)) {
                throw v.error(start, "size " + Long.toUnsignedString(size) + " runs past the end of the tracing data ("
                        + (v.size() - pos) + " bytes left)");
            }
            Text t = new Text(new String(v.bytes(pos, size), StandardCharsets.UTF_8), pos);
            pos += size;
            return t;
        }

        Text file8(String what) {
            long start = pos;
            return body(what, start, u64(what + " size"));
        }

        Text file4(String what) {
            long start = pos;
            return body(what, start, u32(what + " size"));
        }

        /** {@code header_page} / {@code header_event}: the name, a 64-bit size, the file. */
        String headerFile(String name) {
            long start = pos;
            String got = cstring(name + " name");
            if (!got.equals(name)) {
                throw at(name).error(start, "expected '" + name + "', found '" + got + "'");
            }
            return file8(name).text;
        }
    }

    private static final class Builder {
        final String version;
        final boolean big;
        final int longSize;
        final long pageSize;
        String headerPage = "";
        String headerEvent = "";
        final List<String> ftrace = new ArrayList<>();
        final List<EventFile> events = new ArrayList<>();
        String kallsyms = "";
        String printk = "";
        String cmdlines = "";
        final List<String> warnings = new ArrayList<>();

        Builder(String version, boolean big, int longSize, long pageSize) {
            this.version = version;
            this.big = big;
            this.longSize = longSize;
            this.pageSize = pageSize;
        }

        TracingData build() {
            return new TracingData(version, big, longSize, pageSize, headerPage, headerEvent, List.copyOf(ftrace),
                    List.copyOf(events), kallsyms, printk, cmdlines, List.copyOf(warnings));
        }
    }
}
