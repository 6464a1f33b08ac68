package io.perfj.compat;

import io.perfj.annotate.AnnotateQuirks;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Symbol;

import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * perf 6.1 annotate's deletion of symbols from its DSOs' tables: with symbol names asked for,
 * every other symbol a sample hits is removed from the DSO's symbol tree, so call and jump
 * targets inside those symbols go unresolved and keep objdump's name. Not on the branch-stack
 * path, which perf takes for --stdio2 when the recording has branch stacks.
 *
 * <p>Mirrors: {@code evsel__add_sample} (tools/perf/builtin-annotate.c, its
 * {@code symbol__delete} of a hit symbol not asked for) and the target lookup of
 * {@code call__parse} / {@code jump__parse} (tools/perf/util/annotate.c) that then misses them.
 */
public final class PerfAnnotateDeletions implements AnnotateQuirks.Deletions {
    private final Map<Dso, Set<Symbol>> deleted = new HashMap<>();
    private Symbol last;

    /**
     * Whether perf deletes hit symbols for this run.
     *
     * @param symbolsAsked  whether symbol names were given on the command line
     * @param stdio         whether the output is --stdio (not --stdio2)
     * @param branchStacks  whether the recording has branch stacks
     */
    public static boolean applies(boolean symbolsAsked, boolean stdio, boolean branchStacks) {
        return symbolsAsked && (stdio || !branchStacks);
    }

    /** A sample hit {@code sym} in {@code dso}, a symbol not asked for: perf deletes it. */
    @Override
    public void hit(Dso dso, Symbol sym) {
        if (sym == null || sym == last) {
            return;
        }
        deleted.computeIfAbsent(dso, k -> Collections.newSetFromMap(new IdentityHashMap<>())).add(sym);
        last = sym;
    }

    /** Whether {@code sym} of {@code dso} was deleted (call and jump targets in it go unnamed). */
    @Override
    public boolean deleted(Dso dso, Symbol sym) {
        return deleted.getOrDefault(dso, Set.of()).contains(sym);
    }
}
