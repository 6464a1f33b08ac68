package io.perfj.perfdata.record;

import io.perfj.io.Bytes;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.SampleFormat;

/**
 * PERF_RECORD_SAMPLE (9), every {@code sample_type} field decoded with the event found by the
 * sample's id (never null: a sample without any event is a format error). Fields the event does not sample hold perf's defaults: -1 for pid, tid, cpu, time,
 * id and stream id; {@code attr.sample_period} for period; 0 or null for the rest. Large arrays
 * (callchain, raw data, branch entries, registers, user stack, aux data) are views of the
 * record's bytes.
 */
public record Sample(RawRecord raw, Evsel evsel, long sampleType, long identifier, long ip, int pid, int tid,
                     long time, long addr, long id, long streamId, int cpu, int res, long period,
                     ReadValues read, Callchain callchain, Bytes rawData, BranchStack branchStack,
                     Regs userRegs, UserStack userStack, long weight, int insLat, int pStageCyc,
                     long dataSrc, long transaction, Regs intrRegs, long physAddr, long cgroup,
                     long dataPageSize, long codePageSize, Bytes aux) implements KernelRecord {

    public boolean has(long sampleBit) {
        return (sampleType & sampleBit) != 0;
    }

    @Override
    public SampleId sampleId() {
        return new SampleId(sampleType & SampleFormat.ID_ALL_MASK, pid, tid, time, id, streamId, cpu, res);
    }

    /** {@code PERF_RECORD_MISC_CPUMODE_MASK} bits of misc. */
    public int cpumode() {
        return raw.misc() & MISC_CPUMODE_MASK;
    }
}
