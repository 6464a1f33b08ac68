package io.perfj.intelpt;

/**
 * What one step of the {@link PtDecoder} found: a branch, a PSB, a change of core-to-bus ratio,
 * or an error. The decoder reuses one state; read it before the next step.
 */
public final class PtState {
    /** A branch from {@link #fromIp} to {@link #toIp} (0: the trace starts or ends there). */
    public static final int BRANCH = 1;
    public static final int INSTRUCTION = 1 << 1;
    public static final int TRANSACTION = 1 << 2;
    public static final int PTW = 1 << 3;
    public static final int MWAIT_OP = 1 << 4;
    public static final int PWR_ENTRY = 1 << 5;
    public static final int EX_STOP = 1 << 6;
    public static final int PWR_EXIT = 1 << 7;
    /** The core-to-bus ratio changed: {@link #cbr}. */
    public static final int CBR_CHG = 1 << 8;
    public static final int TRACE_BEGIN = 1 << 9;
    public static final int TRACE_END = 1 << 10;
    public static final int BLK_ITEMS = 1 << 11;
    /** A PSB at {@link #psbOffset}. */
    public static final int PSB_EVT = 1 << 12;

    /** Flags: inside a transaction. */
    public static final int IN_TX = 1;
    /** Flags: a transaction aborted. */
    public static final int ABORT_TX = 1 << 1;
    /** Flags: an asynchronous branch (interrupt, exception), from a FUP and its TIP. */
    public static final int ASYNC = 1 << 2;
    /** Flags: the event's ip came in a FUP. */
    public static final int FUP_IP = 1 << 3;

    int type;
    int flags;
    long fromIp;
    long toIp;
    /** The error code ({@link PtErrors}), 0 for none. */
    int err;
    /** Where in the queue's trace the error was met (bytes from its start). */
    long errPos;
    long timestamp;
    long estTimestamp;
    long psbOffset;
    int cbr;
    long cbrPayload;
    PtInsn.Op insnOp = PtInsn.Op.OTHER;
    int insnLen;
    long ptwPayload;

    public int type() {
        return type;
    }

    public int flags() {
        return flags;
    }

    public long fromIp() {
        return fromIp;
    }

    public long toIp() {
        return toIp;
    }

    public int err() {
        return err;
    }

    public long errPos() {
        return errPos;
    }

    /** The TSC of the step (0 before the trace gave one). */
    public long timestamp() {
        return timestamp;
    }

    /** The TSC estimated from the instructions walked since the last timing packet. */
    public long estTimestamp() {
        return estTimestamp;
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

    public PtInsn.Op insnOp() {
        return insnOp;
    }

    public int insnLen() {
        return insnLen;
    }
}
