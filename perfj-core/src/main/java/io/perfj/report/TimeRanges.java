package io.perfj.report;

import java.util.ArrayList;
import java.util.List;

/**
 * perf's {@code --time} window: one or more ranges of sample timestamps (ns), both ends
 * inclusive, an end of 0 meaning "to the end of the recording". Parsed from perf 6.1's syntax:
 * {@code start,stop} in seconds with up to nine decimals (either side may be empty), several
 * such ranges separated by spaces, or percentages of the time between the first and last
 * sample: {@code a%/n} (the n-th slice of a%) and {@code a%-b%}, several separated by commas.
 */
public final class TimeRanges {
    private final long[] starts;
    private final long[] ends;
    private String text = "";

    private TimeRanges(long[] starts, long[] ends) {
        this.starts = starts;
        this.ends = ends;
    }

    /** The text it was parsed from (perf repeats it after the sample count). */
    public String text() {
        return text;
    }

    /** How many ranges there are. */
    public int size() {
        return starts.length;
    }

    /** Range {@code i}'s first timestamp (0: from the beginning). */
    public long start(int i) {
        return starts[i];
    }

    /** Range {@code i}'s last timestamp (0: to the end). */
    public long end(int i) {
        return ends[i];
    }

    /**
     * Whether a sample at {@code time} is in the window. As perf, a sample without a timestamp
     * (0) is kept when there are several ranges, and judged like any other when there is one.
     */
    public boolean keeps(long time) {
        if (starts.length == 1) {
            return !(starts[0] != 0 && Long.compareUnsigned(time, starts[0]) < 0
                    || ends[0] != 0 && Long.compareUnsigned(time, ends[0]) > 0);
        }
        if (time == 0) {
            return true;
        }
        for (int i = 0; i < starts.length; i++) {
            if (Long.compareUnsigned(time, starts[i]) >= 0 && (ends[i] == 0 || Long.compareUnsigned(time, ends[i]) <= 0)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Parses {@code spec}; {@code first} and {@code last} are the recording's first and last
     * sample times, which percentages are taken of.
     *
     * @throws IllegalArgumentException with perf's words when the text is not a time window
     */
    public static TimeRanges parse(String spec, long first, long last) {
        TimeRanges t = parseRanges(spec, first, last);
        t.text = spec;
        return t;
    }

    private static TimeRanges parseRanges(String spec, long first, long last) {
        String s = spec.trim();
        if (s.contains("%")) {
            return percent(s, first, last);
        }
        List<long[]> out = new ArrayList<>();
        for (String part : s.split("\\s+")) {
            if (part.isEmpty()) {
                continue;
            }
            int comma = part.indexOf(',');
            if (comma < 0 || part.indexOf(',', comma + 1) >= 0) {
                throw invalid(spec);
            }
            long a = seconds(part.substring(0, comma), spec);
            long b = seconds(part.substring(comma + 1), spec);
            if (a != 0 && b != 0 && Long.compareUnsigned(a, b) > 0) {
                throw invalid(spec);
            }
            out.add(new long[] {a, b});
        }
        if (out.isEmpty()) {
            throw invalid(spec);
        }
        return of(out);
    }

    private static TimeRanges percent(String s, long first, long last) {
        if (first == 0 && last == 0) {
            throw new IllegalArgumentException("no first/last sample time in the recording for a percent --time");
        }
        List<long[]> out = new ArrayList<>();
        for (String part : s.split(",")) {
            String p = part.trim();
            double from;
            double to;
            int slash = p.indexOf('/');
            int dash = p.indexOf('-');
            if (slash > 0) {
                double size = pct(p.substring(0, slash), s);
                int n = count(p.substring(slash + 1), s);
                from = size * (n - 1);
                to = size * n;
            } else if (dash > 0) {
                from = pct(p.substring(0, dash), s);
                to = pct(p.substring(dash + 1), s);
            } else {
                throw invalid(s);
            }
            if (from < 0 || from > 1 || to < 0 || to > 1 || from > to) {
                throw invalid(s);
            }
            long total = last - first;
            long a = first + Math.round(from * total);
            long b = first + Math.round(to * total);
            // adjacent slices share no timestamp: each but the one reaching 100% stops 1 ns short
            if (b > a && to != 1.0) {
                b--;
            }
            if (!out.isEmpty() && Long.compareUnsigned(out.getLast()[1], a) >= 0) {
                throw invalid(s);
            }
            out.add(new long[] {a, b});
        }
        return of(out);
    }

    private static TimeRanges of(List<long[]> ranges) {
        long[] a = new long[ranges.size()];
        long[] b = new long[ranges.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = ranges.get(i)[0];
            b[i] = ranges.get(i)[1];
        }
        return new TimeRanges(a, b);
    }

    private static double pct(String t, String spec) {
        String v = t.trim();
        if (!v.endsWith("%")) {
            throw invalid(spec);
        }
        try {
            return Double.parseDouble(v.substring(0, v.length() - 1)) / 100.0;
        } catch (NumberFormatException e) {
            throw invalid(spec);
        }
    }

    private static int count(String t, String spec) {
        try {
            int n = Integer.parseInt(t.trim());
            if (n < 1) {
                throw invalid(spec);
            }
            return n;
        } catch (NumberFormatException e) {
            throw invalid(spec);
        }
    }

    /** "sec[.frac]" as nanoseconds (fractions of up to nine digits); empty is 0. */
    static long seconds(String t, String spec) {
        String v = t.trim();
        if (v.isEmpty()) {
            return 0;
        }
        int dot = v.indexOf('.');
        String sec = dot < 0 ? v : v.substring(0, dot);
        String frac = dot < 0 ? "" : v.substring(dot + 1);
        if (sec.isEmpty() || frac.length() > 9 || !sec.chars().allMatch(Character::isDigit)
                || !frac.chars().allMatch(Character::isDigit)) {
            throw invalid(spec);
        }
        long ns = frac.isEmpty() ? 0 : Long.parseLong((frac + "000000000").substring(0, 9));
        try {
            return Math.addExact(Math.multiplyExact(Long.parseLong(sec), 1_000_000_000L), ns);
        } catch (ArithmeticException | NumberFormatException e) {
            throw invalid(spec);
        }
    }

    private static IllegalArgumentException invalid(String spec) {
        return new IllegalArgumentException("Invalid time string: '" + spec + "'");
    }
}
