package io.perfj.annotate;

import io.perfj.session.Session;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Symbol;

import java.util.List;

/**
 * Where {@link Annotate}'s answers differ from perf 6.1's: the strategies {@code io.perfj.compat}
 * implements, found through the session's {@link io.perfj.session.Quirks#view}. {@link #NONE}
 * is perfj's own answers.
 */
public interface AnnotateQuirks {
    /** perfj's own answers. */
    AnnotateQuirks NONE = new AnnotateQuirks() {
    };

    /** The strategies of the session's compatibility mode. */
    static AnnotateQuirks of(Session session) {
        AnnotateQuirks q = session.quirks().view(AnnotateQuirks.class);
        return q == null ? NONE : q;
    }

    /**
     * The symbols this run deletes from their tables as samples hit them (perf 6.1 does, and
     * then cannot name call targets in them); null when none are.
     *
     * @param symbolsAsked whether symbol names were given on the command line
     * @param stdio        whether the output is --stdio (not --stdio2)
     * @param branchStacks whether the recording has branch stacks
     */
    default Deletions deletions(boolean symbolsAsked, boolean stdio, boolean branchStacks) {
        return null;
    }

    /** Symbols deleted from their tables by samples that hit them. */
    interface Deletions {
        /** A sample hit {@code sym} (null: no symbol) in {@code dso}, a symbol not asked for. */
        void hit(Dso dso, Symbol sym);

        /** Whether {@code sym} of {@code dso} was deleted. */
        boolean deleted(Dso dso, Symbol sym);
    }

    /**
     * Samples and period in the title of the group {@code leader} leads, from each event's
     * {@code {samples, period}} in {@code totals}: the sums over the group.
     */
    default long[] groupTotal(List<long[]> totals, int leader, List<Integer> members) {
        long[] t = totals.get(leader).clone();
        for (int m : members) {
            t[0] += totals.get(m)[0];
            t[1] += totals.get(m)[1];
        }
        return t;
    }

    /** The annotation's percentages as shown (unchanged). */
    default Annotation shown(Annotation a) {
        return a;
    }
}
