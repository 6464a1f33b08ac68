package io.perfj.session;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.jit.JitCode;
import io.perfj.jit.JitDump;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.SampleId;
import io.perfj.symbols.Machine;
import io.perfj.symbols.SymbolOptions;

import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code perf inject --jit} adds to a recording, without writing anything: when a process
 * maps its runtime's {@code jit-PID.dump} (the marker mmap JIT runtimes make), the dump is read
 * and each of its code loads becomes an MMAP2 record of that process over the code, at the
 * load's timestamp, of an object named {@code DIR/jitted-PID-INDEX.so} as perf inject names the
 * ELF file it would write (so reports name objects as perf's do on the injected file). The
 * session delivers those records in time order among the recorded ones, through the same path,
 * so the process model and every cache of resolved frames see them as they see real mmaps: a
 * load is valid from its timestamp, and code loaded later over the same addresses wins from then
 * on. As perf inject does, the anonymous executable mmaps ({@code //anon},
 * {@code /memfd:doublemap}) of a process after its dump was read are left out of the model.
 *
 * <p>Differences from perf inject: a JIT_CODE_MOVE maps the moved code under the name of its load
 * (perf names it without {@code .so}, a file it never writes, so moved code has no symbol
 * there); a recording not made with {@code -k 1} (CLOCK_MONOTONIC) is not refused: its loads are
 * all valid from the dump's mmap on, in file order, with a warning.
 */
final class JitInjection {
    private static final Comparator<KernelRecord.Mmap2> BY_TIME =
            (a, b) -> Long.compareUnsigned(a.sampleId().time(), b.sampleId().time());

    private final SymbolOptions opts;
    private final boolean monotonic;
    private final Set<Integer> pidsWithDump = new HashSet<>();
    private final Set<String> read = new HashSet<>();
    private ArrayDeque<KernelRecord.Mmap2> pending = new ArrayDeque<>();
    private final List<String> warnings = new ArrayList<>();

    JitInjection(PerfData data, SymbolOptions opts) {
        this.opts = opts;
        this.monotonic = monotonic(data);
    }

    /** Whether every event was recorded with {@code -k 1} (perf inject's jit_validate_events). */
    private static boolean monotonic(PerfData data) {
        for (Evsel e : data.evlist().evsels()) {
            if (!e.attr().flag(25) || e.attr().clockid() != 1) {
                return false;
            }
        }
        return true;
    }

    /** What reading the dumps cut short or could not do. */
    List<String> warnings() {
        return warnings;
    }

    /** Whether {@code r} is an anonymous executable mmap perf inject leaves out (see the class comment). */
    boolean drops(PerfRecord r) {
        if (pidsWithDump.isEmpty()) {
            return false;
        }
        String name;
        int pid;
        if (r instanceof KernelRecord.Mmap2 m) {
            name = m.filename();
            pid = m.pid();
        } else if (r instanceof KernelRecord.Mmap m) {
            name = m.filename();
            pid = m.pid();
        } else {
            return false;
        }
        return (name.startsWith("//anon") || name.startsWith("/memfd:doublemap")) && pidsWithDump.contains(pid)
                && (r.misc() & KernelRecord.MISC_CPUMODE_MASK) == KernelRecord.MISC_USER;
    }

    /**
     * After the model took {@code r}: when it maps a process's jitdump, reads the dump, gives
     * {@code machine} its code and queues the loads' MMAP2 records.
     */
    void mapped(PerfRecord r, Machine machine) {
        if (!(r instanceof KernelRecord.Mmap2 || r instanceof KernelRecord.Mmap)
                || (r.misc() & KernelRecord.MISC_CPUMODE_MASK) != KernelRecord.MISC_USER) {
            return;
        }
        String name = r instanceof KernelRecord.Mmap2 m2 ? m2.filename() : ((KernelRecord.Mmap) r).filename();
        int pid = r instanceof KernelRecord.Mmap2 m2 ? m2.pid() : ((KernelRecord.Mmap) r).pid();
        if (!isDump(name, pid) || !read.add(name)) {
            return;
        }
        Path file = opts.jitdumpFile(name);
        if (file == null || !Files.isRegularFile(file)) {
            warnings.add(name + ": jitdump of pid " + pid + " not found" + (file == null ? " (system files not used;"
                    + " give --jitdump-dir)" : " at " + file) + ": its JIT code stays unnamed");
            return;
        }
        JitDump dump;
        try {
            dump = JitDump.read(file);
        } catch (FormatException | UncheckedIOException e) {
            warnings.add(e.getMessage());
            return;
        }
        warnings.addAll(dump.warnings());
        pidsWithDump.add(pid);
        long at = r instanceof KernelRecord kr && kr.sampleId().time() != -1 ? kr.sampleId().time() : 0;
        if (!monotonic) {
            warnings.add(file + ": the recording was not made with -k 1 (CLOCK_MONOTONIC, the clock of jitdump"
                    + " timestamps): every code load counts from the dump's mmap on");
        } else if (dump.header().archTimestamp()) {
            warnings.add(file + ": the dump's timestamps are the CPU's time-stamp counter, which perfj does not"
                    + " convert: every code load counts from the dump's mmap on");
        }
        boolean ownTimes = monotonic && !dump.header().archTimestamp();
        List<KernelRecord.Mmap2> loads = new ArrayList<>();
        java.util.Map<Long, JitCode> byIndex = new java.util.HashMap<>();
        Bytes empty = Bytes.of(new byte[RawRecord.HEADER_SIZE], ByteOrder.LITTLE_ENDIAN, name, "jitdump");
        RawRecord raw = new RawRecord(r.offset(), RecordType.MMAP2, KernelRecord.MISC_USER, empty, false);
        for (JitCode c : dump.codes()) {
            String so = JitCode.fileName(name, c.pid(), c.index());
            machine.jitCode(so, c);
            byIndex.put(c.index(), c);
            loads.add(mmap(raw, c.pid(), c.tid(), c.codeAddr(), c.mapLength(), so, ownTimes ? c.timestamp() : at));
        }
        for (io.perfj.jit.JitRecord jr : dump.records()) {
            if (jr instanceof io.perfj.jit.JitRecord.CodeMove mv && byIndex.containsKey(mv.codeIndex())) {
                JitCode c = byIndex.get(mv.codeIndex());
                long len = c.mapLength() - c.codeSize() + mv.codeSize();
                loads.add(mmap(raw, mv.pid(), mv.tid(), mv.newCodeAddr(), len,
                        JitCode.fileName(name, c.pid(), c.index()), ownTimes ? mv.timestamp() : at));
            }
        }
        if (ownTimes) {
            loads.sort(BY_TIME); // stable: equal times keep file order
        }
        List<KernelRecord.Mmap2> merged = new ArrayList<>(pending);
        merged.addAll(loads);
        merged.sort(BY_TIME);
        pending = new ArrayDeque<>(merged);
    }

    private static KernelRecord.Mmap2 mmap(RawRecord raw, int pid, int tid, long start, long len, String file,
                                           long time) {
        SampleId id = new SampleId(0, pid, tid, time, -1L, -1L, -1, 0);
        // perf inject's MMAP2: pgoff at the code in its ELF image, read|exec, MAP_SHARED
        return new KernelRecord.Mmap2(raw, pid, tid, start, len, JitCode.TEXT_OFFSET, 0, 0, 0, 1, null, 5, 1, file, id);
    }

    /**
     * The next queued record due at {@code time} (a sample's or record's time; -1, no time, takes
     * everything), removed from the queue, or null.
     */
    PerfRecord due(long time) {
        KernelRecord.Mmap2 next = pending.peekFirst();
        if (next == null || (time != -1 && Long.compareUnsigned(next.sampleId().time(), time) > 0)) {
            return null;
        }
        return pending.pollFirst();
    }

    /** Whether anything is queued (a cheap test before {@link #due}). */
    boolean any() {
        return !pending.isEmpty();
    }

    /**
     * perf's {@code jit_detect}: a file named {@code jit-PID.dump} whose PID is the mapping
     * process's (any, for a synthesized mmap of pid 0).
     */
    static boolean isDump(String filename, int pid) {
        int slash = filename.lastIndexOf('/');
        if (slash < 0) {
            return false;
        }
        String base = filename.substring(slash + 1);
        if (!base.startsWith("jit-") || !base.endsWith(".dump")) {
            return false;
        }
        String digits = base.substring(4, base.length() - 5);
        if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 10) {
            return false;
        }
        long p = Long.parseLong(digits);
        return pid == 0 || p == pid;
    }
}
