package io.perfj.serve;

import io.perfj.annotate.Annotate;
import io.perfj.annotate.AnnotationPrinter;
import io.perfj.annotate.BpfSource;
import io.perfj.annotate.Disassembler;
import io.perfj.bpf.KernelSymbols;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.BpfProg;
import io.perfj.profile.Frame;
import io.perfj.session.Session;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.SymbolOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A function's annotation as {@code perfj annotate --json} makes it (the same code: ELF
 * functions through objdump with DWARF source lines, BPF programs from their JIT image with BTF
 * line info, or as eBPF bytecode with {@code --bpf-view xlated}), for the whole recording: the
 * recording named at start is read again, for that one symbol (a live profile's symbol is
 * annotated from its per-address sums instead, see {@link Recording#live(long, Recording.LiveAnnotations)}). The answer also says whether the
 * function is a BPF program and whether its bytecode can be shown (recorded, or given at start).
 */
final class AnnotateView {
    private AnnotateView() {
    }

    static void write(JsonOut out, Recording r, int fn, String symbol, boolean xlated) {
        Frame frame = r.frameOf(fn);
        boolean bpf = frame != null && frame.dso() != null && frame.dso().kind() == DsoKind.BPF;
        var print = AnnotationPrinter.Options.defaults();
        var request = new Disassembler.Request(true, true, false, null, null, null, null);
        var opts = new Annotate.Options(Set.of(symbol), Disassembler.named("objdump", null), request, print,
                false, xlated && bpf, r.xlatedInsns(), xlated && bpf ? kernelSymbols(r.options().symbols())
                : KernelSymbols.empty(), true);
        StringBuilder json = new StringBuilder();
        List<String> warnings = new ArrayList<>();
        if (r.liveAnnotations() != null) {
            r.liveAnnotations().annotate(frame, opts, warnings::add, json::append);
        } else {
            try (PerfData data = PerfData.open(r.path()); Session session = Session.of(data, r.options())) {
                new Annotate(session, opts, warnings::add).run(json::append);
            }
        }
        out.object();
        out.field("symbol", symbol);
        out.field("bpf", bpf);
        out.field("view", xlated && bpf ? "xlated" : "jited");
        out.field("xlated", bpf && hasXlated(r, frame.sym() == null ? 0 : frame.sym().start()));
        out.name("annotations").raw(json.toString().isBlank() ? "[]" : json.toString().strip());
        out.name("warnings").array();
        for (String w : warnings) {
            out.value(w);
        }
        out.endArray();
        out.endObject();
    }

    /** Whether the bytecode of the program at {@code addr} is recorded or was given at start (its size matches). */
    private static boolean hasXlated(Recording r, long addr) {
        for (BpfProg p : r.bpf().programs()) {
            if (BpfSource.subprogram(p, addr) >= 0) {
                boolean recorded = p.hasArray(BpfProg.XLATED_INSNS) && p.xlatedInsns().length > 0;
                byte[] given = r.xlatedInsns();
                return recorded || given != null && given.length == p.info().xlatedProgLen();
            }
        }
        return false;
    }

    /** Helper names for the bytecode: from the kallsyms given at start, else this machine's when allowed. */
    private static KernelSymbols kernelSymbols(SymbolOptions s) {
        Path k = s.kallsyms() != null ? s.kallsyms() : s.useSystem() ? Path.of("/proc/kallsyms") : null;
        try {
            return k != null && Files.isReadable(k) ? KernelSymbols.readKallsyms(k) : KernelSymbols.empty();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
