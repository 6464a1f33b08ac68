package io.perfj.intelpt;

/**
 * The decoder's time: TSC values from TSC packets, refined between them by MTC packets (the
 * always-running crystal clock, 2^mtc_shift CTC ticks per MTC) anchored by the TMA packet after
 * each TSC, as perf 6.1 computes it (intel-pt-decoder.c: intel_pt_calc_tsc_timestamp,
 * intel_pt_calc_tma, intel_pt_calc_mtc_timestamp, intel_pt_calc_cyc_timestamp). The TSC:CTC
 * ratio comes from the AUXTRACE_INFO.
 */
final class PtClock {
    private static final long TSC_SLIP = 0x10000;

    private final int mtcShift;
    private final long ctcRemMask;
    private final long ratioN;
    private final long ratioD;
    private final long ctcMult;
    private final long maxNonTurboRatio;

    /** The current TSC (0: none yet). */
    long timestamp;
    /** The last TSC packet's value. */
    long tscTimestamp;
    /** The buffer's reference TSC, used for the first TSC packet only. */
    long refTimestamp;
    /** The reference TSC of the buffer being decoded. */
    long bufTimestamp;
    private long ctcTimestamp;
    private long ctcDelta;
    private long lastMtc;
    private boolean haveTma;
    private boolean fixupLastMtc;
    /** The core-to-bus ratio (0: none yet). */
    int cbr;
    long cbrPayload;
    private double cbrCycToTsc;
    private long cycRefTimestamp;
    private long cycleCnt;
    /** Instructions walked since the last timing packet (for the estimated TSC). */
    long timestampInsnCnt;

    PtClock(int mtcPeriod, long tscCtcN, long tscCtcD, long maxNonTurboRatio) {
        this.mtcShift = mtcPeriod;
        this.ctcRemMask = (1L << mtcPeriod) - 1;
        this.ratioN = tscCtcN;
        this.ratioD = tscCtcN == 0 ? 0 : tscCtcD;
        this.ctcMult = ratioD != 0 && ratioN % ratioD == 0 ? ratioN / ratioD : 0;
        this.maxNonTurboRatio = maxNonTurboRatio;
    }

    /** Forgets the time when the decoder moves to data that does not follow on (a new buffer). */
    void reset() {
        timestamp = 0;
        haveTma = false;
    }

    void lostTma() {
        haveTma = false;
    }

    /** A TSC packet. */
    void tsc(long payload) {
        haveTma = false;
        if (refTimestamp != 0) {
            long t = eightByteTsc(payload, refTimestamp);
            tscTimestamp = t;
            timestamp = t;
            refTimestamp = 0;
            timestampInsnCnt = 0;
        } else if (timestamp != 0) {
            long t = payload | (timestamp & (0xffL << 56));
            tscTimestamp = t;
            if (Long.compareUnsigned(t, timestamp) < 0 && timestamp - t < TSC_SLIP) {
                t = timestamp; // a TSC in PSB+ may slip behind an MTC
            }
            if (Long.compareUnsigned(t, timestamp) < 0) {
                if (bufTimestamp == 0 || Long.compareUnsigned(t + (1L << 56), bufTimestamp) < 0) {
                    t += 1L << 56;
                    tscTimestamp = t;
                } else {
                    t = timestamp;
                }
            }
            timestamp = t;
            timestampInsnCnt = 0;
        }
        if (lastWasCyc) {
            cycRefTimestamp = timestamp;
            cycleCnt = 0;
        }
    }

    /** A TMA packet: the CTC and fast counter at the last TSC. */
    void tma(long ctc, long fc) {
        if (ratioD == 0) {
            return;
        }
        long rem = ctc & ctcRemMask;
        lastMtc = (ctc >>> mtcShift) & 0xff;
        ctcTimestamp = tscTimestamp - fc;
        ctcTimestamp -= ctcMult != 0 ? rem * ctcMult : multdiv(rem, ratioN, ratioD);
        ctcDelta = 0;
        haveTma = true;
        fixupLastMtc = true;
    }

    /** An MTC packet: 8 bits of the CTC. */
    void mtc(long payload) {
        if (!haveTma) {
            return;
        }
        long mtc = payload & 0xff;
        if (mtcShift > 8 && fixupLastMtc) {
            fixupLastMtc = false;
            long firstMissingBit = 1L << (16 - mtcShift);
            long mask = ~(firstMissingBit - 1);
            lastMtc |= mtc & mask;
            if (lastMtc >= mtc) {
                lastMtc -= firstMissingBit;
                lastMtc &= 0xff;
            }
        }
        long delta = mtc > lastMtc ? mtc - lastMtc : mtc + 256 - lastMtc;
        ctcDelta += delta << mtcShift;
        long t = ctcTimestamp + (ctcMult != 0 ? ctcDelta * ctcMult : multdiv(ctcDelta, ratioN, ratioD));
        if (Long.compareUnsigned(t, timestamp) >= 0) {
            timestamp = t;
        }
        timestampInsnCnt = 0;
        lastMtc = mtc;
        if (lastWasCyc) {
            cycRefTimestamp = timestamp;
            cycleCnt = 0;
        }
    }

    /** A CYC packet: core cycles since the last one (timing only with a known ratio). */
    void cyc(long payload) {
        cycleCnt += payload;
        if (cycRefTimestamp == 0 || cbr == 0) {
            return;
        }
        long t = cycRefTimestamp + (long) (cycleCnt * cbrCycToTsc);
        if (Long.compareUnsigned(t, timestamp) >= 0) {
            timestamp = t;
        }
        timestampInsnCnt = 0;
    }

    /** A CBR packet; returns whether the ratio changed. */
    boolean cbr(long payload) {
        cbrPayload = payload;
        int r = (int) (payload & 0xff);
        if (r == cbr) {
            return false;
        }
        cbr = r;
        if (r != 0) {
            cbrCycToTsc = (double) maxNonTurboRatio / r;
        }
        return true;
    }

    /** Whether the packet before the one being handled was a CYC (set by the decoder). */
    boolean lastWasCyc;

    /** The TSC estimated {@code insns} instructions after {@code ts} (2 cycles each at the current ratio). */
    long estimate(long ts, long insns) {
        long est = insns << 1;
        if (cbr != 0 && maxNonTurboRatio != 0) {
            est = est * maxNonTurboRatio / cbr;
        }
        return ts + est;
    }

    /** Puts the 7 bytes of a TSC packet in the 8-byte range of {@code ref}, allowing for a wrap. */
    static long eightByteTsc(long tsc, long ref) {
        long t = tsc | (ref & (0xffL << 56));
        if (Long.compareUnsigned(t, ref) < 0) {
            if (Long.compareUnsigned(ref - t, 1L << 55) > 0) {
                t += 1L << 56;
            }
        } else if (Long.compareUnsigned(t - ref, 1L << 55) > 0) {
            t -= 1L << 56;
        }
        return t;
    }

    private static long multdiv(long t, long n, long d) {
        if (d == 0) {
            return 0;
        }
        return (t / d) * n + ((t % d) * n) / d;
    }
}
