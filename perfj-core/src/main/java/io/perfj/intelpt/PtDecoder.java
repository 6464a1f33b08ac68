package io.perfj.intelpt;

import java.util.Iterator;

/**
 * Walks one queue of Intel PT trace (one CPU's or thread's buffers, in order) as perf 6.1's
 * decoder does (tools/perf/util/intel-pt-decoder/intel-pt-decoder.c): it syncs at a PSB, follows
 * the trace packet by packet, asks an {@link InstructionWalker} for the code between the packets
 * where TNT and TIP packets need it, and stops at each event perf samples: a PSB, a change of
 * core-to-bus ratio, a branch whose ends the packets give, an error. After an error it resyncs as
 * perf does: where the walk lost the code it waits for a packet with a full IP; where the packets
 * made no sense, for the next PSB.
 *
 * <p>Each {@link #decode()} returns the next event in the one {@link PtState}. Timestamps are
 * TSC values ({@link PtClock}); converting them to perf time is the caller's business.
 */
public final class PtDecoder {
    // perf's negative errno returns, kept as names
    private static final int OK = 0;
    private static final int RETURN = 1;
    private static final int ENOLINK = -67;
    private static final int EAGAIN = -11;
    private static final int ENOENT = -2;
    private static final int EILSEQ = -84;
    private static final int EBADMSG = -74;
    private static final int ENODATA = -61;
    private static final int EOVERFLOW = -75;
    private static final int ELOOP = -40;
    private static final int ENOSYS = -38;

    private static final int MAX_LOOPS = 100_000;
    private static final int STACK_MAX = 64;

    private enum PktState {
        NO_PSB, NO_IP, ERR_RESYNC, IN_SYNC, TNT_CONT, TNT, TIP, TIP_PGD, FUP, FUP_NO_TIP, FUP_IN_PSB, RESAMPLE
    }

    /** How instruction samples are spaced. */
    public enum Period {
        NONE, INSTRUCTIONS, TICKS
    }

    private static final byte[] PSB_BYTES = {2, (byte) 0x82, 2, (byte) 0x82, 2, (byte) 0x82, 2, (byte) 0x82,
        2, (byte) 0x82, 2, (byte) 0x82, 2, (byte) 0x82, 2, (byte) 0x82};

    private final Iterator<PtBuffer> buffers;
    private final InstructionWalker walker;
    private final PtClock clock;
    private final PtState state = new PtState();
    private final PtPacket packet = new PtPacket();
    private final PtInsn insn = new PtInsn();
    private final InstructionWalker.Walk walk = new InstructionWalker.Walk();
    private final boolean returnCompression;
    private final boolean branchEnable;
    private final Period periodType;
    private final long period;
    private final long periodMask;
    private final long periodTicks;

    private PtBuffer current;
    private byte[] buf = new byte[0];
    /** Start of the current packet in {@link #buf}. */
    private int at;
    private int len;
    private int pktStep;
    private long pos;
    private int ctx = PtPacketDecoder.CTX_NONE;
    private PtPacketType lastPacketType = PtPacketType.PAD;

    private PktState pktState = PktState.NO_PSB;
    private long ip;
    private long lastIp;
    private boolean haveLastIp;
    private long psbIp;
    private boolean pge;
    private boolean inPsb;
    private boolean continuousPeriod;
    private int txFlags;
    private int fupTxFlags;
    private boolean setFupTxFlags;
    private boolean setFupPtw;
    private boolean setFupMwait;
    private boolean setFupPwre;
    private boolean setFupExstop;
    private boolean setFupBep;
    private long fupPtwPayload;
    private final long[] stack = new long[STACK_MAX];
    private int stackDepth;
    private long retAddr;
    private int noProgress;
    private long stuckIp;
    private int stuckIpPrd;
    private int stuckIpCnt;
    private long tntPayload;
    private int tntCount;
    private boolean mtcInsn;
    private long totInsnCnt;
    private long sampleInsnCnt;
    private long periodInsnCnt;
    private long lastMaskedTimestamp;
    private long sampleTimestamp;
    private int cbrSeen;

    /**
     * A decoder of {@code buffers} (one queue's, in order).
     *
     * @param mtcPeriod the MTC period (bits 14..17 of the event's config)
     * @param tscCtcN TSC:CTC numerator from the AUXTRACE_INFO
     * @param tscCtcD TSC:CTC denominator
     * @param maxNonTurboRatio the AUXTRACE_INFO's max non-turbo ratio
     * @param returnCompression false when the trace was recorded with noretcomp
     * @param branchEnable false when the trace has no branches (config bit 0 set, bit 13 clear)
     */
    public PtDecoder(Iterator<PtBuffer> buffers, InstructionWalker walker, int mtcPeriod, long tscCtcN,
                     long tscCtcD, long maxNonTurboRatio, boolean returnCompression, boolean branchEnable,
                     Period periodType, long period) {
        this.buffers = buffers;
        this.walker = walker;
        this.clock = new PtClock(mtcPeriod, tscCtcN, tscCtcD, maxNonTurboRatio);
        this.returnCompression = returnCompression;
        this.branchEnable = branchEnable;
        this.periodType = periodType;
        this.period = periodType == Period.NONE ? 0 : Math.max(1, period);
        if (periodType == Period.TICKS) {
            long ticks = Math.max(1, period);
            this.periodMask = ~(Long.highestOneBit(ticks) - 1);
            this.periodTicks = ticks;
        } else {
            this.periodMask = 0;
            this.periodTicks = 0;
        }
        this.cbrSeen = 0;
    }

    /** The buffer being decoded (null before the first). */
    public PtBuffer buffer() {
        return current;
    }

    /** Which buffer of the queue is decoded (1 for the first): a new one is a new trace. */
    public long traceNr() {
        return traceNr;
    }

    private long traceNr;

    /** Offset of the current packet from the start of {@link #buffer()}. */
    public long offsetInBuffer() {
        return at;
    }

    /**
     * Decodes up to the next event. {@link PtState#err()} is {@link PtErrors#NODATA} at the end
     * of the queue's trace, and stays so.
     */
    public PtState decode() {
        int err;
        do {
            state.type = PtState.BRANCH;
            state.flags = 0;
            err = switch (pktState) {
                case NO_PSB -> sync();
                case NO_IP -> {
                    haveLastIp = false;
                    lastIp = 0;
                    ip = 0;
                    yield syncIp();
                }
                case ERR_RESYNC -> syncIp();
                case IN_SYNC -> walkTrace();
                case TNT, TNT_CONT -> {
                    int e = walkTnt();
                    yield e == EAGAIN ? walkTrace() : e;
                }
                case TIP, TIP_PGD -> walkTip();
                case FUP -> {
                    int e = walkFup();
                    yield e == EAGAIN ? walkFupTip() : e;
                }
                case FUP_NO_TIP -> {
                    int e = walkFup();
                    yield e == EAGAIN ? walkTrace() : e;
                }
                case FUP_IN_PSB -> fupInPsb();
                case RESAMPLE -> {
                    pktState = PktState.IN_SYNC;
                    state.type = PtState.INSTRUCTION;
                    state.fromIp = ip;
                    state.toIp = 0;
                    yield OK;
                }
            };
        } while (err == ENOLINK);

        if (err != OK) {
            state.err = externalError(err);
            state.errPos = pos;
            state.fromIp = ip;
            updateSampleTime();
        } else {
            state.err = 0;
            if (clock.cbr != cbrSeen) {
                cbrSeen = clock.cbr;
                if (state.type == 0) {
                    state.fromIp = ip;
                    state.toIp = 0;
                }
                state.type |= PtState.CBR_CHG;
                state.cbrPayload = clock.cbrPayload;
                state.cbr = clock.cbr;
            }
            if (sampleTime(pktState)) {
                updateSampleTime();
            }
        }
        // a PSB event always has the TSC of its PSB+
        if ((state.type & PtState.PSB_EVT) != 0 && clock.tscTimestamp != 0) {
            sampleTimestamp = clock.tscTimestamp;
        }
        state.timestamp = sampleTimestamp;
        state.estTimestamp = clock.estimate(sampleTimestamp, sampleInsnCnt);
        return state;
    }

    private static int externalError(int err) {
        return switch (err) {
            case ENOSYS -> PtErrors.INTERN;
            case EBADMSG -> PtErrors.BADPKT;
            case ENODATA -> PtErrors.NODATA;
            case EILSEQ -> PtErrors.NOINSN;
            case ENOENT -> PtErrors.MISMAT;
            case EOVERFLOW -> PtErrors.OVR;
            case ELOOP -> PtErrors.NELOOP;
            default -> PtErrors.UNK;
        };
    }

    private static boolean sampleTime(PktState s) {
        return switch (s) {
            case TNT, TIP, TIP_PGD, FUP, FUP_NO_TIP, FUP_IN_PSB -> false;
            default -> true;
        };
    }

    private void updateSampleTime() {
        sampleTimestamp = clock.timestamp;
        sampleInsnCnt = clock.timestampInsnCnt;
    }

    // ------------------------------------------------------------------ data and packets

    /** Moves to the next buffer: ENOLINK (start again at a PSB) or ENODATA at the end. */
    private int nextData() {
        pktStep = 0;
        while (buffers.hasNext()) {
            PtBuffer b = buffers.next();
            if (b.data().length == 0) {
                continue;
            }
            current = b;
            traceNr++;
            buf = b.data();
            at = 0;
            len = buf.length;
            clock.bufTimestamp = b.reference();
            // every buffer is taken as not continuing the one before: perf repositions
            ip = 0;
            pktState = PktState.NO_PSB;
            clock.reset();
            clock.refTimestamp = b.reference();
            ctx = PtPacketDecoder.CTX_NONE;
            return ENOLINK;
        }
        buf = new byte[0];
        at = 0;
        len = 0;
        return ENODATA;
    }

    private int nextPacket() {
        lastPacketType = packet.type;
        while (true) {
            pos += pktStep;
            at += pktStep;
            len -= pktStep;
            pktStep = 0;
            if (len <= 0) {
                int e = nextData();
                if (e != OK) {
                    return e;
                }
            }
            int h = buf[at] & 0xff;
            if (h == 0) {
                pktStep = 1; // PAD
                continue;
            }
            if ((h & 1) == 0 && h != 2 && ctx == PtPacketDecoder.CTX_NONE) {
                // a short TNT, most of a trace's bytes: decoded here rather than by the general decoder
                int stop = 31 - Integer.numberOfLeadingZeros(h);
                packet.type = PtPacketType.TNT;
                packet.count = stop - 1;
                packet.payload = ((long) h) << (64 - stop);
                packet.length = 1;
                pktStep = 1;
                break;
            }
            int n = PtPacketDecoder.decode(buf, at, len, ctx, packet);
            if (n <= 0) {
                return badPacket();
            }
            ctx = PtPacketDecoder.nextContext(packet, ctx);
            pktStep = n;
            if (packet.type != PtPacketType.PAD) {
                break;
            }
        }
        clock.lastWasCyc = lastPacketType == PtPacketType.CYC;
        return OK;
    }

    private int badPacket() {
        txFlags = 0;
        clock.lostTma();
        packet.clear();
        packet.type = PtPacketType.BAD;
        pktStep = 1;
        // perf stays in the state it was in (it logs the bad byte and reads on)
        return EBADMSG;
    }

    private int scanForPsb() {
        while (true) {
            if (len <= 0) {
                int e = nextData();
                if (e != OK) {
                    return e;
                }
            }
            int found = indexOfPsb(buf, at, len);
            if (found < 0) {
                pos += len;
                at += len;
                len = 0;
                continue;
            }
            pktStep = found - at;
            return nextPacket();
        }
    }

    private static int indexOfPsb(byte[] b, int from, int n) {
        int end = from + n - PSB_BYTES.length;
        outer:
        for (int i = from; i <= end; i++) {
            if (b[i] != 2) {
                continue;
            }
            for (int k = 1; k < PSB_BYTES.length; k++) {
                if (b[i + k] != PSB_BYTES[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    // ------------------------------------------------------------------ ip helpers

    private long calcIp() {
        return switch (packet.count) {
            case 1, 2, 4, 6 -> PtIp.decompress(packet.count, packet.payload, lastIp);
            case 3 -> PtIp.decompress(3, packet.payload, lastIp);
            default -> 0;
        };
    }

    private void setLastIp() {
        lastIp = calcIp();
        haveLastIp = true;
    }

    private void setIp() {
        setLastIp();
        ip = lastIp;
    }

    /** Takes the packet's IP when it can be had; whether the decoder has an IP now. */
    private boolean takeIp() {
        if (haveIp()) {
            setIp();
        }
        return ip != 0;
    }

    private boolean haveIp() {
        return packet.count != 0 && (haveLastIp || packet.count == 3 || packet.count == 6);
    }

    private void push(long addr) {
        if (stackDepth == STACK_MAX) {
            System.arraycopy(stack, 1, stack, 0, STACK_MAX - 1);
            stackDepth--;
        }
        stack[stackDepth++] = addr;
    }

    private long pop() {
        return stackDepth == 0 ? 0 : stack[--stackDepth];
    }

    private void updateInTx() {
        // MODE.TSX: bit 0 InTX, bit 1 TXAbort, the flags' own bits
        txFlags = (int) (packet.payload & PtState.IN_TX);
    }

    // ------------------------------------------------------------------ sync

    private int sync() {
        pge = false;
        continuousPeriod = false;
        haveLastIp = false;
        lastIp = 0;
        psbIp = 0;
        ip = 0;
        stackDepth = 0;
        int err = scanForPsb();
        if (err != OK) {
            return err;
        }
        haveLastIp = true;
        pktState = PktState.NO_IP;
        err = walkPsb();
        if (err != OK) {
            return err;
        }
        // perf leaves the state's PSB offset as it was here (0 at the start of the trace)
        state.type = PtState.PSB_EVT;
        state.fromIp = psbIp;
        state.toIp = 0;
        if (ip != 0) {
            pktState = PktState.IN_SYNC;
        }
        return OK;
    }

    /** The PSB+ after a PSB met while out of sync. */
    private int walkPsb() {
        inPsb = true;
        try {
            while (true) {
                int err = nextPacket();
                if (err != OK) {
                    return err;
                }
                switch (packet.type) {
                    case TIP_PGD, TIP_PGE, TIP, PTWRITE, PTWRITE_IP, EXSTOP, EXSTOP_IP, MWAIT, PWRE, PWRX, BBP, BIP,
                         BEP, BEP_IP -> {
                        if (packet.type == PtPacketType.TIP_PGD) {
                            continuousPeriod = false;
                        }
                        return ENOENT;
                    }
                    case FUP -> {
                        pge = true;
                        if (haveIp()) {
                            setIp();
                            psbIp = ip;
                        }
                    }
                    case MTC -> clock.mtc(packet.payload);
                    case TSC -> clock.tsc(packet.payload);
                    case TMA -> clock.tma(packet.payload, packet.count);
                    case CYC -> clock.cyc(packet.payload);
                    case CBR -> clock.cbr(packet.payload);
                    case MODE_TSX -> updateInTx();
                    case TRACESTOP, TNT -> {
                        if (packet.type == PtPacketType.TRACESTOP) {
                            pge = false;
                            continuousPeriod = false;
                            txFlags = 0;
                        }
                        clock.lostTma();
                        pktState = ip != 0 ? PktState.IN_SYNC : PktState.ERR_RESYNC;
                        return ENOENT;
                    }
                    case BAD -> {
                        return ENOSYS;
                    }
                    case OVF -> {
                        return overflow();
                    }
                    case PSBEND -> {
                        return OK;
                    }
                    default -> {
                    }
                }
            }
        } finally {
            inPsb = false;
        }
    }

    /** The PSB+ after a PSB met in sync. */
    private int walkPsbend() {
        inPsb = true;
        try {
            while (true) {
                int err = nextPacket();
                if (err != OK) {
                    return err;
                }
                switch (packet.type) {
                    case PSBEND -> {
                        return OK;
                    }
                    case TIP_PGD, TIP_PGE, TIP, TNT, TRACESTOP, BAD, PSB, PTWRITE, PTWRITE_IP, EXSTOP, EXSTOP_IP,
                         MWAIT, PWRE, PWRX, BBP, BIP, BEP, BEP_IP -> {
                        clock.lostTma();
                        return EAGAIN;
                    }
                    case OVF -> {
                        return overflow();
                    }
                    case TSC -> clock.tsc(packet.payload);
                    case TMA -> clock.tma(packet.payload, packet.count);
                    case CBR -> clock.cbr(packet.payload);
                    case FUP -> {
                        pge = true;
                        if (packet.count != 0) {
                            setLastIp();
                            psbIp = lastIp;
                        }
                    }
                    case MODE_TSX -> updateInTx();
                    case MTC -> clock.mtc(packet.payload);
                    case CYC -> clock.cyc(packet.payload);
                    default -> {
                    }
                }
            }
        } finally {
            inPsb = false;
        }
    }

    private int psbInSync() {
        lastIp = 0;
        psbIp = 0;
        haveLastIp = true;
        stackDepth = 0;
        int err = walkPsbend();
        if (err != OK) {
            return err;
        }
        state.type = PtState.PSB_EVT;
        state.fromIp = psbIp;
        state.toIp = 0;
        return OK;
    }

    private int overflow() {
        txFlags = 0;
        clock.timestampInsnCnt = 0;
        pktState = PktState.ERR_RESYNC;
        return EOVERFLOW;
    }

    /** After an error: waits for a packet with a usable IP. */
    private int syncIp() {
        setFupTxFlags = false;
        setFupPtw = false;
        setFupMwait = false;
        setFupPwre = false;
        setFupExstop = false;
        setFupBep = false;
        if (!branchEnable) {
            pktState = PktState.IN_SYNC;
            state.type = 0;
            return OK;
        }
        int err = walkToIp();
        if (err != OK || (state.type & PtState.PSB_EVT) != 0 && ip == 0) {
            return err;
        }
        pktState = PktState.IN_SYNC;
        state.fromIp = 0;
        state.toIp = ip;
        return OK;
    }

    private int walkToIp() {
        while (true) {
            int err = nextPacket();
            if (err != OK) {
                return err;
            }
            switch (packet.type) {
                case TIP_PGD -> {
                    continuousPeriod = false;
                    pge = false;
                    if (takeIp()) {
                        state.type |= PtState.TRACE_END;
                        return OK;
                    }
                }
                case TIP_PGE -> {
                    pge = true;
                    if (takeIp()) {
                        state.type |= PtState.TRACE_BEGIN;
                        return OK;
                    }
                }
                case TIP -> {
                    pge = true;
                    if (takeIp()) {
                        return OK;
                    }
                }
                case FUP -> {
                    if (takeIp()) {
                        return OK;
                    }
                }
                case MTC -> clock.mtc(packet.payload);
                case TSC -> clock.tsc(packet.payload);
                case TMA -> clock.tma(packet.payload, packet.count);
                case CYC -> clock.cyc(packet.payload);
                case CBR -> clock.cbr(packet.payload);
                case MODE_TSX -> updateInTx();
                case OVF -> {
                    return overflow();
                }
                case BAD -> {
                    return ENOSYS;
                }
                case TRACESTOP -> {
                    pge = false;
                    continuousPeriod = false;
                    txFlags = 0;
                    clock.lostTma();
                }
                case PSB -> {
                    long psbAt = pos;
                    psbIp = 0;
                    lastIp = 0;
                    haveLastIp = true;
                    stackDepth = 0;
                    err = walkPsb();
                    if (err != OK) {
                        return err;
                    }
                    state.type = PtState.PSB_EVT;
                    state.fromIp = psbIp;
                    state.toIp = 0;
                    state.psbOffset = psbAt;
                    return OK;
                }
                default -> {
                }
            }
        }
    }

    // ------------------------------------------------------------------ walking

    private long nextSample() {
        return switch (periodType) {
            case INSTRUCTIONS -> period - periodInsnCnt;
            case TICKS -> nextPeriod();
            case NONE -> 0;
        };
    }

    private long nextPeriod() {
        long timestamp = clock.timestamp + clock.timestampInsnCnt;
        long masked = timestamp & periodMask;
        if (continuousPeriod) {
            if (masked > lastMaskedTimestamp) {
                return 1;
            }
        } else {
            timestamp += 1;
            masked = timestamp & periodMask;
            if (masked > lastMaskedTimestamp) {
                lastMaskedTimestamp = masked;
                continuousPeriod = true;
            }
        }
        if (masked < lastMaskedTimestamp) {
            return periodTicks;
        }
        return periodTicks - (timestamp - masked);
    }

    private void sampleInsn() {
        switch (periodType) {
            case INSTRUCTIONS -> periodInsnCnt = 0;
            case TICKS -> {
                long timestamp = clock.timestamp + clock.timestampInsnCnt;
                long masked = timestamp & periodMask;
                if (masked > lastMaskedTimestamp) {
                    lastMaskedTimestamp = masked;
                } else {
                    lastMaskedTimestamp += periodTicks;
                }
            }
            case NONE -> {
            }
        }
        state.type |= PtState.INSTRUCTION;
    }

    /** Walks the code from {@link #ip}, to {@code toIp} when not 0. */
    private int walkInsn(long toIp) {
        mtcInsn = true;
        long max = nextSample();
        insn.clear();
        walk.count = 0;
        int res;
        if (toIp != 0 && ip == toIp) {
            res = InstructionWalker.OK; // already there: no code needed
            walk.ip = ip;
        } else {
            walk.ip = ip;
            res = walker.walk(walk, ip, toIp, max, insn);
        }
        long cnt = res == InstructionWalker.OK ? walk.count : 0;
        totInsnCnt += cnt;
        clock.timestampInsnCnt += cnt;
        sampleInsnCnt += cnt;
        periodInsnCnt += cnt;
        if (res != InstructionWalker.OK) {
            noProgress = 0;
            pktState = PktState.NO_IP;
            return res == InstructionWalker.NO_CODE_QUIET ? ENOLINK : EILSEQ;
        }
        ip = walk.ip;
        int err;
        if (toIp != 0 && ip == toIp) {
            err = EAGAIN;
        } else {
            if (max != 0 && cnt >= max) {
                sampleInsn();
            }
            if (insn.branch == PtInsn.Branch.NONE) {
                state.type = PtState.INSTRUCTION;
                state.fromIp = ip;
                state.toIp = 0;
                ip += insn.length;
                err = RETURN;
            } else {
                if (insn.op == PtInsn.Op.CALL) {
                    if (insn.branch != PtInsn.Branch.UNCONDITIONAL || insn.rel != 0) {
                        push(ip + insn.length);
                    }
                } else if (insn.op == PtInsn.Op.RET) {
                    retAddr = pop();
                }
                if (insn.branch == PtInsn.Branch.UNCONDITIONAL) {
                    int loops = noProgress++;
                    state.fromIp = ip;
                    ip += insn.length + insn.rel;
                    state.toIp = ip;
                    if (loops != 0) {
                        if (loops == 1) {
                            stuckIp = state.toIp;
                            stuckIpPrd = 1;
                            stuckIpCnt = 1;
                        } else if (loops > MAX_LOOPS || state.toIp == stuckIp) {
                            pktState = PktState.ERR_RESYNC;
                            noProgress = 0;
                            recordInsn();
                            return ELOOP;
                        } else if (--stuckIpCnt == 0) {
                            stuckIpPrd++;
                            stuckIpCnt = stuckIpPrd;
                            stuckIp = state.toIp;
                        }
                    }
                    recordInsn();
                    return RETURN;
                }
                err = OK;
            }
        }
        noProgress = 0;
        recordInsn();
        return err;
    }

    private void recordInsn() {
        state.insnOp = insn.op;
        state.insnLen = insn.length;
        if ((txFlags & PtState.IN_TX) != 0) {
            state.flags |= PtState.IN_TX;
        }
    }

    private int walkTnt() {
        while (true) {
            int err = walkInsn(0);
            if (err == RETURN) {
                return OK;
            }
            if (err != OK) {
                return err;
            }
            if (insn.op == PtInsn.Op.RET) {
                if (!returnCompression || retAddr == 0 || tntPayload >= 0) {
                    pktState = PktState.ERR_RESYNC;
                    return ENOENT;
                }
                tntCount--;
                pktState = tntCount != 0 ? PktState.TNT_CONT : PktState.IN_SYNC;
                tntPayload <<= 1;
                state.fromIp = ip;
                ip = retAddr;
                state.toIp = ip;
                return OK;
            }
            if (insn.branch == PtInsn.Branch.INDIRECT) {
                err = nextPacket();
                if (err != OK) {
                    return err;
                }
                if (packet.type != PtPacketType.TIP || packet.count == 0) {
                    pktState = PktState.ERR_RESYNC;
                    pktStep = 0;
                    return ENOENT;
                }
                setLastIp();
                state.fromIp = ip;
                state.toIp = lastIp;
                ip = lastIp;
                return OK;
            }
            if (insn.branch == PtInsn.Branch.CONDITIONAL) {
                tntCount--;
                pktState = tntCount != 0 ? PktState.TNT_CONT : PktState.IN_SYNC;
                if (tntPayload < 0) {
                    tntPayload <<= 1;
                    state.fromIp = ip;
                    ip += insn.length + insn.rel;
                    state.toIp = ip;
                    return OK;
                }
                if ((state.type & PtState.INSTRUCTION) != 0) {
                    tntPayload <<= 1;
                    state.type = PtState.INSTRUCTION;
                    state.fromIp = ip;
                    state.toIp = 0;
                    ip += insn.length;
                    return OK;
                }
                ip += insn.length;
                if (tntCount == 0) {
                    updateSampleTime();
                    return EAGAIN;
                }
                tntPayload <<= 1;
                continue;
            }
            return ENOSYS;
        }
    }

    private int walkTip() {
        int err = walkInsn(0);
        if (err == RETURN) {
            return OK;
        }
        if (err != OK) {
            return err;
        }
        if (insn.branch == PtInsn.Branch.INDIRECT) {
            boolean pgd = pktState == PktState.TIP_PGD;
            pktState = PktState.IN_SYNC;
            state.fromIp = ip;
            if (packet.count == 0) {
                state.toIp = 0;
            } else {
                state.toIp = lastIp;
                ip = lastIp;
            }
            if (pgd) {
                pge = false;
                continuousPeriod = false;
                state.type |= PtState.TRACE_END;
            }
            return OK;
        }
        if (insn.branch == PtInsn.Branch.CONDITIONAL) {
            pktState = PktState.ERR_RESYNC;
            return ENOENT;
        }
        return ENOSYS;
    }

    private int walkFup() {
        long to = lastIp;
        while (true) {
            int err = walkInsn(to);
            if (err == RETURN) {
                return OK;
            }
            if (err == EAGAIN) {
                boolean noTip = pktState != PktState.FUP;
                pktState = PktState.IN_SYNC;
                if (fupEvent() && noTip) {
                    return OK;
                }
                return EAGAIN;
            }
            setFupTxFlags = false;
            if (err != OK) {
                return err;
            }
            if (insn.branch == PtInsn.Branch.INDIRECT || insn.branch == PtInsn.Branch.CONDITIONAL) {
                pktState = PktState.ERR_RESYNC;
                return ENOENT;
            }
            return ENOSYS;
        }
    }

    private boolean fupEvent() {
        boolean ret = false;
        if (setFupTxFlags) {
            setFupTxFlags = false;
            txFlags = fupTxFlags;
            state.type = PtState.TRANSACTION;
            if ((fupTxFlags & PtState.ABORT_TX) != 0) {
                state.type |= PtState.BRANCH;
            }
            state.fromIp = ip;
            state.toIp = 0;
            state.flags = fupTxFlags;
            return true;
        }
        if (setFupPtw) {
            setFupPtw = false;
            state.type = PtState.PTW;
            state.flags |= PtState.FUP_IP;
            state.fromIp = ip;
            state.toIp = 0;
            state.ptwPayload = fupPtwPayload;
            return true;
        }
        if (setFupMwait) {
            setFupMwait = false;
            state.type = PtState.MWAIT_OP;
            state.fromIp = ip;
            state.toIp = 0;
            ret = true;
        }
        if (setFupPwre) {
            setFupPwre = false;
            fupEventAt(PtState.PWR_ENTRY, false);
            ret = true;
        }
        if (setFupExstop) {
            setFupExstop = false;
            fupEventAt(PtState.EX_STOP, true);
            ret = true;
        }
        if (setFupBep) {
            setFupBep = false;
            fupEventAt(PtState.BLK_ITEMS, false);
            ret = true;
        }
        return ret;
    }

    /** A power-entry, exec-stop or block event bound to the FUP's address: it is no branch. */
    private void fupEventAt(int type, boolean fupIp) {
        state.type |= type;
        state.type &= ~PtState.BRANCH;
        if (fupIp) {
            state.flags |= PtState.FUP_IP;
        }
        state.fromIp = ip;
        state.toIp = 0;
    }

    private int walkFupTip() {
        if ((txFlags & PtState.ABORT_TX) != 0) {
            txFlags = 0;
            state.flags &= ~PtState.IN_TX;
            state.flags |= PtState.ABORT_TX;
        } else {
            state.flags |= PtState.ASYNC;
        }
        while (true) {
            int err = nextPacket();
            if (err != OK) {
                return err;
            }
            switch (packet.type) {
                case TNT, FUP, TRACESTOP, PSB, TSC, TMA, MODE_TSX, BAD, PSBEND, PTWRITE, PTWRITE_IP, EXSTOP,
                     EXSTOP_IP, MWAIT, PWRE, PWRX, BBP, BIP, BEP, BEP_IP -> {
                    pktState = PktState.ERR_RESYNC;
                    pktStep = 0;
                    return ENOENT;
                }
                case CBR -> clock.cbr(packet.payload);
                case OVF -> {
                    return overflow();
                }
                case TIP_PGD -> {
                    state.fromIp = ip;
                    state.toIp = tipTarget();
                    pge = false;
                    continuousPeriod = false;
                    state.type |= PtState.TRACE_END;
                    return OK;
                }
                case TIP_PGE -> {
                    pge = true;
                    state.fromIp = 0;
                    state.toIp = tipTarget();
                    state.type |= PtState.TRACE_BEGIN;
                    return OK;
                }
                case TIP -> {
                    state.fromIp = ip;
                    state.toIp = tipTarget();
                    return OK;
                }
                case MTC -> clock.mtc(packet.payload);
                case CYC -> clock.cyc(packet.payload);
                default -> {
                }
            }
        }
    }

    /** The target of the TIP after a FUP: its IP, 0 when it has none. */
    private long tipTarget() {
        if (packet.count == 0) {
            return 0;
        }
        setIp();
        return ip;
    }

    private int fupInPsb() {
        if (ip != lastIp) {
            int err = walkFup();
            if (err != EAGAIN) {
                return err;
            }
        }
        pktState = PktState.IN_SYNC;
        int err = psbInSync();
        if (err != OK) {
            pktState = PktState.ERR_RESYNC;
            return ENOENT;
        }
        return OK;
    }

    /** perf's lookahead at a PSB in sync: a FUP in the PSB+ not followed by a TIP.PGE. */
    private boolean psbWithFup() {
        if (!branchEnable || !pge) {
            return false;
        }
        // look ahead from the PSB without moving
        int p = at + pktStep;
        int n = len - pktStep;
        int c = PtPacketDecoder.CTX_NONE;
        PtPacket pk = new PtPacket();
        boolean fup = false;
        int afterPsbend = 0;
        long fupPayload = 0;
        int fupCount = 0;
        while (n > 0) {
            int l = PtPacketDecoder.decode(buf, p, n, c, pk);
            if (l <= 0) {
                break;
            }
            c = PtPacketDecoder.nextContext(pk, c);
            p += l;
            n -= l;
            boolean stop = false;
            switch (pk.type) {
                case PAD, MNT, TSC, TMA, MODE_EXEC, MODE_TSX, MTC, CYC, VMCS, CBR, PIP -> {
                    if (afterPsbend != 0) {
                        afterPsbend--;
                        stop = afterPsbend == 0;
                    }
                }
                case FUP -> {
                    if (afterPsbend != 0 || fup || pk.count == 0) {
                        stop = true;
                    } else {
                        fup = true;
                        fupPayload = pk.payload;
                        fupCount = pk.count;
                    }
                }
                case PSBEND -> {
                    if (!fup) {
                        stop = true;
                    } else {
                        afterPsbend = 6;
                    }
                }
                case TIP_PGE -> {
                    if (afterPsbend != 0) {
                        fup = false;
                    }
                    stop = true;
                }
                case PTWRITE, PTWRITE_IP, EXSTOP, EXSTOP_IP, MWAIT, PWRE, PWRX, BBP, BIP, BEP, BEP_IP -> {
                    if (afterPsbend != 0) {
                        afterPsbend--;
                        stop = afterPsbend == 0;
                    } else {
                        stop = true;
                    }
                }
                default -> stop = true;
            }
            if (stop) {
                break;
            }
        }
        if (!fup) {
            return false;
        }
        packet.count = fupCount;
        packet.payload = fupPayload;
        setLastIp();
        pktState = PktState.FUP_IN_PSB;
        return true;
    }

    private int walkTrace() {
        boolean noTip = false;
        while (true) {
            int err = nextPacket();
            if (err != OK) {
                return err;
            }
            boolean again;
            do {
                again = false;
                switch (packet.type) {
                    case TNT -> {
                        if (packet.count == 0) {
                            break;
                        }
                        tntPayload = packet.payload;
                        tntCount = packet.count;
                        pktState = PktState.TNT;
                        err = walkTnt();
                        if (err == EAGAIN) {
                            break;
                        }
                        return err;
                    }
                    case TIP_PGD -> {
                        if (packet.count != 0) {
                            setLastIp();
                        }
                        pktState = PktState.TIP_PGD;
                        return walkTip();
                    }
                    case TIP_PGE -> {
                        pge = true;
                        if (packet.count == 0) {
                            break;
                        }
                        setIp();
                        state.fromIp = 0;
                        state.toIp = ip;
                        state.type |= PtState.TRACE_BEGIN;
                        return OK;
                    }
                    case OVF -> {
                        return overflow();
                    }
                    case TIP -> {
                        if (packet.count != 0) {
                            setLastIp();
                        }
                        pktState = PktState.TIP;
                        return walkTip();
                    }
                    case FUP -> {
                        if (packet.count == 0) {
                            noTip = false;
                            break;
                        }
                        setLastIp();
                        if (!branchEnable) {
                            ip = lastIp;
                            if (fupEvent()) {
                                return OK;
                            }
                            noTip = false;
                            break;
                        }
                        if (setFupMwait) {
                            noTip = true;
                        }
                        pktState = noTip ? PktState.FUP_NO_TIP : PktState.FUP;
                        err = walkFup();
                        if (err != EAGAIN) {
                            return err;
                        }
                        if (noTip) {
                            noTip = false;
                            break;
                        }
                        return walkFupTip();
                    }
                    case TRACESTOP -> {
                        pge = false;
                        continuousPeriod = false;
                        txFlags = 0;
                        clock.lostTma();
                    }
                    case PSB -> {
                        state.psbOffset = pos;
                        psbIp = 0;
                        if (psbWithFup()) {
                            return fupInPsb();
                        }
                        err = psbInSync();
                        if (err == EAGAIN) {
                            again = true;
                            break;
                        }
                        return err;
                    }
                    case MTC -> clock.mtc(packet.payload);
                    case TSC -> clock.tsc(packet.payload);
                    case TMA -> clock.tma(packet.payload, packet.count);
                    case CYC -> clock.cyc(packet.payload);
                    case CBR -> {
                        clock.cbr(packet.payload);
                        if (clock.cbr != cbrSeen) {
                            state.type = 0;
                            return OK;
                        }
                    }
                    case MODE_TSX -> {
                        if (!pge || inPsb) {
                            updateInTx();
                            break;
                        }
                        int flags = (int) (packet.payload & (PtState.IN_TX | PtState.ABORT_TX));
                        err = nextPacket();
                        if (err != OK) {
                            return err;
                        }
                        if (packet.type == PtPacketType.FUP) {
                            fupTxFlags = flags;
                            setFupTxFlags = true;
                            if ((flags & PtState.ABORT_TX) == 0) {
                                noTip = true;
                            }
                        } else {
                            txFlags = flags;
                        }
                        again = true;
                    }
                    case BAD -> {
                        return ENOSYS;
                    }
                    case PTWRITE_IP -> {
                        fupPtwPayload = packet.payload;
                        err = nextPacket();
                        if (err != OK) {
                            return err;
                        }
                        if (packet.type == PtPacketType.FUP) {
                            setFupPtw = true;
                            noTip = true;
                        }
                        again = true;
                    }
                    case PTWRITE -> {
                        state.type = PtState.PTW;
                        state.fromIp = ip;
                        state.toIp = 0;
                        state.ptwPayload = packet.payload;
                        return OK;
                    }
                    case MWAIT -> setFupMwait = true;
                    case PWRE -> {
                        if (setFupMwait) {
                            setFupPwre = true;
                            break;
                        }
                        state.type = PtState.PWR_ENTRY;
                        state.fromIp = ip;
                        state.toIp = 0;
                        return OK;
                    }
                    case EXSTOP_IP, BEP_IP -> {
                        PtPacketType t = packet.type;
                        err = nextPacket();
                        if (err != OK) {
                            return err;
                        }
                        if (packet.type == PtPacketType.FUP) {
                            if (t == PtPacketType.EXSTOP_IP) {
                                setFupExstop = true;
                            } else {
                                setFupBep = true;
                            }
                            noTip = true;
                        }
                        again = true;
                    }
                    case EXSTOP -> {
                        state.type = PtState.EX_STOP;
                        state.fromIp = ip;
                        state.toIp = 0;
                        return OK;
                    }
                    case PWRX -> {
                        state.type = PtState.PWR_EXIT;
                        state.fromIp = ip;
                        state.toIp = 0;
                        return OK;
                    }
                    case BEP -> {
                        state.type = PtState.BLK_ITEMS;
                        state.fromIp = ip;
                        state.toIp = 0;
                        return OK;
                    }
                    default -> {
                    }
                }
            } while (again);
        }
    }
}
