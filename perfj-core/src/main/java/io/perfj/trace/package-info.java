/**
 * Tracepoint recordings: the tracing_data blob perf stores in the HEADER_TRACING_DATA feature
 * ({@link io.perfj.trace.TracingData}: ftrace header pages, event format files, printk formats,
 * saved cmdlines), the event format files themselves ({@link io.perfj.trace.EventFormat}), their
 * {@code print fmt:} lines parsed into expressions ({@link io.perfj.trace.PrintFormat}) and the
 * formatter that turns a sample's PERF_SAMPLE_RAW bytes into the text perf script prints
 * ({@link io.perfj.trace.TraceFormatter}), as perf 6.1's libtraceevent does.
 *
 * <p>Layout: linux {@code tools/perf/util/trace-event-info.c} (writer) and
 * {@code trace-event-read.c} (reader); format files: {@code Documentation/trace/events.rst}.
 */
package io.perfj.trace;
