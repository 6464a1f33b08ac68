package io.perfj.intelpt;

/**
 * Which events to synthesize from Intel PT trace: perf's {@code --itrace} choices
 * (util/auxtrace.c, itrace_synth_opts) as far as this decoder has them.
 *
 * @param branches synthesize branch samples ("branches")
 * @param branchFilter with {@code branches}: only branches with one of these {@link PtEvent}
 *                     flags (0: all); perf's {@code c} (calls) and {@code r} (returns)
 * @param instructions synthesize instruction samples ("instructions")
 * @param periodType how instruction samples are spaced
 * @param period instructions, TSC ticks or (with {@code periodNs}) nanoseconds between them
 * @param periodNs whether {@code period} is in nanoseconds (converted to TSC ticks)
 * @param transactions synthesize transaction samples
 * @param ptwrites synthesize PTWRITE samples
 * @param pwrEvents synthesize power events (cbr, psb)
 * @param errors synthesize decoder errors
 * @param callchain give the synthesized samples (not branches) callchains from the decoder's
 *                  thread stack
 * @param addCallchain give the recorded samples without a callchain one from the thread stack
 */
public record PtSynthOptions(boolean branches, int branchFilter, boolean instructions, PtDecoder.Period periodType,
                             long period, boolean periodNs, boolean transactions, boolean ptwrites,
                             boolean pwrEvents, boolean errors, boolean callchain, boolean addCallchain) {
    /** perf's default callchain length for synthesized samples. */
    public static final int CALLCHAIN_SIZE = 16;

    /** perf's default instruction period: 100000 ns. */
    public static final long DEFAULT_PERIOD_NS = 100_000;

    /** perf script's default: calls and errors, with power events (cbr, psb) and the rest on. */
    public static PtSynthOptions scriptDefault() {
        return new PtSynthOptions(true, CALLS, false, PtDecoder.Period.NONE, 0, false, true, true, true, true, false,
                false);
    }

    /**
     * perf report's default: instructions every 100us, no branches, the rest on, and callchains
     * from the thread stack for the synthesized samples and the recorded ones.
     */
    public static PtSynthOptions reportDefault() {
        return new PtSynthOptions(false, 0, true, PtDecoder.Period.TICKS, DEFAULT_PERIOD_NS, true, true, true, true, true,
                true, true);
    }

    /** These options with {@code period} (TSC ticks) for {@code periodNs}. */
    public PtSynthOptions inTicks(long ticks) {
        return new PtSynthOptions(branches, branchFilter, instructions, periodType, ticks, false, transactions, ptwrites,
                pwrEvents, errors, callchain, addCallchain);
    }

    private static final int CALLS = PtEvent.FLAG_CALL | PtEvent.FLAG_ASYNC | PtEvent.FLAG_TRACE_END;
    private static final int RETURNS = PtEvent.FLAG_RETURN | PtEvent.FLAG_TRACE_BEGIN;

    /**
     * perf's {@code --itrace} letters: {@code i[PERIOD]} instructions (PERIOD: a number and
     * {@code i}, {@code t}, {@code ms}, {@code us} or {@code ns}; default 100us), {@code b}
     * branches, {@code c} calls, {@code r} returns, {@code x} transactions, {@code w} ptwrites,
     * {@code p} power events, {@code o} other events, {@code e} errors.
     *
     * @throws IllegalArgumentException for a letter perfj does not implement, with the reason
     */
    public static PtSynthOptions parse(String s) {
        boolean branches = false;
        boolean instructions = false;
        boolean transactions = false;
        boolean ptwrites = false;
        boolean pwr = false;
        boolean errors = false;
        int filter = 0;
        boolean calls = false;
        boolean returns = false;
        PtDecoder.Period type = PtDecoder.Period.TICKS;
        long period = DEFAULT_PERIOD_NS;
        boolean ns = true;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i++);
            switch (c) {
                case 'i' -> {
                    instructions = true;
                    int start = i;
                    while (i < s.length() && Character.isDigit(s.charAt(i))) {
                        i++;
                    }
                    if (i > start) {
                        period = Long.parseLong(s.substring(start, i));
                        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == ',')) {
                            i++;
                        }
                        if (s.startsWith("ms", i) || s.startsWith("us", i) || s.startsWith("ns", i)) {
                            period *= s.charAt(i) == 'm' ? 1_000_000 : s.charAt(i) == 'u' ? 1000 : 1;
                            i += 2;
                        } else if (i < s.length() && s.charAt(i) == 'i') {
                            type = PtDecoder.Period.INSTRUCTIONS;
                            ns = false;
                            i++;
                        } else if (i < s.length() && s.charAt(i) == 't') {
                            ns = false;
                            i++;
                        }
                    }
                }
                case 'b' -> branches = true;
                case 'c' -> {
                    branches = true;
                    calls = true;
                }
                case 'r' -> {
                    branches = true;
                    returns = true;
                }
                case 'x' -> transactions = true;
                case 'w' -> ptwrites = true;
                case 'p' -> pwr = true;
                case 'o' -> {
                    // other events (PEBS via Intel PT, event trace): none of them are decoded
                }
                case 'e' -> {
                    errors = true;
                    if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                        throw new IllegalArgumentException("--itrace=" + s + ": error flags (e+FLAGS, e-FLAGS) are not supported");
                    }
                }
                case ' ', ',' -> {
                }
                case 'd' -> throw new IllegalArgumentException("--itrace=" + s + ": 'd' (the decoder's debug log) is not supported: perfj writes no intel_pt.log");
                case 'g', 'G' -> throw new IllegalArgumentException("--itrace=" + s + ": '" + c + "' (callchains from the decoded trace) is not supported yet");
                case 'l', 'L' -> throw new IllegalArgumentException("--itrace=" + s + ": '" + c + "' (branch stacks from the decoded trace) is not supported yet");
                default -> throw new IllegalArgumentException("--itrace=" + s + ": '" + c + "' is not supported (perfj has i, b, c, r, x, w, p, o, e)");
            }
        }
        if (calls) {
            filter |= CALLS;
        }
        if (returns) {
            filter |= RETURNS;
        }
        return new PtSynthOptions(branches, filter, instructions, instructions ? type : PtDecoder.Period.NONE,
                instructions ? period : 0, instructions && ns, transactions, ptwrites, pwr, errors, false, false);
    }
}
