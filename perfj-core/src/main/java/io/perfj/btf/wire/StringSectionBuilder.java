package io.perfj.btf.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds a BTF string section: names as UTF-8, each followed by a NUL, at increasing offsets
 * after the empty string at offset 0 (split BTF: after the base's sections, whose offsets its
 * own continue). {@link #add} keeps each distinct name once; {@link #append} is for callers that
 * know their names are distinct.
 */
public final class StringSectionBuilder {
    private final int start;
    private final ByteArrayOutputStream bytes;
    private Map<String, Integer> offsets;

    /**
     * A section whose first offset is {@code baseLength} (the base's string sections' length;
     * 0 for stand-alone BTF, which then starts with the empty string).
     */
    public StringSectionBuilder(int baseLength, int capacity) {
        this.start = baseLength;
        this.bytes = new ByteArrayOutputStream(Math.max(16, capacity));
        if (baseLength == 0) {
            bytes.write(0);
        }
    }

    /** The offset of {@code s}, adding it when it is not there yet. */
    public int add(String s) {
        if (s.isEmpty()) {
            return 0;
        }
        if (offsets == null) {
            offsets = new HashMap<>();
        }
        Integer off = offsets.get(s);
        if (off != null) {
            return off;
        }
        int o = append(s);
        offsets.put(s, o);
        return o;
    }

    /** Adds {@code s} at the end, even if it is there already, and returns its offset. */
    public int append(String s) {
        int o = start + bytes.size();
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        bytes.write(b, 0, b.length);
        bytes.write(0);
        return o;
    }

    /** Length of the section so far (the base's not included). */
    public int size() {
        return bytes.size();
    }

    /** The section's bytes so far. */
    public byte[] toByteArray() {
        return bytes.toByteArray();
    }
}
