/**
 * The pipeline from a perf.data recording to resolved samples, shared by every perfj command.
 *
 * <ul>
 *   <li>{@link io.perfj.session.Session}: opens a recording (file or pipe), delivers its records
 *       in perf's order, keeps the process model current and resolves samples.</li>
 *   <li>{@link io.perfj.session.ResolvedSample}: one sample with its thread name and stack, innermost
 *       frame first, for {@link io.perfj.session.Session#forEachSample}.</li>
 *   <li>{@link io.perfj.session.RecordHandler} and {@link io.perfj.session.SampleRef}: the lower-level
 *       loop the commands use, where a sample's fixed fields are read in place and the rest is
 *       decoded or resolved only when asked.</li>
 *   <li>{@link io.perfj.session.SessionOptions} and {@link io.perfj.session.Compat}: where symbols come
 *       from, and whether perf 6.1's answers are reproduced where they are wrong.</li>
 *   <li>{@link io.perfj.session.ChainWalk}: a sample's callchain as perf walks it (context markers,
 *       {@code --max-stack}, DWARF-unwound user frames).</li>
 * </ul>
 */
package io.perfj.session;
