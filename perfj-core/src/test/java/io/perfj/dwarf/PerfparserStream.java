package io.perfj.dwarf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Test-only decoder of hotspot-perfparser's output (the "QPERFSTREAM" stream hotspot reads):
 * the magic and a little-endian data stream version, then records of a little-endian 32-bit
 * length and a Qt {@code QDataStream} payload (big-endian) whose first byte is the record type.
 * Only what the stack comparison needs is decoded: location definitions (type 3: id, address,
 * file, pid, line, column, parent location) and samples (type 13: pid, tid, time, cpu, frame
 * location ids, the number of guessed frames). The layout is that of perfparser 4.12 (hotspot 1.3), whose locations have no
 * relative address yet; a later perfparser appends one, which is ignored.
 */
final class PerfparserStream {
    static final int LOCATION = 3;
    static final int SAMPLE = 13;

    /** A location: an absolute address in the address space of the sample that defined it. */
    record Location(long address, int pid, int parent) {
    }

    /**
     * A sample's frames as location ids, innermost first: its kernel callchain, then the unwound
     * user frames; the last {@code guessed} of them perfparser marks as guessed (found after a
     * read outside the copied stack that it answered from stack words remembered from earlier
     * samples of the process).
     */
    record Sample(long time, int pid, int tid, int[] frames, int guessed) {
    }

    /** Location definitions and samples in stream order. */
    record Stream(Map<Integer, Location> locations, List<Sample> samples) {
    }

    private PerfparserStream() {
    }

    static Stream decode(byte[] bytes) {
        byte[] magic = "QPERFSTREAM\0".getBytes(StandardCharsets.US_ASCII);
        if (bytes.length < magic.length + 4 || !java.util.Arrays.equals(bytes, 0, magic.length, magic, 0, magic.length)) {
            throw new IllegalArgumentException("not a perfparser stream");
        }
        ByteBuffer le = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int pos = magic.length + 4;
        Map<Integer, Location> locations = new HashMap<>();
        List<Sample> samples = new ArrayList<>();
        while (pos < bytes.length) {
            int size = le.getInt(pos);
            pos += 4;
            if (size < 1 || size > bytes.length - pos) {
                throw new IllegalArgumentException("record of " + size + " bytes at " + (pos - 4));
            }
            ByteBuffer p = ByteBuffer.wrap(bytes, pos, size).slice().order(ByteOrder.BIG_ENDIAN);
            pos += size;
            int type = p.get() & 0xff;
            if (type == LOCATION) {
                int id = p.getInt();
                long address = p.getLong();
                p.getInt(); // file
                int pid = p.getInt();
                p.getInt(); // line
                p.getInt(); // column
                int parent = p.getInt();
                locations.put(id, new Location(address, pid, parent));
            } else if (type == SAMPLE) {
                int pid = p.getInt();
                int tid = p.getInt();
                long time = p.getLong();
                p.getInt(); // cpu
                int n = p.getInt();
                if (n < 0 || n > p.remaining() / 4) {
                    throw new IllegalArgumentException("sample with " + n + " frames");
                }
                int[] frames = new int[n];
                for (int i = 0; i < n; i++) {
                    frames[i] = p.getInt();
                }
                int guessed = p.get() & 0xff;
                samples.add(new Sample(time, pid, tid, frames, guessed));
            }
        }
        return new Stream(locations, samples);
    }
}
