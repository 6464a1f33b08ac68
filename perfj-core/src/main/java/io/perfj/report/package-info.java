/**
 * {@code perfj report} and {@code perfj script}: samples aggregated into perf's hist entries and
 * printed in its layouts. {@code Report} (a {@code RecordHandler}) interns frames and stacks
 * ({@code FrameTable}, {@code StackTable}) and merges identical samples ({@code AggTable});
 * {@code Hists} builds the entries (self and children, callchain trees) in a total order, or
 * through {@code compat}'s replays of perf's trees; {@code StdioReport}, {@code CallchainGraph}
 * and {@code JsonReport} print them. {@code ScriptPrinter} prints every sample; branch mode,
 * tracepoint keys, filters and view options live here too.
 *
 * <p>Depends on {@code session}, {@code symbols}, {@code perfdata}, {@code trace}, {@code print},
 * {@code annotate} (source files for srccode), {@code bpf} and {@code compat}. Used by the command line,
 * {@code profile}, {@code export}, {@code top}, the browser UI and perfj-fleet. Internal: not
 * exported.
 */
package io.perfj.report;
