package io.perfj.btf.cdump;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfWords;
import io.perfj.btf.BtfWriter;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Reads a BTF blob (raw, or the {@code .BTF} section of an ELF file), optionally split on top of
 * a base, straight into a {@link TypeTable}: through {@link BtfWords}, so a 5 MB vmlinux BTF is
 * indexed without one object per type. Header and layout: linux
 * {@code include/uapi/linux/btf.h}, {@code Documentation/bpf/btf.rst}.
 */
public final class RawTypes {
    private RawTypes() {
    }

    /** Loads {@code file} (raw BTF or ELF with .BTF) on top of {@code base} (null for none). */
    public static TypeTable load(Path file, TypeTable base) {
        return table(BtfWords.load(file, words(base)), base);
    }

    /** The BTF bytes of a file (see {@link BtfWords#blob}). */
    public static byte[] blob(Path file) {
        return BtfWords.blob(file);
    }

    /** Parses a BTF blob; {@code base} non-null makes it split BTF continuing the base's ids and strings. */
    public static TypeTable parse(byte[] data, TypeTable base, String source) {
        return table(BtfWords.parse(ByteBuffer.wrap(data), 0, words(base), source), base);
    }

    /** The types of a parsed {@link Btf} (and of its base, when split). */
    public static TypeTable of(Btf btf) {
        TypeTable base = btf.base().map(RawTypes::of).orElse(null);
        return parse(BtfWriter.write(btf, ByteOrder.LITTLE_ENDIAN), base, btf.source());
    }

    private static BtfWords words(TypeTable t) {
        return t == null ? null : new BtfWords(t.types(), t.strings(), 1, t.source(), 0);
    }

    private static TypeTable table(BtfWords w, TypeTable base) {
        TypeTable tt = new TypeTable(w.types(), w.strings(), w.source());
        tt.validate(w.firstId(), base == null ? null : base.referenced());
        return tt;
    }
}
