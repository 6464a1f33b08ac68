package io.perfj.record;

import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.feature.Feature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code perfj record}: opens the events with perf_event_open(2) on every online CPU (for the
 * command's pid with inherit, the threads of {@code -p PID}, or every task with {@code -a}),
 * one ring buffer per CPU (a CPU's other events are redirected into it with
 * PERF_EVENT_IOC_SET_OUTPUT), writes the synthesized side-band, enables the events (the
 * command's exec enables them for a command), then drains the buffers whenever poll(2) says
 * one is past its watermark, a FINISHED_ROUND after each pass that copied anything. At the end
 * the data section is read back for the BUILD_ID and SAMPLE_TIME features
 * ({@link SampledObjects}) and the features are written.
 */
public final class Recorder {
    /** attr flag bits (linux/perf_event.h bitfield order). */
    private static final int DISABLED = 0;
    private static final int INHERIT = 1;
    private static final int EXCLUDE_USER = 4;
    private static final int EXCLUDE_KERNEL = 5;
    private static final int EXCLUDE_HV = 6;
    private static final int MMAP = 8;
    private static final int COMM = 9;
    private static final int FREQ = 10;
    private static final int ENABLE_ON_EXEC = 12;
    private static final int TASK = 13;
    private static final int PRECISE_SHIFT = 15;
    private static final int SAMPLE_ID_ALL = 18;
    private static final int EXCLUDE_GUEST = 20;
    private static final int EXCLUDE_CALLCHAIN_USER = 22;
    private static final int MMAP2 = 23;
    private static final int COMM_EXEC = 24;
    private static final int USE_CLOCKID = 25;
    private static final int KSYMBOL = 29;
    private static final int BPF_EVENT = 30;

    /** perf's user registers for DWARF unwinding: x86-64 without the segment registers, all of arm64's. */
    static long dwarfRegs() {
        return HostFeatures.arch().equals("aarch64") ? (1L << 33) - 1 : 0xff0fffL;
    }

    /** Records sysctl kernel.perf_event_max_stack allows by default. */
    private static final int MAX_STACK = 127;
    private static final int POLL_MS = 100;
    /** The live reader's drain interval in ms, or -1: drained at the rings' watermark only. */
    private int drainMs = -1;

    /** What a recording did. */
    public record Summary(long samples, long lost, long bytes, long wakeups, int exitStatus) {
    }

    private final RecordOptions o;
    private final String version;
    private volatile boolean stop;
    private final List<Integer> fds = new ArrayList<>();
    private final List<RingBuffer> rings = new ArrayList<>();
    private final BpfPrograms bpf = new BpfPrograms();
    private final List<String> warnings = new ArrayList<>();
    private final List<String> phases = new ArrayList<>();
    private long phaseStart;

    public Recorder(RecordOptions options, String version) {
        this.o = options;
        this.version = version;
    }

    /** What the recording changed from what was asked (perf's fallbacks), one line each. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /**
     * Where the recording's time went, one line per phase: its wall time and the whole process's
     * CPU time (CLOCK_PROCESS_CPUTIME_ID: the JIT's and collector's threads too), for
     * {@code record --debug}; empty unless {@link #timePhases} was asked.
     */
    public List<String> phases() {
        return List.copyOf(phases);
    }

    /** Times each phase of the next recording ({@link #phases}). */
    public void timePhases() {
        timing = true;
    }

    private boolean timing;
    private long phaseCpu;
    private long phaseThreadCpu;
    /** Whether the recording is a stream (no read-back pass: the rings count what they copy). */
    private boolean streaming;

    private void phase(String name) {
        if (!timing) {
            return;
        }
        long now = System.nanoTime();
        long cpu = Sys.clockGettime(CLOCK_PROCESS_CPUTIME_ID);
        long mine = Sys.clockGettime(CLOCK_THREAD_CPUTIME_ID);
        phases.add(String.format(java.util.Locale.ROOT, "%-10s %8.1f ms wall, %8.1f ms CPU (process), %8.1f ms (recorder's thread)",
                name, (now - phaseStart) / 1e6, (cpu - phaseCpu) / 1e6, (mine - phaseThreadCpu) / 1e6));
        phaseStart = now;
        phaseCpu = cpu;
        phaseThreadCpu = mine;
    }

    /**
     * Nanoseconds since this process started: CLOCK_BOOTTIME now less /proc/self/stat's start
     * time (clock ticks since boot, 100 a second on Linux's x86-64 and arm64 ABIs), so within 10
     * ms; ProcessHandle's start instant adds the boot time, which /proc/stat gives in whole
     * seconds. 0 where /proc cannot be read.
     */
    private static long sinceProcessStart() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // the fields after the command name, which is in parentheses and may hold spaces
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long startTicks = Long.parseLong(f[19]);
            return Math.max(0, Sys.clockGettime(CLOCK_BOOTTIME) - startTicks * 10_000_000L);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static final int CLOCK_BOOTTIME = 7;
    private static final int CLOCK_PROCESS_CPUTIME_ID = 2;
    private static final int CLOCK_THREAD_CPUTIME_ID = 3;

    /** Asks a running {@link #record} to stop (from another thread, e.g. on SIGINT). */
    public void requestStop() {
        stop = true;
        synchronized (wakeLock) {
            if (wakeFd >= 0) {
                try {
                    Sys.signal(wakeFd, 1);
                } catch (Sys.SysException e) {
                    // the counter cannot overflow at one per request; the flag is set either way
                }
            }
        }
    }

    /** Whether recording can be attempted here (Linux on x86-64 or aarch64). */
    public static boolean supported() {
        return Sys.supported();
    }

    /** The attr of one event, as {@link #record} opens it. */
    static EventAttr attr(EventSpec e, RecordOptions o, boolean tracking, boolean multi, boolean onExec) {
        long sampleType = SampleFormat.IP | SampleFormat.TID | SampleFormat.TIME | SampleFormat.PERIOD;
        if (o.systemWide()) {
            sampleType |= SampleFormat.CPU;
        }
        if (multi) {
            sampleType |= SampleFormat.IDENTIFIER;
        }
        long flags = bit(DISABLED) | bit(SAMPLE_ID_ALL) | bit(EXCLUDE_GUEST);
        if (!o.systemWide()) {
            flags |= bit(INHERIT);
        }
        if (onExec) {
            flags |= bit(ENABLE_ON_EXEC);
        }
        if (o.frequency() > 0) {
            flags |= bit(FREQ);
        }
        if (tracking) {
            flags |= bit(MMAP) | bit(COMM) | bit(TASK) | bit(MMAP2) | bit(COMM_EXEC) | bit(KSYMBOL) | bit(BPF_EVENT);
        }
        if (o.clockid() >= 0) {
            flags |= bit(USE_CLOCKID);
        }
        if (e.excludeUser()) {
            flags |= bit(EXCLUDE_USER);
        }
        if (e.excludeKernel()) {
            flags |= bit(EXCLUDE_KERNEL);
        }
        if (e.excludeUser() || e.excludeKernel()) {
            // perf's u and k modifiers count only the contexts named: never the hypervisor
            flags |= bit(EXCLUDE_HV);
        }
        flags |= (long) e.precise() << PRECISE_SHIFT;
        long regs = 0;
        int stack = 0;
        int maxStack = 0;
        if (o.callGraph() != RecordOptions.CallGraph.NONE) {
            sampleType |= SampleFormat.CALLCHAIN;
            maxStack = MAX_STACK;
        }
        if (o.callGraph() == RecordOptions.CallGraph.DWARF) {
            sampleType |= SampleFormat.REGS_USER | SampleFormat.STACK_USER;
            flags |= bit(EXCLUDE_CALLCHAIN_USER);
            regs = dwarfRegs();
            stack = o.stackSize();
        }
        long readFormat = SampleFormat.FORMAT_ID | SampleFormat.FORMAT_LOST;
        long period = o.frequency() > 0 ? o.frequency() : o.period();
        return new EventAttr(e.type(), EventAttr.SIZE_VER7, e.config(), period, sampleType, readFormat, flags,
                0, 0, 0, 0, 0, regs, stack, Math.max(o.clockid(), 0), 0, 0, maxStack, 0, 0, 0);
    }

    private static long bit(int b) {
        return 1L << b;
    }

    /**
     * Records until the command ends, the process ends (-p) or {@link #requestStop}. The rings
     * are drained at their watermark and at least every {@value #FILE_DRAIN_MS} ms (the last
     * pass's records are then in the file, under its header's data size), so that a
     * recorder killed outright leaves at most that much in the kernel's buffers: root's rings
     * hold seconds of samples.
     */
    public Summary record() {
        drainMs = FILE_DRAIN_MS;
        return capture(null);
    }

    /** A file's longest time between drains, in ms. */
    static final int FILE_DRAIN_MS = 500;

    /**
     * Records into {@code out} as a pipe-mode stream ({@code perf record -o -}) until the
     * command or the process ends or {@link #requestStop}; {@code out} is closed at the end, so
     * its reader sees the end of the stream. What {@code perfj top} reads live and
     * {@code perfj record -o -} writes; drained as {@link #record} drains.
     */
    public Summary stream(java.io.OutputStream out) {
        return stream(out, FILE_DRAIN_MS);
    }

    /**
     * {@link #stream(java.io.OutputStream)} for a reader that shows the records as they come
     * ({@code perfj top}): the rings are also drained every {@code drainMs} milliseconds, as
     * perf top polls them every 100 ms, not only when one reaches its watermark (half a ring,
     * which one process sampled at 1 kHz takes over 10 s to fill); -1 drains only at the watermark.
     */
    public Summary stream(java.io.OutputStream out, int drainMs) {
        if (drainMs == 0 || drainMs < -1) {
            throw new IllegalArgumentException("drain interval " + drainMs + " ms");
        }
        this.drainMs = drainMs;
        return capture(java.util.Objects.requireNonNull(out, "out"));
    }

    /**
     * The one capture path: open, side-band, enable, poll and drain, then a file's read-back
     * pass and features ({@code pipe} null), or a stream's end.
     */
    private Summary capture(java.io.OutputStream pipe) {
        streaming = pipe != null;
        // the first line: from the JVM's start to the recorder's (JVM, command line, class loading)
        phaseStart = timing ? java.lang.System.nanoTime() - sinceProcessStart() : 0;
        phase("start");
        HostFeatures host = HostFeatures.live();
        List<Integer> cpus = host.onlineCpus();
        phase("host");
        if (cpus.isEmpty()) {
            throw new RecordException("no online CPU is listed in /sys/devices/system/cpu");
        }
        Workload work = o.command().isEmpty() ? null : Workload.start(o.command(), pipe != null);
        phase("command");
        boolean onExec = work != null && !o.systemWide() && o.pid() < 0;
        PerfDataWriter writer = null;
        boolean started = false;
        boolean finished = false;
        try {
            List<Integer> tids = targets(work);
            List<PerfDataWriter.Event> events = open(cpus, tids, onExec, Sys.pageSize());
            phase("open");
            List<Feature> clock = clockFeatures();
            RecordSink sink;
            PipeWriter stream = null;
            if (pipe == null) {
                sink = writer = new PerfDataWriter(o.output(), events);
            } else {
                // perf's pipe mode: the features known at the start follow the attrs
                List<Feature> f = startFeatures(host, events);
                f.addAll(clock);
                sink = stream = new PipeWriter(pipe, events, f);
            }
            sideBand(sink, events, work);
            phase("processes");
            if (stream != null) {
                // the reader sees the side-band at once
                stream.write(Synthesizer.finishedRound());
            }
            if (!onExec) {
                enable();
            }
            if (work != null) {
                work.go();
                started = true;
            }
            long wakeups = loop(sink, work);
            phase("loop");
            if (work != null && work.alive()) {
                // stopped before the command ended: perf ends its workload with SIGTERM too
                work.terminate();
            }
            for (int fd : fds) {
                Sys.ioctl(fd, Sys.PERF_EVENT_IOC_DISABLE, 0);
            }
            drainAll(sink);
            int status = work == null ? 0 : work.waitFor();
            Summary sum = summary(wakeups, status);
            closeEvents();
            phase("last drain");
            if (writer != null) {
                writer.finishData();
                SampledObjects sampled = SampledObjects.scan(o.output());
                // a file's counts are the read-back pass's, which sees every record anyway
                sum = new Summary(sampled.samples(), sampled.lost(), sum.bytes(), wakeups, status);
                phase("read-back");
                List<Feature> f = features(host, events, sampled);
                phase("features");
                f.addAll(clock);
                writer.finish(f);
                phase("write");
            } else {
                stream.flush();
            }
            finished = true;
            return sum;
        } catch (PerfDataWriter.OutputFailed e) {
            // a full disk or an I/O error: the workload and the recording stop now, and the file
            // keeps every pass written whole
            if (work != null && work.alive()) {
                work.terminate();
            }
            if (writer != null) {
                writer.salvage();
            }
            throw e;
        } catch (Sys.SysException e) {
            throw new RecordException(e.getMessage(), e);
        } catch (IOException e) {
            if (pipe != null) {
                throw new UncheckedIOException("the output stream: " + e.getMessage(), e);
            }
            throw new PerfDataWriter.OutputFailed(o.output(), e);
        } catch (InterruptedException e) {
            java.lang.Thread.currentThread().interrupt();
            throw new RecordException("interrupted while waiting for the command", e);
        } finally {
            closeEvents();
            if (work != null) {
                if (work.alive() && (stop || !started)) {
                    work.abort();
                } else if (work.alive() && !finished) {
                    // the recording failed: perf ends its workload with SIGTERM then
                    work.terminate();
                }
                work.close();
            }
            try {
                if (writer != null) {
                    writer.close();
                }
                if (pipe != null) {
                    pipe.close();
                }
            } catch (IOException e) {
                // the first failure is the one reported
            }
        }
    }

    /** The rings' counts so far. */
    private Summary summary(long wakeups, int status) {
        long samples = 0;
        long lost = 0;
        long bytes = 0;
        for (RingBuffer r : rings) {
            samples += r.samples();
            lost += r.lost();
            bytes += r.bytes();
        }
        return new Summary(samples, lost, bytes, wakeups, status);
    }

    private void enable() {
        for (int fd : fds) {
            Sys.ioctl(fd, Sys.PERF_EVENT_IOC_ENABLE, 0);
        }
    }

    /**
     * What existed before the start, as perf synthesizes it: the kernel's and modules' maps, the
     * BPF programs loaded already (their KSYMBOLs resolve samples), the processes followed.
     */
    private void sideBand(RecordSink w, List<PerfDataWriter.Event> events, Workload work) throws IOException {
        int trailer = SampleFormat.idTrailerSize(events.getFirst().attr().sampleType());
        Synthesizer synth = new Synthesizer(Path.of("/proc"), trailer, w::write);
        synth.kernel();
        phase("kallsyms");
        for (long id : BpfPrograms.loadedIds()) {
            BpfPrograms.Prog p = bpf.add(id);
            if (p != null) {
                for (byte[] r : bpf.sideBand(p, trailer)) {
                    w.write(r);
                }
            }
        }
        phase("bpf");
        if (o.systemWide()) {
            synth.allProcesses();
        } else if (o.pid() >= 0) {
            synth.process(o.pid(), true);
        } else {
            // the shell that will become the command: its maps go away at the exec
            synth.process(work.pid(), false);
        }
    }

    /** The tasks events attach to: -1 for every task, the command's pid, or -p's threads. */
    private List<Integer> targets(Workload work) {
        if (o.systemWide()) {
            return List.of(-1);
        }
        if (o.pid() >= 0) {
            if (!Files.isDirectory(Path.of("/proc", Integer.toString(o.pid())))) {
                throw new RecordException("process " + o.pid() + " does not exist");
            }
            return new Synthesizer(Path.of("/proc"), 0, r -> { }).threads(o.pid());
        }
        return List.of(work.pid());
    }

    /** A perf_event_open that failed: which event, where, and errno. */
    private static final class OpenFailure extends Exception {
        final EventSpec spec;
        final int cpu;
        final int tid;
        final Sys.SysException cause;

        OpenFailure(EventSpec spec, int cpu, int tid, Sys.SysException cause) {
            super(cause.getMessage(), cause, false, false);
            this.spec = spec;
            this.cpu = cpu;
            this.tid = tid;
            this.cause = cause;
        }
    }

    /**
     * Opens the events, with perf's two fallbacks: the default cycles becomes cpu-clock where
     * the machine has no such event, and events that may not see the kernel (EACCES/EPERM under
     * kernel.perf_event_paranoid 2) are opened again for user space only ({@code :u}).
     */
    private List<PerfDataWriter.Event> open(List<Integer> cpus, List<Integer> tids, boolean onExec, long pageSize) {
        boolean byDefault = o.events().isEmpty();
        List<EventSpec> specs = byDefault ? List.of(EventSpec.parse(EventSpec.DEFAULT)) : o.events();
        boolean userOnly = false;
        while (true) {
            try {
                return openAll(specs, cpus, tids, onExec, pageSize);
            } catch (OpenFailure f) {
                closeEvents();
                int errno = f.cause.errno;
                if (byDefault && unsupported(errno)) {
                    byDefault = false;
                    EventSpec fallback = EventSpec.parse(EventSpec.FALLBACK);
                    specs = List.of(userOnly ? fallback.userOnly() : fallback);
                } else if ((errno == Sys.EACCES || errno == Sys.EPERM) && !o.systemWide() && !userOnly
                        && specs.stream().anyMatch(e -> !e.excludeKernel())
                        && specs.stream().noneMatch(EventSpec::excludeUser)) {
                    // perf's fallback: what may not see the kernel counts user space only, renamed
                    // so; an event asked for the kernel only (:k) has nothing left and is refused
                    userOnly = true;
                    warnings.add("kernel.perf_event_paranoid is " + paranoid()
                            + ": recording user space only (as :u), as perf falls back");
                    specs = specs.stream().map(e -> e.excludeKernel() ? e : e.userOnly()).toList();
                } else {
                    throw new RecordException(explain(f.spec, f.cpu, f.tid, f.cause));
                }
            }
        }
    }

    private List<PerfDataWriter.Event> openAll(List<EventSpec> specs, List<Integer> cpus, List<Integer> tids,
                                               boolean onExec, long pageSize) throws OpenFailure {
        boolean multi = specs.size() > 1;
        List<PerfDataWriter.Event> out = new ArrayList<>();
        int[] ringFd = new int[cpus.size()];
        java.util.Arrays.fill(ringFd, -1);
        for (int i = 0; i < specs.size(); i++) {
            EventSpec spec = specs.get(i);
            EventAttr attr = attr(spec, o, i == 0, multi, onExec);
            byte[] bytes = attr.encode(java.nio.ByteOrder.nativeOrder(), attr.size());
            List<Long> ids = new ArrayList<>();
            for (int ci = 0; ci < cpus.size(); ci++) {
                for (int tid : tids) {
                    int fd;
                    try {
                        fd = Sys.perfEventOpen(bytes, tid, cpus.get(ci), -1);
                    } catch (Sys.SysException e) {
                        throw new OpenFailure(spec, cpus.get(ci), tid, e);
                    }
                    fds.add(fd);
                    if (ringFd[ci] < 0) {
                        rings.add(mapRing(fd, cpus.get(ci), pageSize, cpus.size()));
                        ringFd[ci] = fd;
                    } else {
                        Sys.ioctl(fd, Sys.PERF_EVENT_IOC_SET_OUTPUT, ringFd[ci]);
                    }
                    ids.add(Sys.eventId(fd));
                }
            }
            out.add(new PerfDataWriter.Event(attr, ids.stream().mapToLong(Long::longValue).toArray(), spec.name()));
        }
        return out;
    }

    private RingBuffer mapRing(int fd, int cpu, long pageSize, int cpuCount) {
        if (ringPages == 0) {
            // larger rings for root only: an unprivileged user's locked-memory budget could take
            // the first rings at that size and leave too little for perf's size for the rest
            ringPages = o.pages() != RecordOptions.AUTO_PAGES ? o.pages()
                    : Sys.geteuid() == 0 ? RecordOptions.autoPages(cpuCount) : RecordOptions.DEFAULT_PAGES;
        }
        try {
            return new RingBuffer(fd, cpu, ringPages, pageSize, streaming);
        } catch (Sys.SysException e) {
            if (o.pages() == RecordOptions.AUTO_PAGES && ringPages > RecordOptions.DEFAULT_PAGES
                    && (e.errno == Sys.EPERM || e.errno == Sys.ENOMEM)) {
                // more locked memory than this user may have: perf's size for this ring and the rest
                ringPages = RecordOptions.DEFAULT_PAGES;
                return mapRing(fd, cpu, pageSize, cpuCount);
            }
            throw new RecordException("cannot map the ring buffer of CPU " + cpu + " (" + ringPages
                    + " pages): " + Sys.describe(e.errno)
                    + (e.errno == Sys.EPERM ? "; kernel.perf_event_mlock_kb limits it for unprivileged users" : ""));
        }
    }

    /** Data pages of each ring: the asked size, or the automatic one once the first ring is mapped. */
    private int ringPages;

    private static boolean unsupported(int errno) {
        return errno == Sys.ENOENT || errno == Sys.EOPNOTSUPP || errno == Sys.ENODEV;
    }

    /** One line for a failed perf_event_open, naming the sysctl where permission is the cause. */
    static String explain(EventSpec spec, int cpu, int tid, Sys.SysException e) {
        String what = "perf_event_open of " + spec.name() + " on CPU " + cpu
                + (tid >= 0 ? " for task " + tid : " for every task") + " failed: " + Sys.describe(e.errno);
        return what + switch (e.errno) {
            case Sys.EACCES, Sys.EPERM -> "; kernel.perf_event_paranoid is " + paranoid()
                    + (spec.excludeUser() ? " and " + spec.name() + " counts the kernel only (a user needs a setting"
                            + " of 1 or less, root or CAP_PERFMON to profile the kernel)"
                    : " (-a needs root, CAP_PERFMON or a setting of -1; a process of another user needs 1 or less)");
            case Sys.ENOENT, Sys.EOPNOTSUPP, Sys.ENODEV -> "; this machine has no such event"
                    + (spec.type() == 0 ? " (no hardware PMU: try -e cpu-clock)" : "");
            case Sys.EINVAL -> "; the kernel refuses these settings (a frequency above"
                    + " kernel.perf_event_max_sample_rate, or a modifier the event does not have)";
            case Sys.ESRCH -> "; the process has gone";
            case Sys.EMFILE -> "; too many open files (raise ulimit -n)";
            default -> "";
        };
    }

    private static String paranoid() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * Polls and drains until the command or the process ends or stop is asked; the wakeups. The
     * poll waits without a timeout, as perf's does: besides the rings (readable at their
     * watermark, hung up when every task they follow is gone) it watches a pidfd of the command
     * or -p's process (readable when it ends) and {@link #requestStop}'s eventfd, so an idle
     * recording costs no CPU. Where a kernel has no pidfd (before 5.3) the poll times out every
     * {@value #POLL_MS} ms to look at the process instead.
     */
    private long loop(RecordSink w, Workload work) {
        long wakeups = 0;
        int wake = openWake();
        int pidfd = -1;
        try (Arena a = Arena.ofConfined()) {
            int target = work != null ? work.pid() : o.pid();
            if (target >= 0) {
                try {
                    pidfd = Sys.pidfdOpen(target);
                } catch (Sys.SysException e) {
                    // ENOSYS before Linux 5.3, ESRCH if it is gone already: the process is looked at instead
                }
            }
            int n = rings.size() + (pidfd >= 0 ? 1 : 0) + (wake >= 0 ? 1 : 0);
            MemorySegment pfd = a.allocate(8L * n, 8);
            int at = 0;
            for (RingBuffer r : rings) {
                watch(pfd, at++, r.fd);
            }
            int pidAt = pidfd >= 0 ? at++ : -1;
            if (pidAt >= 0) {
                watch(pfd, pidAt, pidfd);
            }
            if (wake >= 0) {
                watch(pfd, at, wake);
            }
            boolean forever = wake >= 0 && (target < 0 || pidfd >= 0);
            Path pidDir = o.pid() >= 0 ? Path.of("/proc", Integer.toString(o.pid())) : null;
            while (!stop) {
                if (pidfd < 0 && work != null && !work.alive()) {
                    break;
                }
                if (pidfd < 0 && work == null && pidDir != null && !Files.isDirectory(pidDir)) {
                    break;
                }
                boolean allHungUp = false;
                boolean ended = false;
                int timeout = forever ? drainMs : drainMs > 0 ? Math.min(drainMs, POLL_MS) : POLL_MS;
                if (Sys.poll(pfd, n, timeout) > 0) {
                    wakeups++;
                    allHungUp = true;
                    for (int i = 0; i < rings.size(); i++) {
                        allHungUp &= (revents(pfd, i) & (Sys.POLLHUP | Sys.POLLERR)) != 0;
                    }
                    ended = pidAt >= 0 && revents(pfd, pidAt) != 0;
                }
                drainAll(w);
                if (allHungUp || ended) {
                    // every task the events follow has exited (a -p target may linger as a zombie),
                    // or the process recorded has
                    break;
                }
            }
        } finally {
            if (pidfd >= 0) {
                Sys.close(pidfd);
            }
            closeWake();
        }
        return wakeups;
    }

    private static void watch(MemorySegment pfd, int i, int fd) {
        pfd.set(ValueLayout.JAVA_INT, 8L * i, fd);
        pfd.set(ValueLayout.JAVA_SHORT, 8L * i + 4, Sys.POLLIN);
    }

    private static int revents(MemorySegment pfd, int i) {
        return pfd.get(ValueLayout.JAVA_SHORT, 8L * i + 6);
    }

    /** {@link #requestStop}'s eventfd while the loop runs, -1 otherwise; guarded by {@link #wakeLock}. */
    private int wakeFd = -1;
    private final Object wakeLock = new Object();

    private int openWake() {
        synchronized (wakeLock) {
            try {
                wakeFd = Sys.eventfd();
            } catch (Sys.SysException e) {
                wakeFd = -1;
            }
            return wakeFd;
        }
    }

    private void closeWake() {
        synchronized (wakeLock) {
            if (wakeFd >= 0) {
                Sys.close(wakeFd);
                wakeFd = -1;
            }
        }
    }

    private void drainAll(RecordSink w) {
        long copied = 0;
        for (RingBuffer r : rings) {
            copied += r.drain(w);
        }
        if (copied > 0) {
            w.write(Synthesizer.finishedRound());
            w.endOfPass();
        }
    }

    private void closeEvents() {
        for (RingBuffer r : rings) {
            r.unmap();
        }
        rings.clear();
        for (int fd : fds) {
            Sys.close(fd);
        }
        fds.clear();
    }

    /**
     * With {@code -k}: CLOCKID (the clock's resolution) and CLOCK_DATA (the time of day, in
     * microseconds as gettimeofday gives it, beside the clock's time), taken at the start as perf
     * takes them; without, none.
     */
    private List<Feature> clockFeatures() {
        if (o.clockid() < 0) {
            return List.of();
        }
        long res = Sys.clockGetres(o.clockid());
        java.time.Instant tod = java.time.Instant.now();
        long clock = Sys.clockGettime(o.clockid());
        long todNs = tod.getEpochSecond() * 1_000_000_000L + tod.getNano() / 1000 * 1000L;
        return List.of(new Feature.ClockId(res), new Feature.ClockData(1, o.clockid(), todNs, clock));
    }

    /** The features known before recording: the machine's, VERSION, CMDLINE, EVENT_DESC. */
    private List<Feature> startFeatures(HostFeatures host, List<PerfDataWriter.Event> events) {
        List<Feature> f = new ArrayList<>(host.collect());
        f.add(new Feature.Text(FeatureId.VERSION, version));
        f.add(new Feature.Cmdline(o.cmdline()));
        List<Feature.EventDesc.Event> desc = new ArrayList<>();
        for (PerfDataWriter.Event e : events) {
            desc.add(new Feature.EventDesc.Event(e.attr(), e.name(), e.ids()));
        }
        f.add(new Feature.EventDesc(desc));
        return f;
    }

    /** A file's features: {@link #startFeatures} and what the read-back pass and bpf(2) found. */
    private List<Feature> features(HostFeatures host, List<PerfDataWriter.Event> events, SampledObjects sampled) {
        List<Feature> f = startFeatures(host, events);
        f.add(sampled.buildIds());
        // programs loaded while recording; those unloaded again before now are missed
        for (long id : sampled.loadedBpf()) {
            bpf.add(id);
        }
        f.add(bpf.bpfProgInfo());
        f.add(bpf.bpfBtf());
        Feature.SampleTime t = sampled.sampleTime();
        if (t != null) {
            f.add(t);
        }
        return f;
    }
}
