package io.perfj.report;

/** perf's {@code -g} print modes. */
public enum CallchainMode {
    NONE, GRAPH, FLAT, FRACTAL, FOLDED
}
