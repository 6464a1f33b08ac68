package io.perfj.profile;

import io.perfj.symbols.Demangling;

import java.util.Set;

/**
 * Which samples to keep, by perf report's filter options: the sample's command ({@code --comms}),
 * process and thread ({@code --pid}, {@code --tid}), CPU ({@code --cpu}), and the object
 * ({@code --dsos}, short or long name) and symbol ({@code --symbols}) the sample landed in. A
 * null set does not filter. {@code names} is how the session names symbols, which says what
 * names a symbol answers to ({@link Demangling#isAsked}).
 */
public record SampleFilter(Set<String> comms, Set<String> dsos, Set<String> symbols, Set<Integer> pids,
                           Set<Integer> tids, Set<Integer> cpus, Demangling names) {
    /** Keeps every sample. */
    public static final SampleFilter ALL = new SampleFilter(null, null, null, null, null, null);

    /** For a session naming symbols the default way ({@link Demangling#CURRENT}). */
    public SampleFilter(Set<String> comms, Set<String> dsos, Set<String> symbols, Set<Integer> pids,
                        Set<Integer> tids, Set<Integer> cpus) {
        this(comms, dsos, symbols, pids, tids, cpus, Demangling.CURRENT);
    }

    /** The same filter for a session that names symbols as {@code n} says. */
    public SampleFilter withNames(Demangling n) {
        return n == names ? this : new SampleFilter(comms, dsos, symbols, pids, tids, cpus, n);
    }

    /** Whether any filter is set. */
    public boolean filters() {
        return comms != null || dsos != null || symbols != null || pids != null || tids != null || cpus != null;
    }

    /** Whether a sample of this thread and CPU whose own frame is {@code leaf} (null: none) passes. */
    public boolean accepts(String comm, int pid, int tid, int cpu, Frame leaf) {
        if (comms != null && !comms.contains(comm)
                || pids != null && !pids.contains(pid)
                || tids != null && !tids.contains(tid)
                || cpus != null && !cpus.contains(cpu)) {
            return false;
        }
        return accepts(leaf);
    }

    /** The {@code --dsos} and {@code --symbols} filters on one frame (null: a sample without one). */
    public boolean accepts(Frame f) {
        if (f == null) {
            return dsos == null && symbols == null;
        }
        if (dsos != null && !(dsos.contains(f.dsoName()) || f.dso() != null && dsos.contains(f.dso().longName()))) {
            return false;
        }
        return symbols == null || f.sym() != null && names.isAsked(symbols, f.sym().name());
    }
}
