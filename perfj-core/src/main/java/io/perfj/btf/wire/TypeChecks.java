package io.perfj.btf.wire;

import io.perfj.io.FormatException;

/**
 * The checks every type record of an indexed type section passes before anything reads it:
 * no reserved bits in the info word or INT data, kind_flag and vlen only where the kind has
 * them (as the kernel's checks), every type id below the section's end and every name offset
 * inside the string sections (as libbpf's {@code btf_sanity_check}). The object model's reader
 * and the raw dumper, which formats the words themselves, both check through here, so both
 * refuse the same input with the same message.
 */
public final class TypeChecks {
    private static final String TYPE = "btf_type";

    private final int[] w;
    private final int[] start;
    private final int end;
    private final StringSection strings;
    private final String source;
    private final long wordZero;

    /**
     * Checks for the records of a flat {@code section} whose names are in {@code strings}; errors
     * name {@code source} and offsets from {@code wordZero}, the position of the section's word 0
     * in it (for a section with its base's records in front, where the own records would start
     * minus the base's words).
     */
    public TypeChecks(TypeSection section, StringSection strings, String source, long wordZero) {
        this.w = section.words();
        this.start = section.starts();
        this.end = section.end();
        this.strings = strings;
        this.source = source;
        this.wordZero = wordZero;
    }

    /** Checks the records of ids {@code from} (inclusive) to {@code to}; the first bad field fails. */
    public void check(int from, int to) {
        // One call per record, so the JIT compiles it after a few hundred records.
        for (int id = from; id < to; id++) {
            record(start[id]);
        }
    }

    private void record(int q) {
        int[] w = this.w;
        int info = w[q + 1];
        int sizeOrType = w[q + 2];
        int kind = Kinds.kind(info);
        int vlen = Kinds.vlen(info);
        boolean kflag = Kinds.kflag(info);
        if ((info & 0x60ff0000) != 0) {
            throw err(q + 1, "reserved bits set in info 0x" + Integer.toHexString(info));
        }
        if (!Kinds.hasVlen(kind) && vlen != 0) {
            throw err(q + 1, Kinds.name(kind) + " with vlen " + vlen);
        }
        if (kind == Kinds.FUNC && vlen > 2) {
            throw err(q + 1, "FUNC linkage " + vlen + " is unknown");
        }
        if (!Kinds.hasKindFlag(kind) && kflag) {
            throw err(q + 1, Kinds.name(kind) + " with kind_flag set");
        }
        if ((kind == Kinds.ARRAY || kind == Kinds.FWD) && sizeOrType != 0) {
            throw err(q + 2, Kinds.name(kind) + " with non-zero size/type " + sizeOrType);
        }
        name(w[q], q);
        int p = q + 3;
        switch (kind) {
            case Kinds.INT -> {
                if ((w[p] & 0xf000ff00) != 0) {
                    throw err(p, "reserved bits set in INT data 0x" + Integer.toHexString(w[p]));
                }
            }
            case Kinds.ARRAY -> {
                ref(w[p], p);
                ref(w[p + 1], p + 1);
            }
            case Kinds.STRUCT, Kinds.UNION -> {
                for (int i = 0; i < vlen; i++, p += 3) {
                    name(w[p], p);
                    ref(w[p + 1], p + 1);
                }
            }
            case Kinds.ENUM -> {
                for (int i = 0; i < vlen; i++, p += 2) {
                    name(w[p], p);
                }
            }
            case Kinds.ENUM64 -> {
                for (int i = 0; i < vlen; i++, p += 3) {
                    name(w[p], p);
                }
            }
            case Kinds.FUNC_PROTO -> {
                for (int i = 0; i < vlen; i++, p += 2) {
                    name(w[p], p);
                    ref(w[p + 1], p + 1);
                }
                ref(sizeOrType, q + 2);
            }
            case Kinds.DATASEC -> {
                for (int i = 0; i < vlen; i++, p += 3) {
                    ref(w[p], p);
                }
            }
            case Kinds.PTR, Kinds.TYPEDEF, Kinds.VOLATILE, Kinds.CONST, Kinds.RESTRICT, Kinds.FUNC, Kinds.VAR,
                 Kinds.DECL_TAG, Kinds.TYPE_TAG -> ref(sizeOrType, q + 2);
            default -> {
            }
        }
    }

    private void ref(int id, int word) {
        if (Integer.compareUnsigned(id, end) >= 0) {
            throw err(word, "type id " + Integer.toUnsignedString(id) + " is out of range (last id " + (end - 1) + ")");
        }
    }

    private void name(int off, int word) {
        if (!strings.contains(off)) {
            throw err(word, "string offset 0x" + Integer.toHexString(off) + " is outside the string section (size 0x"
                    + Integer.toHexString(strings.length()) + ")");
        }
    }

    private FormatException err(int word, String detail) {
        return new FormatException(source, TYPE, wordZero + 4L * word, detail);
    }
}
