package io.perfj.compat;

/**
 * What perf 6.1 does with a sample that fails report's filters ({@code --comms}, {@code --dsos},
 * {@code --symbols}, {@code --pid}, {@code --tid}, {@code -C}, {@code -x}) when it accumulates
 * callers ({@code --children}): it adds the sample like any other, and the entries the sample
 * creates (its own and its callers') are marked filtered, so they are hidden; an entry a passing
 * sample created first stays shown and counts the failing samples that reach it too. Which
 * callers a report shows thus depends on the order of the samples. perf 7.2 leaves such a
 * sample out, as without --children: a shown caller counts the samples that passed.
 */
public final class PerfFilteredChildren {
    private PerfFilteredChildren() {
    }

    /** Whether a sample that fails the filters is added (its new entries hidden): with --children. */
    public static boolean addsFailingSamples(boolean children) {
        return children;
    }
}
