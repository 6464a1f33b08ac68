package io.perfj.annotate;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Prints an {@link Annotation} in perf annotate's two text layouts: {@code --stdio2} (the
 * browser's layout: a percent column, offsets only where jumps land, arrows for jumps, calls and
 * returns, operands with symbol names) and {@code --stdio} (the classic layout: every address,
 * the listing's own instruction text, numbered text lines).
 */
public final class AnnotationPrinter {
    /** How to print: perf's options and browser toggles, in the layout of a perf version. */
    public record Options(PercentType percentType, boolean hideSource, boolean showAllOffsets, boolean showTotalPeriod,
                          boolean showNrSamples, boolean fullPaths, AnnotateLayout layout) {
        /** The full listing (perf 6.1's layout), local period. */
        public static Options defaults() {
            return new Options(PercentType.LOCAL_PERIOD, false, false, false, false, false, AnnotateLayout.PERF_6_1);
        }
    }

    private static final int OFFSET_JUMP_TARGETS = 1;
    private static final int OFFSET_MAX = 3;

    private AnnotationPrinter() {
    }

    /** The {@code --stdio2} body (after the title lines): one line per listing line. */
    public static void stdio2(Annotation a, Options o, StringBuilder out) {
        int events = a.events();
        AnnotateLayout layout = o.layout();
        int column = o.showTotalPeriod() ? 12 : layout.percentWidth();
        int pcntWidth = column * events;
        int offsetLevel = o.showAllOffsets() ? OFFSET_MAX : OFFSET_JUMP_TARGETS;
        boolean first = true;
        for (AnnotationLine al : a.lines()) {
            if (o.hideSource() && al.offset < 0) {
                continue;
            }
            double pmax = 0;
            for (int ev = 0; ev < events; ev++) {
                pmax = Math.max(pmax, al.percent(ev, o.percentType()));
            }
            boolean showTitle = first && (al.offset == -1 || pmax == 0.0);
            int lineStart = out.length();
            if (al.offset != -1 && pmax != 0.0) {
                for (int ev = 0; ev < events; ev++) {
                    if (o.showTotalPeriod()) {
                        out.append(padLeft(Long.toUnsignedString(al.period(ev)), 11)).append(' ');
                    } else if (o.showNrSamples()) {
                        out.append(padLeft(Long.toString(al.samples(ev)), column - 1)).append(' ');
                    } else {
                        out.append(padLeft(fixed(al.percent(ev, o.percentType()), 2), column - 1)).append(' ');
                    }
                }
            } else {
                String title = o.showTotalPeriod() ? "Period" : o.showNrSamples() ? "Samples" : "Percent";
                out.append(Instruction.pad(showTitle ? title : " ", pcntWidth));
            }
            out.append(' ');
            if (al.line.isEmpty()) {
                out.append(layout.emptyLine(pcntWidth));
            } else if (al.offset == -1) {
                String bf = " ".repeat(a.addrWidth) + "  ";
                out.append(bf);
                out.append(layout.textLine(al.line, pcntWidth, bf.length()));
            } else {
                String bf;
                boolean isCall = al.kind == Instruction.Kind.CALL;
                if (al.jumpSources > 0 || offsetLevel == OFFSET_MAX || (isCall && offsetLevel >= 2)) {
                    bf = padLeft(Long.toHexString(al.offset), a.targetWidth) + ": ";
                } else {
                    bf = " ".repeat(a.addrWidth) + "  ";
                }
                out.append(bf);
                out.append(graph(al));
                out.append(layout.instruction(Instruction.format(al, a.maxInsName, false), pcntWidth, bf.length()));
            }
            out.append('\n');
            first = false;
            assert out.length() > lineStart;
        }
    }

    /** The marker before an instruction: arrows for jumps (up or down), calls, returns. */
    private static String graph(AnnotationLine al) {
        switch (al.kind) {
            case JUMP -> {
                if (al.ops.outside) {
                    return "\u2192 ";
                }
                return al.ops.targetOffset > al.offset ? "\u2193 " : "\u2191 ";
            }
            case CALL -> {
                return "\u2192 ";
            }
            case RET -> {
                return "\u2190 ";
            }
            default -> {
                return "  ";
            }
        }
    }

    /**
     * The {@code --stdio} layout of one function: header, dashes, then every line.
     *
     * @param dsoName the DSO's long name (its base name is shown unless full paths are asked for)
     * @param event   the event name
     * @param paths   {@code --print-line}: the source lines of the hot instructions, by offset
     *                ({@link SourceSummary}); an instruction whose line is not the one named last
     *                ends with {@code // line}
     */
    public static void stdio(Annotation a, Options o, String dsoName, String event, java.util.Map<Long, String> paths,
                             StringBuilder out) {
        int events = a.events();
        int width = (o.showTotalPeriod() ? 12 : 8) * events;
        String shown = o.fullPaths() ? dsoName : baseName(dsoName);
        String col = o.showTotalPeriod() ? "Period" : o.showNrSamples() ? "Samples" : "Percent";
        String head = " " + padRight(col.length() > width ? col.substring(0, width) : col, width) + "|\tSource code & Disassembly of "
                + shown + " for " + event + " (" + a.symbolSamples() + " samples, percent: " + o.percentType().title() + ")";
        out.append(head).append('\n');
        int dotted = head.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 1;
        out.append("-".repeat(dotted)).append("----").append('\n');
        int addrFmt = 0;
        for (int i = a.lines().size() - 1; i >= 0; i--) {
            AnnotationLine al = a.lines().get(i);
            if (al.offset != -1) {
                addrFmt = Long.toHexString(a.start() + al.offset).length();
                break;
            }
        }
        String lastPath = null;
        for (AnnotationLine al : a.lines()) {
            if (al.offset != -1) {
                for (int ev = 0; ev < events; ev++) {
                    if (o.showTotalPeriod()) {
                        out.append(' ').append(padLeft(Long.toUnsignedString(al.period(ev)), 11));
                    } else if (o.showNrSamples()) {
                        out.append(' ').append(padLeft(Long.toString(al.samples(ev)), 7));
                    } else {
                        out.append(' ').append(padLeft(fixed(al.percent(ev, o.percentType()), 2), 7));
                    }
                }
                out.append(" : ");
                out.append("  ").append(padLeft(Long.toHexString(a.start() + al.offset), addrFmt)).append(':');
                out.append(al.line);
                String path = al.percent(0, o.percentType()) == 0.0 ? null : paths.get(al.offset);
                if (path != null && !path.equals(lastPath)) {
                    out.append(" // ").append(path);
                    lastPath = path;
                }
                out.append('\n');
            } else if (o.hideSource()) {
                continue;
            } else if (al.line.isEmpty()) {
                out.append(' ').append(" ".repeat(width)).append(":\n");
            } else {
                out.append(' ').append(" ".repeat(width)).append(": ")
                        .append(padRight(Integer.toString(al.lineNr), addrFmt)).append(' ').append(al.line).append('\n');
            }
        }
    }

    /**
     * One annotation as a JSON object: the symbol, its DSO and event, its samples and period, and
     * every line (text lines with {@code "offset": null}) with the instruction's samples, period
     * and percentage of the chosen type.
     */
    public static void json(Annotation a, Options o, String symbol, String dso, String event, StringBuilder out) {
        out.append("{\"symbol\":").append(io.perfj.io.Json.quote(symbol))
                .append(",\"dso\":").append(io.perfj.io.Json.quote(dso))
                .append(",\"event\":").append(io.perfj.io.Json.quote(event))
                .append(",\"start\":").append(Long.toUnsignedString(a.start()))
                .append(",\"size\":").append(a.size())
                .append(",\"samples\":").append(a.symbolSamples())
                .append(",\"period\":").append(Long.toUnsignedString(a.symbolPeriod()))
                .append(",\"percent_type\":").append(io.perfj.io.Json.quote(o.percentType().option()))
                .append(",\"lines\":[");
        boolean first = true;
        for (AnnotationLine al : a.lines()) {
            if (o.hideSource() && al.offset < 0) {
                continue;
            }
            out.append(first ? "\n  " : ",\n  ");
            first = false;
            if (al.offset < 0) {
                out.append("{\"offset\":null,\"text\":").append(io.perfj.io.Json.quote(al.line)).append('}');
            } else {
                out.append("{\"offset\":").append(al.offset)
                        .append(",\"text\":").append(io.perfj.io.Json.quote(Instruction.format(al, 0, false)))
                        .append(",\"samples\":").append(al.samples)
                        .append(",\"period\":").append(Long.toUnsignedString(al.period))
                        .append(",\"percent\":").append(fixed(al.percent(o.percentType()), 4))
                        .append('}');
            }
        }
        out.append("]}");
    }

    static String baseName(String path) {
        int s = path.lastIndexOf('/');
        return s < 0 ? path : path.substring(s + 1);
    }

    /** C's {@code %.Nf}: the double's exact value rounded half-even. */
    static String fixed(double v, int decimals) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.toString(v);
        }
        return new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }

    static String padLeft(String s, int w) {
        return io.perfj.io.TextOut.padLeft(s, w);
    }

    static String padRight(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }
}
