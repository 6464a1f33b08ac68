package io.perfj.report;

import java.util.Set;

/**
 * What {@code perf script} is asked for beyond the fields.
 *
 * @param fields        {@code -F}: the fields, or null for perf's defaults
 * @param add           {@code -F +field}: fields added to the defaults (empty: none)
 * @param remove        {@code -F -field}: fields taken from them (empty: none)
 * @param maxStack      callchain frames to print at most
 * @param select        the samples printed at all ({@code -C}, {@code --time})
 * @param filter        {@code --comms}, {@code --pid}, {@code --tid}, {@code -S}: the samples of
 *                      other threads or symbols are not printed
 * @param nanoseconds   {@code --ns}: times with nine decimals
 * @param relativeTime  {@code --reltime}: times since the first printed sample
 * @param hideCallGraph {@code -G}: no callchains, one line per sample
 * @param noInline      {@code --no-inline}: no frames of functions inlined at an address
 */
public record ScriptOptions(Set<ScriptPrinter.Field> fields, Set<ScriptPrinter.Field> add,
                            Set<ScriptPrinter.Field> remove, int maxStack, SampleSelection select,
                            SampleFilter filter, boolean nanoseconds, boolean relativeTime, boolean hideCallGraph,
                            boolean noInline) {
    /** perf script's defaults with {@code fields} (null: the default fields). */
    public static ScriptOptions of(Set<ScriptPrinter.Field> fields, int maxStack) {
        return new ScriptOptions(fields, Set.of(), Set.of(), maxStack, SampleSelection.ALL, SampleFilter.ALL,
                false, false, false, false);
    }
}
