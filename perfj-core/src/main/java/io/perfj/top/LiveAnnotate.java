package io.perfj.top;

import io.perfj.annotate.Annotate;
import io.perfj.annotate.AnnotationPrinter;
import io.perfj.annotate.Disassembler;
import io.perfj.bpf.KernelSymbols;
import io.perfj.profile.Frame;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A live row's annotation: the {@link LiveProfile}'s per-address sums of the row's symbol through
 * {@link Annotate} (the one annotator: the same disassembly, source lines and percentages as
 * {@code perfj annotate} prints for a recording of the same samples).
 */
public final class LiveAnnotate {
    private LiveAnnotate() {
    }

    /**
     * {@code perfj annotate --stdio --compat perf-6.1 SYMBOL}'s options (objdump with its line
     * markers, source lines, local period).
     */
    public static Annotate.Options stdio(String symbol) {
        return options(symbol, true, false);
    }

    /** The options of {@code perfj annotate SYMBOL}: {@code --stdio} or {@code --json}, else {@code --stdio2}. */
    public static Annotate.Options options(String symbol, boolean stdio, boolean json) {
        return new Annotate.Options(Set.of(symbol), Disassembler.named("objdump", null),
                new Disassembler.Request(true, true, false, null, null, null, null), AnnotationPrinter.Options.defaults(),
                stdio, false, null, KernelSymbols.empty(), json);
    }

    /**
     * Prints the annotation of {@code frame}'s symbol from the sums so far; whether it was printed
     * (when not, {@code warn} heard why: no symbol, no object, no samples, no code on disk).
     */
    public static boolean print(LiveProfile p, Frame frame, Annotate.Options o, Consumer<String> warn,
                                Annotate.StringBuilderSink out) {
        String why = unannotatable(frame);
        if (why != null) {
            warn.accept(why);
            return false;
        }
        SymbolAddresses.Copy c = p.addresses(frame.dso(), frame.sym());
        if (c == null) {
            warn.accept("no samples in " + frame.symName() + " yet");
            return false;
        }
        if (c.dropped() > 0) {
            warn.accept(c.dropped() + " samples in " + frame.symName() + " not shown: their addresses came after the"
                    + " profile's " + SymbolAddresses.CAP + " addresses");
        }
        return new Annotate(p.session(), o, warn).printSums(frame.dso(), frame.sym(), c.absStart(), c.offsets(),
                c.samples(), c.periods(), out);
    }

    /** Why a row's frame cannot be annotated, or null when it can be. */
    private static String unannotatable(Frame f) {
        if (f == null) {
            return "the rows are not by symbol: no symbol to annotate (sort by sym)";
        }
        if (f.dso() == null) {
            return "no object file: the address " + f.symName() + " is in no map";
        }
        if (f.sym() == null) {
            return "no symbol: " + f.symName() + " in " + f.dsoName() + " is covered by no symbol";
        }
        return null;
    }

    /**
     * The lines of top's annotate page for {@code row}: {@code perfj annotate --stdio}'s lines for
     * its symbol, after any warning; or the one line saying why there is none.
     */
    public static List<String> page(LiveProfile p, LiveProfile.Row row) {
        List<String> warnings = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        Frame f = row.frame();
        boolean printed = print(p, f, stdio(f == null || f.sym() == null ? "" : f.sym().name()), warnings::add,
                text::append);
        List<String> out = new ArrayList<>(warnings);
        if (printed) {
            out.addAll(text.toString().lines().toList());
        } else if (out.isEmpty()) {
            out.add("nothing to annotate");
        }
        return out;
    }
}
