/**
 * The perf.data file format ({@code tools/perf/Documentation/perf.data-file-format.txt}): the
 * file header, event attributes and their id lists, the feature sections, and the record
 * stream of file and pipe mode.
 *
 * <ul>
 *   <li>{@link io.perfj.perfdata.PerfData}: a recording, mapped from a file (never written) or
 *       read from a pipe; its {@link io.perfj.perfdata.Evlist} of events and raw feature sections.</li>
 *   <li>{@link io.perfj.perfdata.RecordInput} and {@link io.perfj.perfdata.RawRecord}: records as
 *       views into the file, in file order ({@link io.perfj.perfdata.PerfData#records()}) or in
 *       perf's delivery order ({@link io.perfj.perfdata.PerfData#orderedRecords()}: time-sorted within
 *       FINISHED_ROUND windows, as {@code ordered-events.c}); compressed records unpacked.</li>
 *   <li>{@link io.perfj.perfdata.RecordScan}: the same delivery order over a mapped file without
 *       an object per sample, for consumers that read only a sample's fixed fields.</li>
 *   <li>{@link io.perfj.perfdata.EventAttr}, {@link io.perfj.perfdata.SampleFormat},
 *       {@link io.perfj.perfdata.RecordType}, {@link io.perfj.perfdata.FeatureId}: the wire constants
 *       and {@code perf_event_attr}.</li>
 * </ul>
 * Decoded records are in {@code io.perfj.perfdata.record}, decoded features in
 * {@code io.perfj.perfdata.feature}.
 */
package io.perfj.perfdata;
