package io.perfj.annotate;

/** What an instruction's percentage is of: perf's {@code --percent-type}. */
public enum PercentType {
    LOCAL_HITS("local-hits", "local hits"),
    GLOBAL_HITS("global-hits", "global hits"),
    LOCAL_PERIOD("local-period", "local period"),
    GLOBAL_PERIOD("global-period", "global period");

    private final String option;
    private final String title;

    PercentType(String option, String title) {
        this.option = option;
        this.title = title;
    }

    /** As printed in the annotation's first line: {@code [percent: local period]}. */
    public String title() {
        return title;
    }

    public String option() {
        return option;
    }

    /** Parses perf's spellings: {@code local-period}, {@code period-local}, ... */
    public static PercentType parse(String s) {
        String[] parts = s.trim().split("-");
        if (parts.length == 2) {
            String a = parts[0];
            String b = parts[1];
            boolean local = a.equals("local") || b.equals("local");
            boolean global = a.equals("global") || b.equals("global");
            boolean hits = a.equals("hits") || b.equals("hits");
            boolean period = a.equals("period") || b.equals("period");
            if (local != global && hits != period) {
                return local ? (hits ? LOCAL_HITS : LOCAL_PERIOD) : (hits ? GLOBAL_HITS : GLOBAL_PERIOD);
            }
        }
        throw new IllegalArgumentException("invalid percent type '" + s
                + "' (expected local-period, global-period, local-hits or global-hits)");
    }
}
