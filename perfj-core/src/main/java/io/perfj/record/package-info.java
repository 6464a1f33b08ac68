/**
 * {@code perfj record}: perf_event_open(2) and the ring buffers through the FFM API
 * ({@code Sys}, the one place that calls C; {@code RingBuffer}), the workload started stopped
 * before its exec ({@code Workload}), the records perf synthesizes for what existed before
 * ({@code Synthesizer}), BPF programs' info ({@code BpfPrograms}) and the file or pipe written in
 * perf's format ({@code PerfDataWriter}, {@code PipeWriter}, the header features by
 * {@code HostFeatures} and {@code SampledObjects}'s build-ids). {@code Recorder} drives them.
 *
 * <p>Depends on {@code perfdata} (the format and its feature encoder), {@code elf}, {@code bpf},
 * {@code symbols} and {@code session}. Used by {@code perfj record} and {@code perfj top} (which
 * reads the pipe it writes). Internal: not exported.
 */
package io.perfj.record;
