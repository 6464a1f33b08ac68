package io.perfj.btf.dump;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfType;
import io.perfj.btf.BtfWords;
import io.perfj.btf.wire.Kinds;
import io.perfj.btf.wire.StringSection;
import io.perfj.io.TextOut;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bpftool btf dump file F} (format raw) text: one entry per type this BTF defines (for
 * split BTF only the split types, ids continuing after the base), as bpftool's
 * {@code dump_btf_type} prints them (bpftool {@code src/btf.c}). Formatted straight from the
 * type section's words and the string section's bytes ({@link BtfWords}): no object per type,
 * and names are copied as the bytes they are.
 */
public final class BtfRawDumper {
    /** Types to print before a second thread is worth starting. */
    private static final int PARALLEL_MIN = 20_000;
    /**
     * Bytes kept free in the buffer before each line and after each name: more than any line
     * has besides its names (a member's: 64).
     */
    private static final int ROOM = 128;

    private static final byte[] ANON = ascii("(anon)");
    private static final byte[] CLOSE_ID = ascii("] ");
    private static final byte[] QUOTE = ascii(" '");
    private static final byte[] SIZE = ascii(" size=");
    private static final byte[] BITS_OFFSET = ascii(" bits_offset=");
    private static final byte[] NR_BITS = ascii(" nr_bits=");
    private static final byte[] ENCODING = ascii(" encoding=");
    private static final byte[] TYPE_ID = ascii(" type_id=");
    private static final byte[] INDEX_TYPE_ID = ascii(" index_type_id=");
    private static final byte[] NR_ELEMS = ascii(" nr_elems=");
    private static final byte[] VLEN = ascii(" vlen=");
    private static final byte[] ENTRY = ascii("\n\t'");
    private static final byte[] VAL = ascii("' val=");
    private static final byte[] LINKAGE = ascii(" linkage=");
    private static final byte[] RET_TYPE_ID = ascii(" ret_type_id=");
    private static final byte[] MEMBER_TYPE_ID = ascii("' type_id=");
    private static final byte[] VAR_LINKAGE = ascii(", linkage=");
    private static final byte[] COMPONENT_IDX = ascii(" component_idx=");
    private static final byte[] BITFIELD_SIZE = ascii(" bitfield_size=");
    private static final byte[] LL = ascii("LL");
    private static final byte[] ULL = ascii("ULL");
    private static final byte[] SECINFO_TYPE_ID = ascii("\n\ttype_id=");
    private static final byte[] OFFSET = ascii(" offset=");
    private static final byte[] OPEN_PAREN = ascii(" (");
    private static final byte[] QUOTE_PAREN = ascii("')");
    private static final byte[] ENC_SIGNED = ascii(" encoding=SIGNED size=");
    private static final byte[] ENC_UNSIGNED = ascii(" encoding=UNSIGNED size=");
    private static final byte[] FWD_UNION = ascii(" fwd_kind=union");
    private static final byte[] FWD_STRUCT = ascii(" fwd_kind=struct");
    /** Kind labels by kind number (a checked record's kind is one of them). */
    private static final byte[][] LABELS = new byte[Kinds.MAX + 1][];

    /** INT encodings and FUNC/VAR linkages by number, as {@link #intEncoding} and {@link #linkage} name them. */
    private static final byte[][] ENCODINGS = new byte[16][];
    private static final byte[][] LINKAGES = new byte[4][];

    static {
        for (int k = 0; k <= Kinds.MAX; k++) {
            LABELS[k] = ascii(Kinds.label(k));
        }
        for (int e = 0; e < ENCODINGS.length; e++) {
            ENCODINGS[e] = ascii(intEncoding(e));
        }
        for (int l = 0; l < LINKAGES.length; l++) {
            LINKAGES[l] = ascii(linkage(l));
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private final int[] w;
    private final int[] start;
    private final int end;
    private final StringSection strings;
    private final TextOut out;
    private final StringSection.Sink names;
    /** {@code out}'s buffer, filled here directly up to {@link #limit}. */
    private final byte[] buf;
    private final int limit;

    private BtfRawDumper(BtfWords words, OutputStream os) {
        this.w = words.types().words();
        this.start = words.types().starts();
        this.end = words.end();
        this.strings = words.strings();
        this.out = new TextOut(os, 1 << 16);
        this.names = out::bytes;
        this.buf = out.reserve(ROOM);
        this.limit = buf.length - ROOM;
    }

    /** Writes every own type of {@code btf} to {@code os}. */
    public static void dump(Btf btf, OutputStream os) {
        dump(BtfWords.of(btf), os);
    }

    /**
     * Writes every own type of {@code file} (raw BTF or an ELF object's .BTF), split on
     * {@code base} when non-null, to {@code os}. The base's records are checked as
     * {@link Btf#parse} checks them.
     */
    public static void dumpFile(Path file, Path base, OutputStream os) {
        BtfWords b = null;
        if (base != null) {
            b = BtfWords.load(base, null);
            b.check(b.firstId(), b.end());
        }
        dump(BtfWords.load(file, b), os);
    }

    /**
     * Writes every own type of {@code words} to {@code os}, checked as {@link Btf#parse} checks
     * them before anything is written: bad input fails with a FormatException and no output.
     * Large BTF is formatted in two halves at once, the second into memory, written after the
     * first.
     */
    public static void dump(BtfWords words, OutputStream os) {
        int from = words.firstId();
        int to = words.end();
        if (!parallel(from, to)) {
            words.check(from, to);
            new BtfRawDumper(words, os).range(from, to);
            return;
        }
        // Each half is checked on its own thread; nothing is written before both are known good.
        int mid = from + (to - from) / 2;
        RuntimeException[] failed = new RuntimeException[1];
        CountDownLatch checked = new CountDownLatch(1);
        ByteArrayOutputStream second = new ByteArrayOutputStream(outputGuess(words, mid, to));
        Thread t = Thread.ofPlatform().name("btf-dump").daemon().start(() -> {
            try {
                words.check(mid, to);
            } catch (RuntimeException e) {
                failed[0] = e;
                return;
            } finally {
                checked.countDown();
            }
            try {
                new BtfRawDumper(words, second).range(mid, to);
            } catch (RuntimeException e) {
                failed[0] = e;
            }
        });
        words.check(from, mid);
        await(checked);
        if (failed[0] != null) {
            throw failed[0];
        }
        new BtfRawDumper(words, os).range(from, mid);
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        try {
            second.writeTo(os);
            os.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static boolean parallel(int from, int to) {
        return to - from >= PARALLEL_MIN
                && Integer.getInteger("perfj.btf.threads", Runtime.getRuntime().availableProcessors()) >= 2;
    }

    /** About the text of ids {@code from} to {@code to}: a vmlinux's is ~4 bytes per word of records. */
    private static int outputGuess(BtfWords words, int from, int to) {
        int[] s = words.types().starts();
        long recordWords = (to < words.end() ? s[to] : words.types().wordCount()) - s[from];
        return (int) Math.min(1 << 30, 5 * recordWords + 4096);
    }

    private void range(int from, int to) {
        for (int id = from; id < to; id++) {
            type(id);
        }
        out.flush();
    }

    static String intEncoding(int enc) {
        return switch (enc) {
            case 0 -> "(none)";
            case BtfType.Int.SIGNED -> "SIGNED";
            case BtfType.Int.CHAR -> "CHAR";
            case BtfType.Int.BOOL -> "BOOL";
            default -> "UNKN";
        };
    }

    static String linkage(int l) {
        return switch (l) {
            case 0 -> "static";
            case 1 -> "global";
            case 2 -> "extern";
            default -> "(unknown)";
        };
    }

    /** Appends a literal at {@code b[p]}; returns the position after it. */
    private static int put(byte[] b, int p, byte[] lit) {
        System.arraycopy(lit, 0, b, p, lit.length);
        return p + lit.length;
    }

    /** {@code p} in the buffer, after a flush when less than {@link #ROOM} bytes are left. */
    private int room(int p) {
        if (p <= limit) {
            return p;
        }
        out.pos(p);
        out.flushBuffer();
        return out.pos();
    }

    /** The name at {@code nameOff} ({@code (anon)} for 0), from {@code p}; returns the new position. */
    private int name(int p, int nameOff) {
        if (nameOff == 0) {
            return put(buf, p, ANON);
        }
        int e = strings.copy(nameOff, buf, p, limit);
        if (e >= 0) {
            return e;
        }
        // longer than the room left: through the sink, which flushes as it needs
        out.pos(p);
        strings.appendTo(names, nameOff);
        return room(out.pos());
    }

    /**
     * One type's entry; one call per type, so the JIT compiles it after a few hundred types.
     * Text is put straight into the output buffer, which keeps {@link #ROOM} bytes free after
     * each name and before each line (the longest line has less besides its name).
     */
    private void type(int id) {
        int[] w = this.w;
        byte[] b = buf;
        int q = start[id];
        int info = w[q + 1];
        int kind = Kinds.kind(info);
        int vlen = Kinds.vlen(info);
        boolean kflag = Kinds.kflag(info);
        int sizeOrType = w[q + 2];
        int p = room(out.pos());
        b[p++] = '[';
        p = TextOut.putU32(b, p, id);
        p = put(b, p, CLOSE_ID);
        p = put(b, p, LABELS[kind]);
        p = put(b, p, QUOTE);
        p = name(p, w[q]);
        b[p++] = '\'';
        int x = q + 3;
        switch (kind) {
            case Kinds.INT -> {
                int v = w[x];
                p = TextOut.putU32(b, put(b, p, SIZE), sizeOrType);
                p = TextOut.putU32(b, put(b, p, BITS_OFFSET), (v >>> 16) & 0xff);
                p = TextOut.putU32(b, put(b, p, NR_BITS), v & 0xff);
                p = put(b, put(b, p, ENCODING), ENCODINGS[(v >>> 24) & 0xf]);
            }
            case Kinds.PTR, Kinds.TYPEDEF, Kinds.VOLATILE, Kinds.CONST, Kinds.RESTRICT, Kinds.TYPE_TAG ->
                    p = TextOut.putU32(b, put(b, p, TYPE_ID), sizeOrType);
            case Kinds.ARRAY -> {
                p = TextOut.putU32(b, put(b, p, TYPE_ID), w[x]);
                p = TextOut.putU32(b, put(b, p, INDEX_TYPE_ID), w[x + 1]);
                p = TextOut.putU32(b, put(b, p, NR_ELEMS), w[x + 2]);
            }
            case Kinds.STRUCT, Kinds.UNION -> p = composite(p, x, sizeOrType, vlen, kflag);
            case Kinds.ENUM -> p = enum32(p, x, sizeOrType, vlen, kflag);
            case Kinds.ENUM64 -> p = enum64(p, x, sizeOrType, vlen, kflag);
            case Kinds.FWD -> p = put(b, p, kflag ? FWD_UNION : FWD_STRUCT);
            case Kinds.FUNC -> {
                p = TextOut.putU32(b, put(b, p, TYPE_ID), sizeOrType);
                p = put(b, put(b, p, LINKAGE), LINKAGES[Math.min(vlen, 3)]);
            }
            case Kinds.FUNC_PROTO -> p = funcProto(p, x, sizeOrType, vlen);
            case Kinds.VAR -> {
                p = TextOut.putU32(b, put(b, p, TYPE_ID), sizeOrType);
                p = put(b, put(b, p, VAR_LINKAGE), LINKAGES[Integer.compareUnsigned(w[x], 3) < 0 ? w[x] : 3]);
            }
            case Kinds.DATASEC -> p = datasec(p, x, sizeOrType, vlen);
            case Kinds.FLOAT -> p = TextOut.putU32(b, put(b, p, SIZE), sizeOrType);
            case Kinds.DECL_TAG -> {
                p = TextOut.putU32(b, put(b, p, TYPE_ID), sizeOrType);
                out.pos(put(b, p, COMPONENT_IDX));
                p = room(out.dec(w[x]).pos());
            }
            default -> {
            }
        }
        b[p++] = '\n';
        out.pos(p);
    }

    /** The end of a header line with entries: {@code label}, a number, then the entry count. */
    private int countLine(int p, byte[] label, int value, int vlen) {
        byte[] b = buf;
        p = TextOut.putU32(b, put(b, p, label), value);
        return TextOut.putU32(b, put(b, p, VLEN), vlen);
    }

    private int composite(int p, int x, int size, int vlen, boolean kflag) {
        int[] w = this.w;
        byte[] b = buf;
        p = countLine(p, SIZE, size, vlen);
        for (int i = 0; i < vlen; i++, x += 3) {
            p = name(put(b, room(p), ENTRY), w[x]);
            int off = w[x + 2];
            p = TextOut.putU32(b, put(b, p, MEMBER_TYPE_ID), w[x + 1]);
            p = TextOut.putU32(b, put(b, p, BITS_OFFSET), kflag ? off & 0xffffff : off);
            if (kflag && off >>> 24 != 0) {
                p = TextOut.putU32(b, put(b, p, BITFIELD_SIZE), off >>> 24);
            }
        }
        return p;
    }

    private int funcProto(int p, int x, int ret, int vlen) {
        int[] w = this.w;
        byte[] b = buf;
        p = countLine(p, RET_TYPE_ID, ret, vlen);
        for (int i = 0; i < vlen; i++, x += 2) {
            p = name(put(b, room(p), ENTRY), w[x]);
            p = TextOut.putU32(b, put(b, p, MEMBER_TYPE_ID), w[x + 1]);
        }
        return p;
    }

    private int enum32(int p, int x, int size, int vlen, boolean signed) {
        int[] w = this.w;
        byte[] b = buf;
        p = countLine(p, signed ? ENC_SIGNED : ENC_UNSIGNED, size, vlen);
        for (int i = 0; i < vlen; i++, x += 2) {
            p = put(b, name(put(b, room(p), ENTRY), w[x]), VAL);
            int v = w[x + 1];
            if (signed && v < 0) {
                b[p++] = '-';
                p = TextOut.putU32(b, p, -v);
            } else {
                p = TextOut.putU32(b, p, v);
            }
        }
        return p;
    }

    private int enum64(int p, int x, int size, int vlen, boolean signed) {
        int[] w = this.w;
        byte[] b = buf;
        p = countLine(p, signed ? ENC_SIGNED : ENC_UNSIGNED, size, vlen);
        for (int i = 0; i < vlen; i++, x += 3) {
            out.pos(put(b, name(put(b, room(p), ENTRY), w[x]), VAL));
            long v = (w[x + 1] & 0xffffffffL) | ((long) w[x + 2] << 32);
            if (signed) {
                out.dec(v).bytes(LL);
            } else {
                out.udec(v).bytes(ULL);
            }
            p = room(out.pos());
        }
        return p;
    }

    private int datasec(int p, int x, int size, int vlen) {
        int[] w = this.w;
        byte[] b = buf;
        p = countLine(p, SIZE, size, vlen);
        for (int i = 0; i < vlen; i++, x += 3) {
            int type = w[x];
            p = TextOut.putU32(b, put(b, room(p), SECINFO_TYPE_ID), type);
            p = TextOut.putU32(b, put(b, p, OFFSET), w[x + 1]);
            p = TextOut.putU32(b, put(b, p, SIZE), w[x + 2]);
            if (Integer.compareUnsigned(type, end) < 0) {
                // id 0 (void) has no record: bpftool names it as an UNKNOWN anonymous type
                int kind = type == 0 ? Kinds.UNKN : Kinds.kind(w[start[type] + 1]);
                p = put(b, put(b, p, OPEN_PAREN), LABELS[kind]);
                p = put(b, name(put(b, p, QUOTE), type == 0 ? 0 : w[start[type]]), QUOTE_PAREN);
            }
        }
        return p;
    }
}
