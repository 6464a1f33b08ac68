package io.perfj.report;

/** What a callchain branch shows (the value field of perf report's {@code -g}). */
public enum CallchainValue {
    /** Its share of the period, as a percentage (the default). */
    PERCENT,
    /** Its period. */
    PERIOD,
    /** Its number of samples. */
    COUNT
}
