package io.perfj.perfdata.record;

import io.perfj.perfdata.RawRecord;

/**
 * A decoded perf.data record: one implementation per {@code PERF_RECORD_*} type (the kernel's
 * 1..22 and perf's own 64..83), or {@link Unknown}. Every record keeps its {@link RawRecord}, so
 * the original bytes, file offset and header fields stay available. Produced by
 * {@link RecordDecoder#decode}.
 */
public sealed interface PerfRecord permits KernelRecord, UserRecord, Unknown {
    RawRecord raw();

    default long offset() {
        return raw().offset();
    }

    default int type() {
        return raw().type();
    }

    default int misc() {
        return raw().misc();
    }

    default int size() {
        return raw().size();
    }
}
