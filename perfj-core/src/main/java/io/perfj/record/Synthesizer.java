package io.perfj.record;

import io.perfj.perfdata.RecordType;
import io.perfj.symbols.Machine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The records that describe what existed before recording started, made from {@code /proc} as
 * perf's {@code perf_event__synthesize_*} make them: the kernel's text map and the modules'
 * (PERF_RECORD_MMAP of pid -1), each thread's COMM and each process's executable mappings
 * (PERF_RECORD_MMAP2). Every record carries a zeroed sample_id trailer of the recording's size,
 * so it sorts before the first sample.
 */
final class Synthesizer {
    static final int MISC_KERNEL = 1;
    static final int MISC_USER = 2;
    private static final int PROT_EXEC = 4;
    private static final int MAP_SHARED = 1;
    private static final int MAP_PRIVATE = 2;

    private final Path proc;
    private final int trailer;
    private final Consumer<byte[]> out;

    /**
     * @param proc    the proc file system ({@code /proc} on a live machine)
     * @param trailer bytes of the sample_id trailer every record carries
     */
    Synthesizer(Path proc, int trailer, Consumer<byte[]> out) {
        this.proc = proc;
        this.trailer = trailer;
        this.out = out;
    }

    /**
     * The kernel text map and the module maps; false when kallsyms hides the addresses. The map
     * runs from {@code _text} to {@code _etext}, as perf's. The kernel formats all of kallsyms at
     * every read (~30 ms of system time for 120k symbols, more than the rest of the start), so
     * only its head is read: {@code _text} is the first text symbol, after at most the per-CPU
     * symbols at address 0. On x86-64, {@code /proc/iomem}'s "Kernel code" is
     * {@code [_text, _etext)} in physical addresses, which gives the length; elsewhere (arm64's
     * "Kernel code" ends at {@code __init_begin}) the rest of kallsyms is read, and a walk back
     * from its end, past the modules' and BPF symbols (those with a {@code [module]} column),
     * meets {@code _etext} before most of the core kernel's text symbols.
     */
    boolean kernel() {
        long text = 0;
        long etext = 0;
        try (java.io.InputStream in = Files.newInputStream(proc.resolve("kallsyms"))) {
            byte[] data = new byte[1 << 16];
            int n = 0;
            int parsed = 0;
            boolean end = false;
            while (text == 0 && !end) {
                if (n == data.length) {
                    data = java.util.Arrays.copyOf(data, data.length * 2);
                }
                int r = in.read(data, n, data.length - n);
                end = r <= 0;
                n += Math.max(r, 0);
                for (int eol; parsed < n && text == 0 && ((eol = lineEnd(data, parsed, n)) < n || end); parsed = eol + 1) {
                    text = symbol(data, parsed, eol, "_text");
                }
            }
            if (text == 0) {
                return false;
            }
            long code = X86_64 ? kernelCodeLength() : 0;
            if (code > 0) {
                etext = text + code;
            } else {
                while (!end) {
                    if (n == data.length) {
                        data = java.util.Arrays.copyOf(data, data.length * 2);
                    }
                    int r = in.read(data, n, data.length - n);
                    end = r <= 0;
                    n += Math.max(r, 0);
                }
                etext = etextFromTheEnd(data, n);
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        if (text == 0 || Long.compareUnsigned(etext, text) <= 0) {
            return false;
        }
        out.accept(mmap(-1, 0, text, etext - text, text, Machine.KERNEL_MMAP_NAME + "_text"));
        try {
            for (String l : Files.readAllLines(proc.resolve("modules"))) {
                // name size refcount deps state address [taint]
                int[] f = new int[12];
                int nf = 0;
                for (int at = blank(l, 0); at < l.length() && nf < 12; at = blank(l, f[nf - 1])) {
                    f[nf++] = at;
                    f[nf++] = word(l, at);
                }
                if (nf < 12 || !l.startsWith("0x", f[10])) {
                    continue;
                }
                long addr = Long.parseUnsignedLong(l, f[10] + 2, f[11], 16);
                long size = Long.parseLong(l, f[2], f[3], 10);
                if (addr != 0 && size > 0) {
                    out.accept(mmap(-1, 0, addr, size, 0, "[" + l.substring(f[0], f[1]) + "]"));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no modules (a kernel without module support) or an unreadable list: the text map stays
        }
        return true;
    }

    /** COMM of every thread of {@code pid} and, if {@code mmaps}, its executable mappings. */
    void process(int pid, boolean mmaps) {
        Path dir = proc.resolve(Integer.toString(pid));
        for (int tid : threads(pid)) {
            String comm = read(dir.resolve("task").resolve(Integer.toString(tid)).resolve("comm"));
            if (comm != null) {
                out.accept(comm(pid, tid, comm.strip()));
            }
        }
        if (mmaps) {
            String maps = read(dir.resolve("maps"));
            if (maps != null) {
                for (String l : maps.split("\n")) {
                    byte[] r = mapsLine(pid, l);
                    if (r != null) {
                        out.accept(r);
                    }
                }
            }
        }
    }

    /** Every process on the machine, as {@link #process}. */
    void allProcesses() {
        for (int pid : numbered(proc)) {
            process(pid, true);
        }
    }

    /** The thread ids of a process (the process id alone when its task list cannot be read). */
    List<Integer> threads(int pid) {
        List<Integer> tids = numbered(proc.resolve(Integer.toString(pid)).resolve("task"));
        return tids.isEmpty() ? List.of(pid) : tids;
    }

    private static List<Integer> numbered(Path dir) {
        List<Integer> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                if (!n.isEmpty() && n.length() < 10 && digits(n)) {
                    out.add(Integer.parseInt(n));
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        out.sort(null);
        return out;
    }

    private static boolean digits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * A PERF_RECORD_MMAP2 for one {@code /proc/PID/maps} line
     * ({@code start-end perms offset maj:min inode path}), or null for a mapping perf would not
     * synthesize (not executable) or a line that does not parse.
     */
    byte[] mapsLine(int pid, String line) {
        try {
            // five fields separated by blanks, then the path (parsed by hand: a regular
            // expression per line of every process's maps was a tenth of a recording's start)
            int n = line.length();
            int e0 = word(line, 0);
            int p = blank(line, e0);
            int e1 = word(line, p);
            if (e1 - p < 4 || line.charAt(p + 2) != 'x') {
                return null;
            }
            int o = blank(line, e1);
            int e2 = word(line, o);
            int d = blank(line, e2);
            int e3 = word(line, d);
            int i = blank(line, e3);
            int e4 = word(line, i);
            if (i >= n) {
                return null;
            }
            int dash = line.indexOf('-');
            int colon = line.indexOf(':', d);
            if (dash < 0 || dash >= e0 || colon < 0 || colon >= e3) {
                return null;
            }
            long start = Long.parseUnsignedLong(line, 0, dash, 16);
            long end = Long.parseUnsignedLong(line, dash + 1, e0, 16);
            long pgoff = Long.parseUnsignedLong(line, o, e2, 16);
            int maj = Integer.parseInt(line, d, colon, 16);
            int min = Integer.parseInt(line, colon + 1, e3, 16);
            long ino = Long.parseUnsignedLong(line, i, e4, 10);
            String name = line.substring(blank(line, e4)).strip();
            if (name.isEmpty()) {
                name = "//anon";
            }
            char r = line.charAt(p);
            char w = line.charAt(p + 1);
            char shared = line.charAt(p + 3);
            int prot = (r == 'r' ? 1 : 0) | (w == 'w' ? 2 : 0) | PROT_EXEC;
            int flags = shared == 's' ? MAP_SHARED : MAP_PRIVATE;
            byte[] fn = name.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = start(RecordType.MMAP2, MISC_USER, 4 + 4 + 8 * 3 + 4 + 4 + 8 + 8 + 4 + 4 + padded(fn));
            b.putInt(pid).putInt(pid).putLong(start).putLong(end - start).putLong(pgoff);
            b.putInt(maj).putInt(min).putLong(ino).putLong(0).putInt(prot).putInt(flags);
            putPadded(b, fn);
            return b.array();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The end of the word at {@code i} (the next blank or the end). */
    private static int word(String s, int i) {
        while (i < s.length() && s.charAt(i) > ' ') {
            i++;
        }
        return i;
    }

    /** The first non-blank at or after {@code i} (or the end). */
    private static int blank(String s, int i) {
        while (i < s.length() && s.charAt(i) <= ' ') {
            i++;
        }
        return i;
    }

    byte[] comm(int pid, int tid, String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = start(RecordType.COMM, 0, 8 + padded(n));
        b.putInt(pid).putInt(tid);
        putPadded(b, n);
        return b.array();
    }

    byte[] mmap(int pid, int tid, long start, long len, long pgoff, String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = start(RecordType.MMAP, MISC_KERNEL, 8 + 24 + padded(n));
        b.putInt(pid).putInt(tid).putLong(start).putLong(len).putLong(pgoff);
        putPadded(b, n);
        return b.array();
    }

    /** A record buffer with its header written: {@code body} bytes, then the zeroed trailer. */
    private ByteBuffer start(int type, int misc, int body) {
        int size = 8 + body + trailer;
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
        b.putInt(type).putShort((short) misc).putShort((short) size);
        return b;
    }

    /** Bytes of a NUL-terminated name padded to 8, as the kernel pads names in records. */
    private static int padded(byte[] s) {
        return (s.length + 1 + 7) & ~7;
    }

    private static void putPadded(ByteBuffer b, byte[] s) {
        b.put(s).put(new byte[padded(s) - s.length]);
    }

    /** PERF_RECORD_FINISHED_ROUND: everything before it may be sorted and flushed. */
    static byte[] finishedRound() {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
        b.putInt(RecordType.FINISHED_ROUND).putShort((short) 0).putShort((short) 8);
        return b.array();
    }

    private static boolean is(byte[] d, int from, int to, String word) {
        if (to - from != word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (d[from + i] != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static final boolean X86_64 = switch (System.getProperty("os.arch", "")) {
        case "amd64", "x86_64" -> true;
        default -> false;
    };

    /** {@code _etext} by a walk back from the end of kallsyms' {@code [0, n)}; 0 if it is not there. */
    private static long etextFromTheEnd(byte[] data, int n) {
        for (int eol = n, at; eol > 0; eol = at - 1) {
            if (data[eol - 1] == '\n') {
                eol--;
            }
            at = eol;
            while (at > 0 && data[at - 1] != '\n') {
                at--;
            }
            int tab = at;
            while (tab < eol && data[tab] != '\t') {
                tab++;
            }
            long etext = tab < eol ? 0 : symbol(data, at, eol, "_etext");
            if (etext != 0 || at == 0) {
                return etext;
            }
        }
        return 0;
    }

    /**
     * The length of {@code /proc/iomem}'s "Kernel code" range ({@code start-end : Kernel code},
     * end inclusive), 0 when there is none or its addresses are hidden (zeros for non-root).
     */
    private long kernelCodeLength() {
        String iomem = read(proc.resolve("iomem"));
        if (iomem == null) {
            return 0;
        }
        for (int at = 0, eol; at < iomem.length(); at = eol + 1) {
            eol = iomem.indexOf('\n', at);
            if (eol < 0) {
                eol = iomem.length();
            }
            String l = iomem.substring(at, eol).strip();
            int dash = l.indexOf('-');
            int colon = l.indexOf(" : ");
            if (dash > 0 && colon > dash && l.substring(colon + 3).equals("Kernel code")) {
                try {
                    long start = Long.parseUnsignedLong(l, 0, dash, 16);
                    long last = Long.parseUnsignedLong(l, dash + 1, colon, 16);
                    return last > start ? last - start + 1 : 0;
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    private static int lineEnd(byte[] d, int at, int n) {
        int eol = at;
        while (eol < n && d[eol] != '\n') {
            eol++;
        }
        return eol;
    }

    /** The address of kallsyms line {@code [at, eol)} (ADDR TYPE NAME) if it is core symbol {@code name}, else 0. */
    private static long symbol(byte[] d, int at, int eol, String name) {
        int sp = at;
        while (sp < eol && d[sp] != ' ') {
            sp++;
        }
        return sp + 3 < eol && is(d, sp + 3, eol, name) ? hex(d, at, sp) : 0;
    }

    /** A hexadecimal number of {@code [from, to)}; 0 where it is not one. */
    private static long hex(byte[] d, int from, int to) {
        long v = 0;
        if (to - from > 16 || to == from) {
            return 0;
        }
        for (int i = from; i < to; i++) {
            int c = Character.digit(d[i], 16);
            if (c < 0) {
                return 0;
            }
            v = v << 4 | c;
        }
        return v;
    }
}
