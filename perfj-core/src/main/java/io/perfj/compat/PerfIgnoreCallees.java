package io.perfj.compat;

/**
 * Which callchain frames perf's {@code --ignore-callees} looks at: only those
 * {@code add_callchain_ip} adds (machine.c: the recorded callchain, the kernel part of a
 * {@code --call-graph dwarf} sample), not the user frames DWARF unwinding appends
 * ({@code unwind_entry}), so a function found only by unwinding never matches.
 */
public final class PerfIgnoreCallees {
    private PerfIgnoreCallees() {
    }

    /** Whether perf tests a frame: {@code unwound}, whether DWARF unwinding found it. */
    public static boolean tests(boolean unwound) {
        return !unwound;
    }
}
