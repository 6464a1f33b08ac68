package io.perfj.serve;

import io.perfj.annotate.Annotate;
import io.perfj.annotate.AnnotationPrinter;
import io.perfj.annotate.Disassembler;
import io.perfj.annotate.PercentType;
import io.perfj.bpf.KernelSymbols;
import io.perfj.perfdata.PerfData;
import io.perfj.session.Session;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A function's annotation as {@code perfj annotate --json} makes it (the same code: ELF
 * functions through objdump with DWARF source lines, BPF programs from their JIT image with BTF
 * line info), for the whole recording: the recording named at start is read again, for that
 * one symbol.
 */
final class AnnotateView {
    private AnnotateView() {
    }

    static void write(JsonOut out, Recording r, String symbol) {
        var print = new AnnotationPrinter.Options(PercentType.LOCAL_PERIOD, false, false, false, false, false);
        var request = new Disassembler.Request(true, true, false, null, null, null, null);
        var opts = new Annotate.Options(Set.of(symbol), Disassembler.named("objdump", null), request, print,
                false, false, null, KernelSymbols.empty(), true);
        StringBuilder json = new StringBuilder();
        List<String> warnings = new ArrayList<>();
        try (PerfData data = PerfData.open(r.path())) {
            Session session = Session.of(data, r.options());
            new Annotate(session, opts, warnings::add).run(json::append);
        }
        out.object();
        out.field("symbol", symbol);
        out.name("annotations").raw(json.toString().isBlank() ? "[]" : json.toString().strip());
        out.name("warnings").array();
        for (String w : warnings) {
            out.value(w);
        }
        out.endArray();
        out.endObject();
    }
}
