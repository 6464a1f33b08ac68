package io.perfj.fleet;

import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RecordType;
import io.perfj.io.Bytes;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a recording can be cut between FINISHED_ROUND windows: perf writes a FINISHED_ROUND
 * after each pass over the ring buffers, and orders events only within the windows these make,
 * so a slice of whole rounds is a slice of samples by their place in the file. A cut is the
 * offset of the record after a FINISHED_ROUND; a slice [cut, next cut) keeps the samples whose
 * records lie there. perf indexes no rounds, so finding them is a pass over the record headers
 * (eight bytes each, read in the mapped file).
 */
final class Rounds {
    private Rounds() {
    }

    /**
     * The data section's start, cuts at round ends about {@code bytes} apart, and the section's
     * end; null when the file cannot be cut so: compressed records (whose rounds are inside
     * them), pipe mode, or fewer than two rounds' worth.
     */
    static long[] cuts(Path file, long bytes) {
        try (PerfData d = PerfData.open(file)) {
            if (d.header().pipe() || d.features().containsKey(FeatureId.COMPRESSED) || d.fileBytes() == null) {
                return null;
            }
            Bytes f = d.fileBytes();
            long start = d.dataSection().offset();
            long end = Math.min(d.dataSection().end(), f.size());
            List<Long> out = new ArrayList<>();
            out.add(start);
            long last = start;
            for (long at = start; at + 8 <= end; ) {
                int type = (int) f.u32(at);
                int size = f.u16(at + 6);
                if (size < 8) {
                    break; // damaged: the reader says so; the slices so far stand
                }
                if (type == RecordType.AUXTRACE) {
                    return null; // its payload follows outside header.size
                }
                at += size;
                if (type == RecordType.FINISHED_ROUND && at - last >= bytes && end - at >= bytes / 2) {
                    out.add(at);
                    last = at;
                }
            }
            if (out.size() < 2) {
                return null;
            }
            out.add(end);
            return out.stream().mapToLong(Long::longValue).toArray();
        }
    }
}
