package io.perfj.intelpt;

/**
 * One event synthesized from the trace, as perf synthesizes it (intel-pt.c: the branch, psb and
 * cbr samples, the PERF_RECORD_AUXTRACE_ERROR of a decoder error). The runner reuses one event;
 * read it in the sink.
 */
public final class PtEvent {
    /** What was synthesized. */
    public enum Kind {
        BRANCH, INSTRUCTION, TRANSACTION, PTWRITE, CBR, PSB, ERROR
    }

    /** perf's PERF_IP_FLAG_* sample flags. */
    public static final int FLAG_BRANCH = 1;
    public static final int FLAG_CALL = 1 << 1;
    public static final int FLAG_RETURN = 1 << 2;
    public static final int FLAG_CONDITIONAL = 1 << 3;
    public static final int FLAG_SYSCALLRET = 1 << 4;
    public static final int FLAG_ASYNC = 1 << 5;
    public static final int FLAG_INTERRUPT = 1 << 6;
    public static final int FLAG_TX_ABORT = 1 << 7;
    public static final int FLAG_TRACE_BEGIN = 1 << 8;
    public static final int FLAG_TRACE_END = 1 << 9;
    public static final int FLAG_IN_TX = 1 << 10;

    Kind kind;
    long time;
    int cpu;
    int pid;
    int tid;
    long ip;
    long addr;
    long period;
    int flags;
    /** Kernel (true) or user cpumode of the sample's ip. */
    boolean kernel;
    long psbOffset;
    int cbr;
    long cbrPayload;
    /** perf's callchain of the sample (context markers and addresses), or null. */
    long[] callchain;
    /** For {@link Kind#ERROR}: the code ({@link PtErrors}). */
    int code;
    /** For {@link Kind#ERROR}: the buffer and where in it the decoder was. */
    PtBuffer buffer;
    long bufferOffset;

    public Kind kind() {
        return kind;
    }

    /** perf time (ns), 0 when the trace is decoded without timestamps. */
    public long time() {
        return time;
    }

    public int cpu() {
        return cpu;
    }

    public int pid() {
        return pid;
    }

    public int tid() {
        return tid;
    }

    public long ip() {
        return ip;
    }

    public long addr() {
        return addr;
    }

    public long period() {
        return period;
    }

    public int flags() {
        return flags;
    }

    public boolean kernel() {
        return kernel;
    }

    public long psbOffset() {
        return psbOffset;
    }

    public int cbr() {
        return cbr;
    }

    public long cbrPayload() {
        return cbrPayload;
    }

    public long[] callchain() {
        return callchain;
    }

    public int code() {
        return code;
    }

    public PtBuffer buffer() {
        return buffer;
    }

    public long bufferOffset() {
        return bufferOffset;
    }
}
