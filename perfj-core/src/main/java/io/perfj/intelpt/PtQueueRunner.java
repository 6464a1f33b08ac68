package io.perfj.intelpt;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes the queues of a recording's Intel PT trace in step with its other records, as perf 6.1
 * does (util/intel-pt.c): before each record with a timestamp is delivered, every queue whose
 * trace is behind that time is decoded up to it, the queue furthest behind first (a heap by
 * timestamp), and the samples and errors it synthesizes come out in that order, before the
 * record. A queue stops at the first event at or past the time and synthesizes it when it runs
 * again. Each queue's thread is the CPU's current thread, which context switches and
 * ITRACE_START records set.
 */
public final class PtQueueRunner {
    private static final long KERNEL_START = 1L << 63;
    private static final long MAX_TIMESTAMP = -1L;

    /** Receives the synthesized events, in perf's order. */
    public interface Sink {
        void event(PtEvent e);
    }

    /** The code of the traced processes, for the walk. */
    public interface Walkers {
        /** A walker for the code of {@code pid}/{@code tid} (-1: unknown) as seen now. */
        InstructionWalker walker(Queue q);
    }

    /** One CPU's (or thread's) trace and the decoder walking it. */
    public static final class Queue {
        final int nr;
        final int queueCpu;
        final int queueTid;
        final List<PtBuffer> buffers = new ArrayList<>();
        PtDecoder decoder;
        PtState state;
        boolean haveSample;
        boolean onHeap;
        boolean done;
        long timestamp;
        int pid = -1;
        int tid;
        int cpu;
        int flags;
        long cbrSeen = -1;

        Queue(int nr, int cpu, int tid) {
            this.nr = nr;
            this.queueCpu = cpu;
            this.queueTid = tid;
            this.cpu = cpu;
            this.tid = tid;
        }

        public int pid() {
            return pid;
        }

        public int tid() {
            return tid;
        }

        public int cpu() {
            return cpu;
        }
    }

    private final IntelPtInfo info;
    private final long config;
    private final PtSynthOptions opts;
    private final Walkers walkers;
    private final Sink sink;
    private final boolean timeless;
    private final List<Queue> queues = new ArrayList<>();
    private final PtEvent event = new PtEvent();
    /** perf's auxtrace heap: queue numbers and ordinals, a binary min-heap. */
    private int[] heapQueue = new int[4];
    private long[] heapOrdinal = new long[4];
    private int heapCnt;
    private boolean newData;
    /** The thread stacks by tid, when callchains are made. */
    private final java.util.Map<Integer, PtThreadStack> stacks = new java.util.HashMap<>();
    /** The current pid and tid of each CPU ({@code machine__set_current_tid}). */
    private final java.util.Map<Integer, long[]> current = new java.util.HashMap<>();

    /**
     * @param info the AUXTRACE_INFO
     * @param config the intel_pt event's config (MTC period, branch enable, noretcomp)
     * @param timeless whether the trace is decoded without timestamps (no TSC packets, or events without time)
     */
    public PtQueueRunner(IntelPtInfo info, long config, boolean timeless, PtSynthOptions opts, Walkers walkers,
                         Sink sink) {
        this.info = info;
        this.config = config;
        this.timeless = timeless;
        this.opts = opts;
        this.walkers = walkers;
        this.sink = sink;
    }

    /** Queues a PERF_RECORD_AUXTRACE's payload ({@code idx} picks the queue, as in perf). */
    public void add(int idx, PtBuffer b) {
        while (queues.size() <= idx) {
            queues.add(null);
        }
        Queue q = queues.get(idx);
        if (q == null) {
            q = new Queue(idx, b.cpu(), b.tid());
            queues.set(idx, q);
        }
        q.buffers.add(b);
        newData = true;
    }

    public boolean any() {
        return !queues.isEmpty();
    }

    // ------------------------------------------------------------------ sideband

    /** A context switch record ({@code out}: switch-out) on {@code cpu}. */
    public void contextSwitch(int cpu, boolean out, boolean cpuWide, int nextPrevPid, int nextPrevTid, int pid,
                              int tid) {
        if (info.haveSchedSwitch() == 3) {
            if (!out) {
                long[] c = current.get(cpu);
                if (c == null || c[1] != tid) {
                    current.put(cpu, new long[] {pid, tid});
                }
                return;
            }
            if (!cpuWide) {
                return;
            }
            current.put(cpu, new long[] {nextPrevPid, nextPrevTid});
        } else {
            if (out) {
                return;
            }
            current.put(cpu, new long[] {pid, tid});
        }
    }

    /** A PERF_RECORD_ITRACE_START: the thread tracing starts for on {@code cpu}. */
    public void itraceStart(int cpu, int pid, int tid) {
        if (info.perCpuMmaps()) {
            current.put(cpu, new long[] {pid, tid});
        }
    }

    /** A PERF_RECORD_EXIT: with no timestamps, the thread's queues are decoded now. */
    public void exit(int tid) {
        if (timeless) {
            for (Queue q : queues) {
                if (q != null && (tid == -1 || q.tid == tid)) {
                    setPidTidCpu(q);
                    runDecoder(q, new long[] {0});
                }
            }
        }
    }

    /**
     * The callchain perf's report gives a recorded sample of {@code tid} at {@code ip} from the
     * thread stack the trace decoded so far made (add_callchain).
     */
    public long[] lateCallchain(int tid, long ip) {
        return PtThreadStack.sampleLate(stacks.get(tid), ip, PtSynthOptions.CALLCHAIN_SIZE + 1);
    }

    // ------------------------------------------------------------------ decoding

    /** Decodes every queue up to perf time {@code time} (a record with that time comes next). */
    public void process(long time) {
        if (time == 0 || time == -1) {
            return;
        }
        setup();
        if (!timeless) {
            processQueues(info.tsc(time));
        }
    }

    /** Decodes what is left, after the last record. */
    public void flush() {
        setup();
        if (timeless) {
            exit(-1);
        } else {
            processQueues(MAX_TIMESTAMP);
        }
    }

    private void setup() {
        if (!newData) {
            return;
        }
        newData = false;
        for (Queue q : queues) {
            if (q != null) {
                setupQueue(q);
            }
        }
    }

    private void setupQueue(Queue q) {
        if (q.decoder == null) {
            int mtcPeriod = (int) ((config & info.mtcFreqBits()) >>> Long.numberOfTrailingZeros(
                    info.mtcFreqBits() == 0 ? 1 : info.mtcFreqBits()));
            if (info.mtcFreqBits() == 0) {
                mtcPeriod = 0;
            }
            boolean retComp = info.noRetCompBit() == 0 || (config & info.noRetCompBit()) == 0;
            boolean branchEnable = !((config & 1) != 0 && (config & 0x2000) == 0);
            PtDecoder.Period pt = opts.instructions() ? opts.periodType() : PtDecoder.Period.NONE;
            InstructionWalker w = (walk, ip, toIp, max, insn) -> walkers.walker(q).walk(walk, ip, toIp, max, insn);
            q.decoder = new PtDecoder(new BufferIterator(q), w, mtcPeriod, info.tscCtcN(), info.tscCtcD(),
                    info.maxNonTurboRatio(), retComp, branchEnable, pt, opts.period());
            q.cbrSeen = -1;
        }
        if (q.onHeap || q.done || timeless) {
            return;
        }
        // perf decodes up to the first timestamp to place the queue; errors on the way are not reported
        PtState s;
        while (true) {
            s = q.decoder.decode();
            if (s.err != 0) {
                if (s.err == PtErrors.NODATA) {
                    q.done = true;
                    return;
                }
                continue;
            }
            if (s.timestamp != 0) {
                break;
            }
        }
        q.timestamp = s.timestamp;
        q.state = s;
        q.haveSample = true;
        q.flags = sampleFlags(s);
        heapAdd(q.nr, q.timestamp);
    }

    /** Iterates a queue's buffers as they are added (a pipe adds them while the queue runs). */
    private static final class BufferIterator implements java.util.Iterator<PtBuffer> {
        private final Queue q;
        private int next;

        BufferIterator(Queue q) {
            this.q = q;
        }

        @Override
        public boolean hasNext() {
            return next < q.buffers.size();
        }

        @Override
        public PtBuffer next() {
            return q.buffers.get(next++);
        }
    }

    private void setPidTidCpu(Queue q) {
        if (q.queueTid == -1 || info.haveSchedSwitch() != 0) {
            long[] c = current.get(q.cpu);
            q.tid = c == null ? -1 : (int) c[1];
            if (q.tid == -1) {
                q.pid = -1;
            } else if (c[0] != -1) {
                q.pid = (int) c[0];
            }
        }
    }

    private void processQueues(long limit) {
        while (heapCnt > 0 && Long.compareUnsigned(heapOrdinal[0], limit) < 0) {
            Queue q = queues.get(heapQueue[0]);
            heapPop();
            long[] ts = new long[1];
            if (heapCnt > 0) {
                ts[0] = heapOrdinal[0] + 1;
                if (Long.compareUnsigned(ts[0], limit) > 0) {
                    ts[0] = limit;
                }
            } else {
                ts[0] = limit;
            }
            setPidTidCpu(q);
            boolean done = runDecoder(q, ts);
            if (!done) {
                heapAdd(q.nr, ts[0]);
            } else {
                q.onHeap = false;
            }
        }
    }

    /** perf's intel_pt_run_decoder: returns true when the queue's trace is done. */
    private boolean runDecoder(Queue q, long[] limit) {
        while (true) {
            sample(q);
            PtState s = q.decoder.decode();
            if (s.err != 0) {
                if (s.err == PtErrors.NODATA) {
                    q.done = true;
                    return true;
                }
                q.timestamp = s.estTimestamp;
                if (opts.errors()) {
                    error(q, s);
                }
                continue;
            }
            q.state = s;
            q.haveSample = true;
            q.flags = sampleFlags(s);
            if (!timeless && (Long.compareUnsigned(s.fromIp, KERNEL_START) >= 0 || s.fromIp == 0)
                    && s.toIp != 0 && Long.compareUnsigned(s.toIp, KERNEL_START) < 0) {
                q.timestamp = s.estTimestamp; // perf's estimated TSC on return to user space
            } else if (Long.compareUnsigned(s.timestamp, q.timestamp) > 0) {
                q.timestamp = s.timestamp;
            }
            if (!timeless && Long.compareUnsigned(q.timestamp, limit[0]) >= 0) {
                limit[0] = q.timestamp;
                return false;
            }
        }
    }

    private static int sampleFlags(PtState s) {
        int f;
        if ((s.flags & PtState.ABORT_TX) != 0) {
            f = PtEvent.FLAG_BRANCH | PtEvent.FLAG_TX_ABORT;
        } else if ((s.flags & PtState.ASYNC) != 0) {
            f = s.toIp == 0 ? PtEvent.FLAG_BRANCH | PtEvent.FLAG_TRACE_END
                    : PtEvent.FLAG_BRANCH | PtEvent.FLAG_CALL | PtEvent.FLAG_ASYNC | PtEvent.FLAG_INTERRUPT;
        } else {
            f = s.fromIp != 0 ? insnType(s.insnOp) : PtEvent.FLAG_BRANCH | PtEvent.FLAG_TRACE_BEGIN;
            if ((s.flags & PtState.IN_TX) != 0) {
                f |= PtEvent.FLAG_IN_TX;
            }
        }
        if ((s.type & PtState.TRACE_BEGIN) != 0) {
            f |= PtEvent.FLAG_TRACE_BEGIN;
        }
        if ((s.type & PtState.TRACE_END) != 0) {
            f |= PtEvent.FLAG_TRACE_END;
        }
        return f;
    }

    private static int insnType(PtInsn.Op op) {
        return switch (op) {
            case OTHER -> 0;
            case CALL -> PtEvent.FLAG_BRANCH | PtEvent.FLAG_CALL;
            case RET -> PtEvent.FLAG_BRANCH | PtEvent.FLAG_RETURN;
            case JCC, LOOP -> PtEvent.FLAG_BRANCH | PtEvent.FLAG_CONDITIONAL;
            case JMP -> PtEvent.FLAG_BRANCH;
            case IRET -> PtEvent.FLAG_BRANCH | PtEvent.FLAG_RETURN | PtEvent.FLAG_INTERRUPT;
            case INT -> PtEvent.FLAG_BRANCH | PtEvent.FLAG_CALL | PtEvent.FLAG_INTERRUPT;
            case SYSCALL -> PtEvent.FLAG_BRANCH | PtEvent.FLAG_CALL | PtEvent.FLAG_SYSCALLRET;
            case SYSRET -> PtEvent.FLAG_BRANCH | PtEvent.FLAG_RETURN | PtEvent.FLAG_SYSCALLRET;
            case VMENTRY -> PtEvent.FLAG_BRANCH;
        };
    }

    /** perf's intel_pt_sample: the samples of the queue's pending state. */
    private void sample(Queue q) {
        if (!q.haveSample) {
            return;
        }
        q.haveSample = false;
        PtState s = q.state;
        if (opts.pwrEvents()) {
            if ((s.type & PtState.PSB_EVT) != 0) {
                emit(q, PtEvent.Kind.PSB, s.fromIp, s.toIp, 1, 0);
            }
            if (s.cbr != q.cbrSeen) {
                q.cbrSeen = s.cbr;
                emit(q, PtEvent.Kind.CBR, s.fromIp, s.toIp, 1, s.fromIp == 0 ? 0 : q.flags);
            }
        }
        if (opts.instructions() && (s.type & PtState.INSTRUCTION) != 0) {
            emit(q, PtEvent.Kind.INSTRUCTION, s.fromIp, s.toIp, 1, q.flags);
        }
        if (opts.transactions() && (s.type & PtState.TRANSACTION) != 0) {
            emit(q, PtEvent.Kind.TRANSACTION, s.fromIp, s.toIp, 1, q.flags);
        }
        if ((s.type & PtState.BRANCH) == 0) {
            return;
        }
        if ((opts.callchain() || opts.addCallchain()) && q.tid != -1) {
            stacks.computeIfAbsent(q.tid, t -> new PtThreadStack()).event(q.flags, s.fromIp, s.toIp, s.insnLen,
                    q.decoder.traceNr());
        }
        if (opts.branches() && (opts.branchFilter() == 0 || (opts.branchFilter() & q.flags) != 0)) {
            emit(q, PtEvent.Kind.BRANCH, s.fromIp, s.toIp, 1, q.flags);
        }
    }

    private void emit(Queue q, PtEvent.Kind kind, long ip, long addr, long period, int flags) {
        PtEvent e = event;
        e.kind = kind;
        e.time = timeless ? 0 : info.perfTime(q.timestamp);
        e.cpu = q.cpu;
        e.pid = q.pid;
        e.tid = q.tid;
        e.ip = ip;
        e.addr = addr;
        e.period = period;
        e.flags = kind == PtEvent.Kind.PSB ? 0 : flags;
        long at = ip != 0 ? ip : addr;
        e.kernel = Long.compareUnsigned(at, KERNEL_START) >= 0;
        e.psbOffset = q.state.psbOffset;
        e.cbr = q.state.cbr;
        e.cbrPayload = q.state.cbrPayload;
        e.code = 0;
        e.buffer = null;
        e.callchain = opts.callchain() && kind != PtEvent.Kind.BRANCH
                ? PtThreadStack.sample(q.tid == -1 ? null : stacks.get(q.tid), ip, PtSynthOptions.CALLCHAIN_SIZE + 1) : null;
        sink.event(e);
    }

    private void error(Queue q, PtState s) {
        PtEvent e = event;
        e.kind = PtEvent.Kind.ERROR;
        e.time = timeless ? 0 : info.perfTime(q.timestamp);
        e.cpu = q.cpu;
        e.pid = q.pid;
        e.tid = q.tid;
        e.ip = s.fromIp;
        e.addr = 0;
        e.period = 0;
        e.flags = 0;
        e.kernel = Long.compareUnsigned(s.fromIp, KERNEL_START) >= 0;
        e.code = s.err;
        e.callchain = null;
        e.buffer = q.decoder.buffer();
        e.bufferOffset = q.decoder.offsetInBuffer();
        sink.event(e);
    }

    // ------------------------------------------------------------------ perf's heap

    private void heapAdd(int queueNr, long ordinal) {
        if (heapCnt == heapQueue.length) {
            heapQueue = java.util.Arrays.copyOf(heapQueue, heapCnt * 2);
            heapOrdinal = java.util.Arrays.copyOf(heapOrdinal, heapCnt * 2);
        }
        heapify(heapCnt++, queueNr, ordinal);
        queues.get(queueNr).onHeap = true;
    }

    private void heapify(int pos, int queueNr, long ordinal) {
        while (pos > 0) {
            int parent = (pos - 1) >> 1;
            if (Long.compareUnsigned(heapOrdinal[parent], ordinal) <= 0) {
                break;
            }
            heapQueue[pos] = heapQueue[parent];
            heapOrdinal[pos] = heapOrdinal[parent];
            pos = parent;
        }
        heapQueue[pos] = queueNr;
        heapOrdinal[pos] = ordinal;
    }

    private void heapPop() {
        int cnt = heapCnt;
        if (cnt == 0) {
            return;
        }
        heapCnt--;
        int pos = 0;
        int last = cnt - 1;
        while (true) {
            int left = (pos << 1) + 1;
            if (left >= last) {
                break;
            }
            int right = left + 1;
            if (right >= last) {
                heapQueue[pos] = heapQueue[left];
                heapOrdinal[pos] = heapOrdinal[left];
                pos = left;
                break;
            }
            int pick = Long.compareUnsigned(heapOrdinal[left], heapOrdinal[right]) < 0 ? left : right;
            heapQueue[pos] = heapQueue[pick];
            heapOrdinal[pos] = heapOrdinal[pick];
            pos = pick;
        }
        heapify(pos, heapQueue[last], heapOrdinal[last]);
    }
}
