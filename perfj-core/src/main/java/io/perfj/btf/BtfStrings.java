package io.perfj.btf;

import io.perfj.btf.wire.StringSectionBuilder;

/**
 * Builds a BTF string section: each distinct string once, in order of first {@link #add}, after
 * the empty string at offset 0. For split BTF pass the base's {@link Btf#stringsEnd()} as
 * base: offsets then continue after the base's string section.
 */
public final class BtfStrings {
    private final StringSectionBuilder builder;

    /** A string section for stand-alone BTF. */
    public BtfStrings() {
        this(null);
    }

    /** A string section for BTF split on {@code base} (null: stand-alone). */
    public BtfStrings(Btf base) {
        this.builder = new StringSectionBuilder(base == null ? 0 : base.stringsEnd(), 256);
    }

    /** The offset of {@code s}, adding it when new. */
    public int add(String s) {
        return builder.add(s);
    }

    /** The section's bytes so far. */
    public byte[] toByteArray() {
        return builder.toByteArray();
    }
}
