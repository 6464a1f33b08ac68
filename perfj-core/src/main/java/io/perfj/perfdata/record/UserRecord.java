package io.perfj.perfdata.record;

import io.perfj.io.Bytes;
import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.RawRecord;

import java.util.List;

/** Records perf itself writes (types 64..83; tools/lib/perf/include/perf/event.h). */
public sealed interface UserRecord extends PerfRecord
        permits UserRecord.HeaderAttr, UserRecord.EventType, UserRecord.TracingData, UserRecord.BuildId,
        UserRecord.FinishedRound, UserRecord.IdIndex, UserRecord.AuxtraceInfo, UserRecord.Auxtrace,
        UserRecord.AuxtraceError, UserRecord.ThreadMap, UserRecord.CpuMap, UserRecord.StatConfig,
        UserRecord.Stat, UserRecord.StatRound, UserRecord.EventUpdate, UserRecord.TimeConv,
        UserRecord.HeaderFeature, UserRecord.Compressed, UserRecord.FinishedInit, UserRecord.Compressed2 {

    /** PERF_RECORD_HEADER_ATTR (64): an event's attr and sample ids (pipe mode). */
    record HeaderAttr(RawRecord raw, EventAttr attr, long[] ids) implements UserRecord {
    }

    /** PERF_RECORD_HEADER_EVENT_TYPE (65, obsolete). */
    record EventType(RawRecord raw, long eventId, String name) implements UserRecord {
    }

    /** PERF_RECORD_HEADER_TRACING_DATA (66): {@code size} bytes of tracing data follow the record. */
    record TracingData(RawRecord raw, long dataSize) implements UserRecord {
    }

    /** PERF_RECORD_HEADER_BUILD_ID (67). */
    record BuildId(RawRecord raw, int pid, byte[] buildId, String filename) implements UserRecord {
    }

    /** PERF_RECORD_FINISHED_ROUND (68). */
    record FinishedRound(RawRecord raw) implements UserRecord {
    }

    /** PERF_RECORD_ID_INDEX (69). */
    record IdIndex(RawRecord raw, List<Entry> entries, boolean hasMachine) implements UserRecord {
        /** machinePid and vcpu are 0 unless the record carries the second entry table. */
        public record Entry(long id, long idx, long cpu, long tid, long machinePid, long vcpu) {
        }
    }

    /** PERF_RECORD_AUXTRACE_INFO (70). */
    record AuxtraceInfo(RawRecord raw, int auxType, Bytes priv) implements UserRecord {
    }

    /** PERF_RECORD_AUXTRACE (71): {@code auxSize} bytes of trace data follow the record. */
    record Auxtrace(RawRecord raw, long auxSize, long auxOffset, long reference, int idx, int tid, int cpu)
            implements UserRecord {
    }

    /** PERF_RECORD_AUXTRACE_ERROR (72). */
    record AuxtraceError(RawRecord raw, int errType, int code, int cpu, int pid, int tid, int fmt, long ip,
                         long time, String msg, int machinePid, int vcpu) implements UserRecord {
    }

    /** PERF_RECORD_THREAD_MAP (73). */
    record ThreadMap(RawRecord raw, List<Entry> entries) implements UserRecord {
        public record Entry(long pid, String comm) {
        }
    }

    /**
     * PERF_RECORD_CPU_MAP (74) in any of its encodings: a CPU list, a bitmap (4- or 8-byte
     * words) or a range. {@link #cpus()} is the decoded map (-1 stands for "any CPU").
     */
    record CpuMap(RawRecord raw, int encoding, int[] cpus) implements UserRecord {
        public static final int CPUS = 0;
        public static final int MASK = 1;
        public static final int RANGE_CPUS = 2;
    }

    /** PERF_RECORD_STAT_CONFIG (75): tag/value pairs. */
    record StatConfig(RawRecord raw, long[] tags, long[] values) implements UserRecord {
    }

    /** PERF_RECORD_STAT (76). */
    record Stat(RawRecord raw, long id, int cpu, int thread, long val, long ena, long run) implements UserRecord {
    }

    /** PERF_RECORD_STAT_ROUND (77). */
    record StatRound(RawRecord raw, long roundType, long time) implements UserRecord {
    }

    /**
     * PERF_RECORD_EVENT_UPDATE (78). Depending on {@code updateType}: {@code text} holds the unit
     * (0) or name (2), {@code scale} the scale (1), {@code cpus} the CPU map (3).
     */
    record EventUpdate(RawRecord raw, long updateType, long id, String text, double scale, int[] cpus)
            implements UserRecord {
        public static final int UNIT = 0;
        public static final int SCALE = 1;
        public static final int NAME = 2;
        public static final int CPUS = 3;
    }

    /** PERF_RECORD_TIME_CONV (79); the cycles fields exist only when {@code extended}. */
    record TimeConv(RawRecord raw, long timeShift, long timeMult, long timeZero, long timeCycles, long timeMask,
                    boolean capUserTimeZero, boolean capUserTimeShort, boolean extended) implements UserRecord {
    }

    /** PERF_RECORD_HEADER_FEATURE (80): one header feature section (pipe mode). */
    record HeaderFeature(RawRecord raw, long featureId, Bytes data) implements UserRecord {
    }

    /** PERF_RECORD_COMPRESSED (81): zstd data holding further records. */
    record Compressed(RawRecord raw, Bytes data) implements UserRecord {
    }

    /** PERF_RECORD_FINISHED_INIT (82). */
    record FinishedInit(RawRecord raw) implements UserRecord {
    }

    /** PERF_RECORD_COMPRESSED2 (83): like COMPRESSED with an explicit data size. */
    record Compressed2(RawRecord raw, long dataSize, Bytes data) implements UserRecord {
    }
}
