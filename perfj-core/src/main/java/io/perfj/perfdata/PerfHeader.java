package io.perfj.perfdata;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The perf.data file header ({@code struct perf_file_header}, 104 bytes) or, for pipe mode, the
 * 16-byte {@code struct perf_pipe_file_header} (then the sections are empty).
 *
 * @param order        byte order of the whole file (from the magic)
 * @param pipe         whether the data was written in pipe mode
 * @param version      0 for the old "PERFFILE" magic, 1 for "PERFILE2" (perf's PERF_HEADER_VERSION_2)
 * @param size         header size as recorded
 * @param attrSize     size of one attr entry (perf_event_attr + ids section)
 * @param features     the 256-bit feature bitmap as four words
 */
public record PerfHeader(ByteOrder order, boolean pipe, int version, long size, long attrSize,
                         Section attrs, Section data, Section eventTypes, long[] features) {

    /** "PERFILE2" read as a little-endian u64. */
    public static final long MAGIC2 = 0x32454c4946524550L;
    /** "PERFFILE" read as a little-endian u64 (version 1 files). */
    public static final long MAGIC1 = 0x454c494646524550L;
    public static final int FILE_HEADER_SIZE = 104;
    public static final int PIPE_HEADER_SIZE = 16;

    public boolean hasFeature(int bit) {
        return bit >= 0 && bit < 256 && (features[bit >>> 6] & (1L << (bit & 63))) != 0;
    }

    /** The set feature bits, ascending: the order of the feature section table. */
    public List<Integer> featureBits() {
        List<Integer> bits = new ArrayList<>();
        for (int i = 0; i < 256; i++) {
            if (hasFeature(i)) {
                bits.add(i);
            }
        }
        return bits;
    }
}
