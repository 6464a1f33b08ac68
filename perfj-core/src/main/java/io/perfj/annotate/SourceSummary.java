package io.perfj.annotate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * annotate's {@code --print-line}: the source lines of a function's hot instructions (those above
 * half a percent) with their summed percentages, largest first (equal ones by name), printed
 * before the function's listing; in {@code --stdio} each such instruction also ends with
 * {@code // file:line} when its line is not the one named last.
 *
 * @param paths the source line of each instruction above half a percent, by offset
 * @param text  the summary block
 */
public record SourceSummary(Map<Long, String> paths, String text) {
    /** perf's threshold (its MIN_GREEN): lines at or below it are left out. */
    private static final double MIN_PERCENT = 0.5;

    /**
     * The summary of an annotated function.
     *
     * @param srcline the source line of the instruction at an offset into the function
     * @param file    the object's name in the block's title
     */
    public static SourceSummary of(Annotation a, PercentType type, LongFunction<String> srcline, String file) {
        Map<Long, String> paths = new HashMap<>();
        Map<String, Double> sums = new TreeMap<>();
        for (AnnotationLine al : a.lines()) {
            if (al.offset < 0) {
                continue;
            }
            double p = al.percent(type);
            if (p <= MIN_PERCENT) {
                continue;
            }
            String path = srcline.apply(al.offset);
            paths.put(al.offset, path);
            sums.merge(path, p, Double::sum);
        }
        List<Map.Entry<String, Double>> order = new ArrayList<>(sums.entrySet());
        // stable: equal sums keep the names' order
        order.sort((x, y) -> Double.compare(y.getValue(), x.getValue()));
        StringBuilder sb = new StringBuilder("\nSorted summary for file ").append(file).append('\n')
                .append("-".repeat(46)).append("\n\n");
        if (order.isEmpty()) {
            sb.append(" Nothing higher than ").append(AnnotationPrinter.fixed(MIN_PERCENT, 1)).append("%\n");
        }
        for (Map.Entry<String, Double> e : order) {
            sb.append(' ').append(AnnotationPrinter.padLeft(AnnotationPrinter.fixed(e.getValue(), 2), 7))
                    .append(' ').append(e.getKey()).append('\n');
        }
        return new SourceSummary(paths, sb.toString());
    }
}
