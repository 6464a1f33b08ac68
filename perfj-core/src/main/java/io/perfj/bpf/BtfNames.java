package io.perfj.bpf;

import io.perfj.btf.Btf;
import io.perfj.io.FormatException;

/**
 * A type's name by id from a raw BTF blob, as perf finds it when it names BPF sub-programs from
 * their func_info. A thin face on {@link Btf} that returns null instead of failing, so callers
 * can fall back the way perf does when {@code btf__new} rejects the data.
 */
public final class BtfNames {
    private final Btf btf;

    private BtfNames(Btf btf) {
        this.btf = btf;
    }

    /** Parses a raw BTF blob; null when it is not valid BTF. */
    public static BtfNames parse(byte[] raw) {
        try {
            return new BtfNames(Btf.parse(raw, "BTF"));
        } catch (FormatException e) {
            return null;
        }
    }

    /** The parsed model. */
    public Btf btf() {
        return btf;
    }

    /** Number of types plus one (ids run from 1). */
    public int typeCount() {
        return btf.typeCount();
    }

    /** The string at {@code off} of the string section, or null when out of range. */
    public String string(long off) {
        if (off < 0 || off >= btf.stringsEnd()) {
            return null;
        }
        return btf.string((int) off);
    }

    /** The name of type {@code id}, or null when the id is out of range. */
    public String typeName(long id) {
        if (id <= 0 || id >= btf.typeCount()) {
            return null;
        }
        return btf.type((int) id).name();
    }
}
