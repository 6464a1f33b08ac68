/**
 * The profile in other tools' formats: folded stacks for FlameGraph ({@code FoldedStacks}, with
 * stackcollapse-perf.pl's naming in {@code FrameNames}), pprof ({@code PprofExport}, through the
 * protoc-generated {@code export.pprof} classes), speedscope ({@code SpeedscopeExport}), the
 * Firefox Profiler's processed format ({@code FirefoxExport}, {@code FirefoxTables}) and a
 * self-contained SVG flame graph ({@code FlameGraphSvg}).
 *
 * <p>Every export is a view of a {@code profile.Profile}; depends on {@code profile},
 * {@code report}'s frame and stack tables, {@code symbols} and {@code util}. Used by
 * {@code perfj export} and {@code perfj flamegraph}. Internal: not exported.
 */
package io.perfj.export;
