package io.perfj.jit;

import java.util.ArrayList;
import java.util.List;

/**
 * One piece of generated code as {@code perf inject --jit} sees it: a JIT_CODE_LOAD with the
 * source lines of the JIT_CODE_DEBUG_INFO and the mapped size of the JIT_CODE_UNWINDING_INFO
 * before it (a debug-info record belongs to the next load; an unwinding record's size is kept
 * until a load takes it, and, as in perf, also for the loads after it when it had no
 * .eh_frame_hdr).
 *
 * @param mapLength the length of the address range the load covers: the code, or with unwinding
 *                  information the code rounded up to 8 bytes plus its mapped size (perf inject's
 *                  MMAP2 length)
 */
public record JitCode(JitDump dump, JitRecord.CodeLoad load, List<JitRecord.LineEntry> lines, long mapLength) {
    /**
     * Where perf inject's ELF image puts the code (its {@code GEN_ELF_TEXT_OFFSET}): the file
     * offset of the map and the address of the one symbol.
     */
    public static final long TEXT_OFFSET = 0x80;

    static List<JitCode> of(JitDump dump) {
        List<JitCode> out = new ArrayList<>();
        List<JitRecord.LineEntry> lines = List.of();
        long unwindMapped = 0;
        boolean unwindTaken = false;
        for (JitRecord r : dump.records()) {
            if (r instanceof JitRecord.DebugInfo d) {
                lines = d.lines();
            } else if (r instanceof JitRecord.UnwindingInfo u) {
                unwindMapped = u.mappedSize();
                unwindTaken = u.ehFrameHdrSize() != 0;
            } else if (r instanceof JitRecord.CodeLoad l) {
                long len = unwindMapped != 0 ? align8(l.codeSize()) + unwindMapped : l.codeSize();
                out.add(new JitCode(dump, l, lines, len));
                lines = List.of();
                if (unwindTaken) {
                    unwindMapped = 0;
                    unwindTaken = false;
                }
            }
        }
        return List.copyOf(out);
    }

    private static long align8(long n) {
        return (n + 7) & ~7L;
    }

    public String name() {
        return load.name();
    }

    public long codeAddr() {
        return load.codeAddr();
    }

    public long codeSize() {
        return load.codeSize();
    }

    public long index() {
        return load.codeIndex();
    }

    public int pid() {
        return load.pid();
    }

    public int tid() {
        return load.tid();
    }

    /** When the code was loaded (the writer's clock: CLOCK_MONOTONIC unless the header says otherwise). */
    public long timestamp() {
        return load.timestamp();
    }

    /** The code's bytes, read from the dump. */
    public byte[] code() {
        return dump.code(load);
    }

    /**
     * The source position of the code at {@code addr} (an absolute address): the last line entry
     * at or below it, or null when there is none or the address is outside the code. Entries
     * outside the code are ignored (a writer's damaged file name can shift the entries after it).
     */
    public JitRecord.LineEntry lineAt(long addr) {
        if (Long.compareUnsigned(addr - codeAddr(), codeSize()) >= 0) {
            return null;
        }
        JitRecord.LineEntry best = null;
        for (JitRecord.LineEntry e : lines) {
            if (Long.compareUnsigned(e.addr() - codeAddr(), codeSize()) < 0
                    && Long.compareUnsigned(e.addr(), addr) <= 0 && (best == null || Long.compareUnsigned(e.addr(), best.addr()) >= 0)) {
                best = e;
            }
        }
        return best;
    }

    /**
     * The source position of the code at {@code addr} in perf's srcline form ({@code file:line}),
     * or null: what report's and script's srcline and the UI show for JIT code.
     */
    public String srcline(long addr) {
        JitRecord.LineEntry e = lineAt(addr);
        return e == null ? null : e.srcline();
    }

    /**
     * The name perf inject gives the ELF file it writes for a load: {@code DIR/jitted-PID-INDEX.so}
     * in the dump's directory, so that perfj's objects are called as perf's.
     */
    public static String fileName(String dumpPath, int pid, long index) {
        int slash = dumpPath.lastIndexOf('/');
        String dir = slash > 0 ? dumpPath.substring(0, slash) : slash == 0 ? "" : ".";
        return dir + "/jitted-" + pid + "-" + Long.toUnsignedString(index) + ".so";
    }
}
