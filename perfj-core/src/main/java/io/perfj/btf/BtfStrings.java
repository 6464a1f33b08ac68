package io.perfj.btf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds a BTF string section: each distinct string once, in order of first {@link #add}, after
 * the empty string at offset 0. For split BTF pass the base's {@link Btf#stringsEnd()} as
 * base: offsets then continue after the base's string section.
 */
public final class BtfStrings {
    private final int start;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Map<String, Integer> offsets = new HashMap<>();

    /** A string section for stand-alone BTF. */
    public BtfStrings() {
        this(null);
    }

    /** A string section for BTF split on {@code base} (null: stand-alone). */
    public BtfStrings(Btf base) {
        this.start = base == null ? 0 : base.stringsEnd();
        if (base == null) {
            bytes.write(0);
        }
        offsets.put("", 0);
    }

    /** The offset of {@code s}, adding it when new. */
    public int add(String s) {
        Integer off = offsets.get(s);
        if (off != null) {
            return off;
        }
        int o = start + bytes.size();
        bytes.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        bytes.write(0);
        offsets.put(s, o);
        return o;
    }

    /** The section's bytes so far. */
    public byte[] toByteArray() {
        return bytes.toByteArray();
    }
}
