/**
 * perf.data records decoded ({@code include/uapi/linux/perf_event.h}, {@code tools/perf/util/event.h}):
 * {@link io.perfj.perfdata.record.PerfRecord} is a sealed family of kernel records
 * ({@link io.perfj.perfdata.record.KernelRecord}: MMAP, COMM, FORK, ...), perf's own records
 * ({@link io.perfj.perfdata.record.UserRecord}) and {@link io.perfj.perfdata.record.Sample}, which
 * carries every field a {@code sample_type} can select; anything unknown stays raw.
 * {@link io.perfj.perfdata.record.RecordDecoder} is the one decoder, driven by each event's
 * {@code sample_type}, {@code read_format} and {@code sample_id_all}.
 */
package io.perfj.perfdata.record;
