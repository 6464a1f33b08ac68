package io.perfj.serve;

import io.perfj.annotate.SourceLocator;
import io.perfj.profile.Frame;

/**
 * One function's source position for the hover details: where its first instruction comes
 * from (DWARF line table or BPF line info), or why that is not known.
 */
final class SourceView {
    private SourceView() {
    }

    static void write(JsonOut out, Recording r, int fn) {
        Frame f = r.frameOf(fn);
        if (f == null && r.function(fn) == null) {
            throw new BadRequest("fn: no such function");
        }
        SourceLocator.Answer a = f == null ? new SourceLocator.Answer(null, "no frame")
                : r.sources().find(f.dso(), f.sym());
        out.object();
        out.field("fn", fn);
        SourceLocator.Place p = a.place();
        if (p != null) {
            out.field("file", p.file());
            out.field("line", p.line());
            out.field("column", p.column());
            out.field("from", p.from());
        } else {
            out.name("file").value((String) null);
            out.field("reason", a.reason());
        }
        out.endObject();
    }
}
