package io.perfj.record;

import io.perfj.perfdata.RecordType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * One event's mapped ring buffer: a metadata page ({@code struct perf_event_mmap_page}) and a
 * power-of-two data area the kernel fills. The reader's side of the protocol: load
 * {@code data_head} with acquire semantics (the records before it are then visible), copy
 * {@code [data_tail, data_head)}, then store {@code data_tail} with release semantics (the
 * kernel may overwrite the space only after the copy is done). Records never straddle the
 * 8-byte boundary, so a header is always whole at its position modulo the size.
 */
final class RingBuffer {
    private static final long DATA_HEAD = 1024;
    private static final long DATA_TAIL = 1032;
    private static final long DATA_OFFSET = 1040;
    private static final long DATA_SIZE = 1048;

    final int fd;
    final int cpu;
    private final MemorySegment map;
    private final long dataOffset;
    private final long dataSize;
    private long tail;
    private long samples;
    private long lost;
    private long bytes;

    private final boolean counting;

    /**
     * Maps {@code pages} data pages (a power of two) and the metadata page of {@code fd}.
     *
     * @param counting whether {@link #drain} counts the samples and lost events it copies (a
     *                 stream's only count; a file's read-back pass counts them after the
     *                 recording, so the copying loop does not walk every record header)
     */
    RingBuffer(int fd, int cpu, int pages, long pageSize, boolean counting) {
        this.fd = fd;
        this.counting = counting;
        this.cpu = cpu;
        this.map = Sys.mmap(fd, (pages + 1) * pageSize);
        long off = map.get(ValueLayout.JAVA_LONG, DATA_OFFSET);
        long size = map.get(ValueLayout.JAVA_LONG, DATA_SIZE);
        // kernels before 4.1 leave data_offset/data_size 0: the data follows the first page
        this.dataOffset = off == 0 ? pageSize : off;
        this.dataSize = size == 0 ? pages * pageSize : size;
        this.tail = map.get(ValueLayout.JAVA_LONG, DATA_TAIL);
        VarHandle.acquireFence();
    }

    long samples() {
        return samples;
    }

    /** Events the kernel reported lost (PERF_RECORD_LOST's counts and LOST_SAMPLES records). */
    long lost() {
        return lost;
    }

    long bytes() {
        return bytes;
    }

    /** Copies the records the kernel has published into {@code out}; the bytes copied. */
    long drain(RecordSink out) {
        // a load with acquire semantics as a plain aligned load and a fence: a layout's VarHandle
        // would first initialise the layout-path machinery (milliseconds of every start)
        long head = map.get(ValueLayout.JAVA_LONG, DATA_HEAD);
        VarHandle.acquireFence();
        long len = head - tail;
        if (len <= 0) {
            return 0;
        }
        if (len > dataSize) {
            throw new IllegalStateException("ring buffer of CPU " + cpu + ": head " + head + " is "
                    + len + " bytes past tail " + tail + " in a " + dataSize + "-byte buffer");
        }
        if (counting) {
            count(tail, head);
        }
        long mask = dataSize - 1;
        long start = tail & mask;
        long first = Math.min(len, dataSize - start);
        out.write(map, dataOffset + start, first);
        if (first < len) {
            out.write(map, dataOffset, len - first);
        }
        tail = head;
        VarHandle.releaseFence();
        map.set(ValueLayout.JAVA_LONG, DATA_TAIL, head);
        bytes += len;
        return len;
    }

    /** Walks the record headers of {@code [from, to)} counting samples and lost events. */
    private void count(long from, long to) {
        long mask = dataSize - 1;
        long p = from;
        while (p < to) {
            long h = dataOffset + (p & mask);
            int type = map.get(ValueLayout.JAVA_INT, h);
            int size = Short.toUnsignedInt(map.get(ValueLayout.JAVA_SHORT, h + 6));
            if (size < 8) {
                // not a record the kernel writes; the copy still goes to the file for the reader to judge
                return;
            }
            if (type == RecordType.SAMPLE) {
                samples++;
            } else if (type == RecordType.LOST || type == RecordType.LOST_SAMPLES) {
                // LOST: id, lost; LOST_SAMPLES: lost
                long at = type == RecordType.LOST ? 16 : 8;
                lost += map.get(ValueLayout.JAVA_LONG, dataOffset + ((p + at) & mask));
            }
            p += size;
        }
    }

    void unmap() {
        Sys.munmap(map);
    }
}
