package io.perfj.compat;

import io.perfj.annotate.AnnotateQuirks;
import io.perfj.report.ReportQuirks;
import io.perfj.session.Compat;
import io.perfj.session.Quirks;
import io.perfj.symbols.UserSymbolRules;
import io.perfj.unwind.UnwindMethod;

/**
 * perf 6.1's answers where the session and the layers below it differ from the correct ones:
 * its libunwind-based unwinding ({@link LibunwindEmulation}), its symbol tree
 * ({@link PerfSymbolTree}), its LBR call stacks ({@link PerfLbrCallchain}), and the views'
 * strategies ({@link #view}: annotate's, report's).
 */
public final class Perf61Quirks implements Quirks {
    public static final Perf61Quirks INSTANCE = new Perf61Quirks();

    /** The views' strategies, by the interface each view owns. */
    private static final java.util.Map<Class<?>, Object> VIEWS = java.util.Map.of(
            AnnotateQuirks.class, PerfAnnotateQuirks.INSTANCE,
            ReportQuirks.class, PerfReportQuirks.INSTANCE);

    private Perf61Quirks() {
    }

    /** The quirks of a compatibility mode. */
    public static Quirks of(Compat mode) {
        return mode.perf61() ? INSTANCE : Quirks.NONE;
    }

    @Override
    public Compat mode() {
        return Compat.PERF_6_1;
    }

    @Override
    public UnwindMethod unwinding() {
        return LibunwindEmulation.METHOD;
    }

    @Override
    public UserSymbolRules userSymbols() {
        return PerfSymbolTree.RULES;
    }

    @Override
    public Lbr lbr() {
        return PerfLbrCallchain.INSTANCE;
    }

    @Override
    public <T> T view(Class<T> kind) {
        Object q = VIEWS.get(kind);
        return q == null ? null : kind.cast(q);
    }
}
