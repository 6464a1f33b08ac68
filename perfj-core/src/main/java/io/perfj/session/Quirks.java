package io.perfj.session;

import io.perfj.io.Bytes;
import io.perfj.perfdata.record.Callchain;
import io.perfj.perfdata.record.Sample;
import io.perfj.symbols.UserSymbolRules;
import io.perfj.unwind.UnwindMethod;

/**
 * The answers a session gives where perf's differ from the correct ones: one strategy per
 * difference, owned by the layer it changes, implemented for perf 6.1 in {@code io.perfj.compat}
 * and chosen once, when the command opens the session ({@link SessionOptions}). {@link #NONE}
 * is perfj's own answers.
 */
public interface Quirks {
    /** perfj's own answers. */
    Quirks NONE = () -> Compat.NONE;

    /** The compatibility mode these strategies are (the views above the session choose theirs by it). */
    Compat mode();

    /** How copied user stacks are walked. */
    default UnwindMethod unwinding() {
        return UnwindMethod.CFI;
    }

    /** How a user object's symbols are collected and looked up. */
    default UserSymbolRules userSymbols() {
        return UserSymbolRules.PERFJ;
    }

    /** perf's LBR call-stack quirks; null: the branch stack as the hardware recorded it. */
    default Lbr lbr() {
        return null;
    }

    /**
     * The strategies of a view above the session (report's, annotate's...), by the interface
     * that view owns; null where the view gives its own answers.
     */
    default <T> T view(Class<T> kind) {
        return null;
    }

    /** Where perf builds LBR call stacks its own way ({@link ChainWalk}). */
    interface Lbr {
        /**
         * The privilege mode of each of the chain's entries up to {@code user} (its user-context
         * marker), walked from the caller end; null when perf gives up on the sample's chain.
         */
        int[] callerOrderModes(Callchain cc, int user);

        /** The address perf takes for an empty branch stack's caller (it reads past the stack in the file). */
        long emptyStackTo(Sample s, Bytes file);
    }
}
