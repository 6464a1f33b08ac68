/**
 * Everything that exists only to reproduce perf 6.1's answers, used under {@code --compat
 * perf-6.1} ({@link io.perfj.session.Compat#PERF_6_1}) and by the golden tests against perf.
 *
 * <p>perfj's default answers are the correct ones, computed the plain way (merging by key
 * equality, a documented total order for ties, unwinding by the call frame information). Where
 * perf 6.1 answers differently because of how it is built inside (the shape of its red-black
 * trees deciding which of two equal entries comes first or survives a merge, libunwind's
 * frame-pointer fallback, annotate dropping symbols), the code that mirrors that machinery lives
 * here, each class naming the perf or libunwind function it follows. The layers below own the
 * strategy interfaces ({@link io.perfj.session.Quirks}, {@link io.perfj.report.ReportQuirks},
 * {@link io.perfj.annotate.AnnotateQuirks}, ...); {@link io.perfj.compat.Perf61Quirks} implements
 * them and the command line picks it once, when it opens the session. No package of the library
 * imports this one.
 *
 * <p>Internal: the module does not export this package.
 */
package io.perfj.compat;
