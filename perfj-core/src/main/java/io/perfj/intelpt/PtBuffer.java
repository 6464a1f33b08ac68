package io.perfj.intelpt;

/**
 * One PERF_RECORD_AUXTRACE payload of Intel PT trace, as a decoder queue gets it: the bytes, the
 * TSC the record gives as reference for the upper byte of the first TSC packet, and where the
 * record is in the recording (named in the warnings about damaged trace).
 *
 * @param data the trace bytes
 * @param reference the record's {@code reference} field (a TSC value)
 * @param recordOffset the offset of the PERF_RECORD_AUXTRACE in the recording
 * @param cpu the CPU the trace was recorded on (-1: per-thread)
 * @param tid the thread the trace was recorded for (-1: per-CPU)
 */
public record PtBuffer(byte[] data, long reference, long recordOffset, int cpu, int tid) {
}
