package io.perfj.intelpt;

import io.perfj.io.Bytes;
import io.perfj.io.TextOut;

import java.util.Optional;

/**
 * The Intel PT part of a PERF_RECORD_AUXTRACE_INFO of type 1 (PERF_AUXTRACE_INTEL_PT): the u64
 * fields perf record writes after the type (perf 6.1 intel-pt.h, enum INTEL_PT_*: the PMU type,
 * the TSC conversion, which PT config bits mean what, the TSC:CTC ratio, ...) and the address
 * filter string after them. Older perf versions wrote fewer fields; the count says how many.
 *
 * @param fields the fields present, in perf's order (at least the ten up to "Per-cpu maps")
 * @param filter the filter string, or empty when the record has no filter field or a zero length
 */
public record IntelPtInfo(long[] fields, Optional<String> filter) {
    /** The AUXTRACE_INFO type of Intel PT. */
    public static final int AUX_TYPE = 1;

    private static final int PER_CPU_MMAPS = 9;
    private static final int CYC_BIT = 14;
    private static final int MAX_NONTURBO_RATIO = 15;
    private static final int FILTER_STR_LEN = 16;

    /** perf's label of each field. */
    private static final String[] LABELS = {
        "PMU Type            ", "Time Shift          ", "Time Muliplier      ", "Time Zero           ",
        "Cap Time Zero       ", "TSC bit             ", "NoRETComp bit       ", "Have sched_switch   ",
        "Snapshot mode       ", "Per-cpu maps        ", "MTC bit             ", "MTC freq bits       ",
        "TSC:CTC numerator   ", "TSC:CTC denominator ", "CYC bit             ", "Max non-turbo ratio ",
        "Filter string len.  ",
    };
    /** perf's printf conversion of each field: signed, unsigned or {@code %#x}. */
    private static final String FORMATS = "duuudxxdddxxuuxuu";

    /**
     * The fields of {@code priv} (the record's bytes after its type and reserved word), or empty
     * when there are fewer than perf requires (it refuses such a record).
     */
    public static Optional<IntelPtInfo> read(Bytes priv) {
        int n = (int) Math.min(priv.size() / 8, LABELS.length);
        if (n <= PER_CPU_MMAPS) {
            return Optional.empty();
        }
        long[] f = new long[n];
        for (int i = 0; i < n; i++) {
            f[i] = priv.u64(8L * i);
        }
        Optional<String> filter = Optional.empty();
        if (n > FILTER_STR_LEN && f[FILTER_STR_LEN] != 0) {
            long len = f[FILTER_STR_LEN];
            long at = 8L * (FILTER_STR_LEN + 1);
            if (len > 0 && len < priv.size() - at) {
                filter = Optional.of(priv.cstring(at, len + 1));
            }
        }
        return Optional.of(new IntelPtInfo(f, filter));
    }

    /**
     * The lines perf 6.1 prints under the record in {@code -D} (intel_pt_print_info): the ten
     * fields every version has, the timing fields when the record goes up to the CYC bit, the
     * non-turbo ratio and the filter string when present.
     */
    public void print(TextOut out) {
        int n = fields.length;
        range(out, 0, PER_CPU_MMAPS);
        if (n > CYC_BIT) {
            range(out, PER_CPU_MMAPS + 1, CYC_BIT);
        }
        if (n > MAX_NONTURBO_RATIO) {
            range(out, MAX_NONTURBO_RATIO, MAX_NONTURBO_RATIO);
        }
        if (n > FILTER_STR_LEN) {
            range(out, FILTER_STR_LEN, FILTER_STR_LEN);
            out.str("  ").str("Filter string       ").str(filter.orElse("")).nl();
        }
    }

    /** The fields that convert TSC values to perf time: shift, multiplier, zero. */
    private static final int TIME_SHIFT = 1;
    private static final int TIME_MULT = 2;
    private static final int TIME_ZERO = 3;

    /**
     * A TSC value as perf time in ns, with the record's conversion (perf's tsc_to_perf_time, the
     * inverse of the kernel's perf_event_mmap_page time_zero/time_mult/time_shift; 64-bit
     * wrap-around as in C).
     */
    public long perfTime(long tsc) {
        int shift = (int) fields[TIME_SHIFT];
        long mult = fields[TIME_MULT];
        long quot = tsc >>> shift;
        long rem = tsc & ((1L << shift) - 1);
        return fields[TIME_ZERO] + quot * mult + ((rem * mult) >>> shift);
    }

    /** The maximum non-turbo ratio, or 0 when the record is too old to have it. */
    private long field(int i) {
        return i < fields.length ? fields[i] : 0;
    }

    /** The PMU type of the intel_pt event. */
    public int pmuType() {
        return (int) field(0);
    }

    /** Whether the kernel gave the TSC conversion (else perf decodes without timestamps). */
    public boolean capUserTimeZero() {
        return field(4) != 0;
    }

    /** The config bit that enables TSC packets. */
    public long tscBit() {
        return field(5);
    }

    public long noRetCompBit() {
        return field(6);
    }

    /** How the recording tells context switches: 1 sched_switch, 2 or 3 switch records (3: CPU-wide). */
    public int haveSchedSwitch() {
        return (int) field(7);
    }

    public boolean snapshotMode() {
        return field(8) != 0;
    }

    public boolean perCpuMmaps() {
        return field(PER_CPU_MMAPS) != 0;
    }

    public long mtcFreqBits() {
        return field(11);
    }

    public long tscCtcN() {
        return field(12);
    }

    public long tscCtcD() {
        return field(13);
    }

    /** perf time (ns) to TSC ({@code perf_time_to_tsc}). */
    public long tsc(long perfTime) {
        int shift = (int) fields[TIME_SHIFT];
        long mult = fields[TIME_MULT];
        if (mult == 0) {
            return 0;
        }
        long t = perfTime - fields[TIME_ZERO];
        long quot = Long.divideUnsigned(t, mult);
        long rem = Long.remainderUnsigned(t, mult);
        return (quot << shift) + Long.divideUnsigned(rem << shift, mult);
    }

    /** TSC ticks in {@code ns} nanoseconds of perf time ({@code intel_pt_ns_to_ticks}). */
    public long nsToTicks(long ns) {
        int shift = (int) fields[TIME_SHIFT];
        long mult = fields[TIME_MULT];
        if (mult == 0) {
            return 0;
        }
        return (Long.divideUnsigned(ns, mult) << shift) + Long.divideUnsigned(Long.remainderUnsigned(ns, mult) << shift, mult);
    }

    /** The TSC frequency in Hz. */
    public long tscFrequency() {
        return nsToTicks(1_000_000_000L);
    }

    public long maxNonTurboRatio() {
        return fields.length > MAX_NONTURBO_RATIO ? fields[MAX_NONTURBO_RATIO] : 0;
    }

    private void range(TextOut out, int from, int to) {
        for (int i = from; i <= to; i++) {
            out.str("  ").str(LABELS[i]);
            long v = fields[i];
            switch (FORMATS.charAt(i)) {
                case 'x' -> out.hexAlt(v);
                case 'd' -> out.dec(v);
                default -> out.udec(v);
            }
            out.nl();
        }
    }
}
