package io.perfj.perfdata.record;

import io.perfj.io.Bytes;

/**
 * PERF_SAMPLE_STACK_USER: the copied stack ({@code size} bytes, of which {@code dynSize} are
 * valid). {@code offset} is where the size word sits in the record (header included), which
 * perf prints in its dump.
 */
public record UserStack(long size, Bytes data, long dynSize, int offset) {
}
