package io.perfj.perfdata.record;

import io.perfj.io.Bytes;
import io.perfj.perfdata.RawRecord;

/**
 * Records the kernel writes (types 1..22; include/uapi/linux/perf_event.h). All but
 * {@link Sample} end with the {@code sample_id_all} trailer when the event has
 * {@code attr.sample_id_all}; it is decoded into {@link #sampleId()}.
 */
public sealed interface KernelRecord extends PerfRecord
        permits KernelRecord.Mmap, KernelRecord.Lost, KernelRecord.Comm, KernelRecord.Exit,
        KernelRecord.Throttle, KernelRecord.Unthrottle, KernelRecord.Fork, KernelRecord.Read, Sample,
        KernelRecord.Mmap2, KernelRecord.Aux, KernelRecord.ItraceStart, KernelRecord.LostSamples,
        KernelRecord.Switch, KernelRecord.SwitchCpuWide, KernelRecord.Namespaces, KernelRecord.Ksymbol,
        KernelRecord.BpfEvent, KernelRecord.Cgroup, KernelRecord.TextPoke, KernelRecord.AuxOutputHwId,
        KernelRecord.CallchainDeferred {

    /** misc bits ({@code PERF_RECORD_MISC_*}). */
    int MISC_CPUMODE_MASK = 7;
    int MISC_KERNEL = 1;
    int MISC_USER = 2;
    int MISC_MMAP_DATA = 1 << 13;
    int MISC_COMM_EXEC = 1 << 13;
    int MISC_SWITCH_OUT = 1 << 13;
    int MISC_MMAP_BUILD_ID = 1 << 14;
    int MISC_SWITCH_OUT_PREEMPT = 1 << 14;
    int MISC_EXACT_IP = 1 << 14;

    SampleId sampleId();

    /** PERF_RECORD_MMAP (1). */
    record Mmap(RawRecord raw, int pid, int tid, long start, long len, long pgoff, String filename,
                SampleId sampleId) implements KernelRecord {
        public boolean data() {
            return (raw.misc() & MISC_MMAP_DATA) != 0;
        }

        /** The file name's bytes as recorded ({@link #filename} decodes them as UTF-8). */
        public byte[] filenameBytes() {
            return nameBytes(raw, 40);
        }
    }

    /** A record's NUL-terminated name at {@code off}, as perf reads it (up to the record's end at most). */
    private static byte[] nameBytes(RawRecord raw, long off) {
        io.perfj.io.Bytes b = raw.bytes();
        return off >= b.size() ? new byte[0] : b.cstringBytes(off, b.size() - off);
    }

    /** PERF_RECORD_LOST (2). */
    record Lost(RawRecord raw, long id, long lost, SampleId sampleId) implements KernelRecord {
    }

    /** PERF_RECORD_COMM (3). */
    record Comm(RawRecord raw, int pid, int tid, String comm, SampleId sampleId) implements KernelRecord {
        public boolean exec() {
            return (raw.misc() & MISC_COMM_EXEC) != 0;
        }
    }

    /** PERF_RECORD_EXIT (4). */
    record Exit(RawRecord raw, int pid, int ppid, int tid, int ptid, long time, SampleId sampleId)
            implements KernelRecord {
    }

    /** PERF_RECORD_THROTTLE (5). */
    record Throttle(RawRecord raw, long time, long id, long streamId, SampleId sampleId) implements KernelRecord {
    }

    /** PERF_RECORD_UNTHROTTLE (6). */
    record Unthrottle(RawRecord raw, long time, long id, long streamId, SampleId sampleId) implements KernelRecord {
    }

    /** PERF_RECORD_FORK (7). */
    record Fork(RawRecord raw, int pid, int ppid, int tid, int ptid, long time, SampleId sampleId)
            implements KernelRecord {
    }

    /** PERF_RECORD_READ (8): the counter values in the event's read_format. */
    record Read(RawRecord raw, int pid, int tid, ReadValues values, SampleId sampleId) implements KernelRecord {
    }

    /**
     * PERF_RECORD_MMAP2 (10). With {@code PERF_RECORD_MISC_MMAP_BUILD_ID} in misc the device and
     * inode fields are replaced by a build id: {@link #buildId()} is non-null and maj, min, ino and
     * inoGeneration are 0.
     */
    record Mmap2(RawRecord raw, int pid, int tid, long start, long len, long pgoff, int maj, int min, long ino,
                 long inoGeneration, byte[] buildId, int prot, int flags, String filename, SampleId sampleId)
            implements KernelRecord {
        public boolean hasBuildId() {
            return buildId != null;
        }

        /** The file name's bytes as recorded ({@link #filename} decodes them as UTF-8). */
        public byte[] filenameBytes() {
            return nameBytes(raw, 72);
        }
    }

    /** PERF_RECORD_AUX (11). */
    record Aux(RawRecord raw, long auxOffset, long auxSize, long flags, SampleId sampleId) implements KernelRecord {
    }

    /** PERF_RECORD_ITRACE_START (12). */
    record ItraceStart(RawRecord raw, int pid, int tid, SampleId sampleId) implements KernelRecord {
    }

    /** PERF_RECORD_LOST_SAMPLES (13). */
    record LostSamples(RawRecord raw, long lost, SampleId sampleId) implements KernelRecord {
    }

    /** PERF_RECORD_SWITCH (14): direction in misc. */
    record Switch(RawRecord raw, SampleId sampleId) implements KernelRecord {
        public boolean out() {
            return (raw.misc() & MISC_SWITCH_OUT) != 0;
        }

        public boolean preempt() {
            return (raw.misc() & MISC_SWITCH_OUT_PREEMPT) != 0;
        }
    }

    /** PERF_RECORD_SWITCH_CPU_WIDE (15). */
    record SwitchCpuWide(RawRecord raw, int nextPrevPid, int nextPrevTid, SampleId sampleId) implements KernelRecord {
        public boolean out() {
            return (raw.misc() & MISC_SWITCH_OUT) != 0;
        }

        public boolean preempt() {
            return (raw.misc() & MISC_SWITCH_OUT_PREEMPT) != 0;
        }
    }

    /** PERF_RECORD_NAMESPACES (16): per namespace index, device and inode. */
    record Namespaces(RawRecord raw, int pid, int tid, long[] dev, long[] ino, SampleId sampleId)
            implements KernelRecord {
        public int count() {
            return dev.length;
        }
    }

    /** PERF_RECORD_KSYMBOL (17). */
    record Ksymbol(RawRecord raw, long addr, long len, int ksymType, int flags, String name, SampleId sampleId)
            implements KernelRecord {
    }

    /** PERF_RECORD_BPF_EVENT (18). */
    record BpfEvent(RawRecord raw, int eventType, int flags, long id, byte[] tag, SampleId sampleId)
            implements KernelRecord {
    }

    /** PERF_RECORD_CGROUP (19). */
    record Cgroup(RawRecord raw, long id, String path, SampleId sampleId) implements KernelRecord {
    }

    /** PERF_RECORD_TEXT_POKE (20): old bytes then new bytes in {@link #bytes()}. */
    record TextPoke(RawRecord raw, long addr, int oldLen, int newLen, Bytes bytes, SampleId sampleId)
            implements KernelRecord {
    }

    /** PERF_RECORD_AUX_OUTPUT_HW_ID (21). */
    record AuxOutputHwId(RawRecord raw, long hwId, SampleId sampleId) implements KernelRecord {
    }

    /** PERF_RECORD_CALLCHAIN_DEFERRED (22): a user callchain delivered after the sample. */
    record CallchainDeferred(RawRecord raw, long cookie, Callchain callchain, SampleId sampleId)
            implements KernelRecord {
    }
}
