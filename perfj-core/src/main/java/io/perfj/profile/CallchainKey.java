package io.perfj.profile;

/** What tells callchain nodes apart (the key field of perf report's {@code -g}). */
public enum CallchainKey {
    /** The function: addresses of one symbol make one node (the default). */
    FUNCTION,
    /** The address: each address a node of its own, printed with its source line. */
    ADDRESS,
    /** The source line: addresses of one {@code file:line} make one node, printed with it. */
    SRCLINE
}
