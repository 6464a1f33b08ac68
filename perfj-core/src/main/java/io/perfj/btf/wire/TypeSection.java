package io.perfj.btf.wire;

import io.perfj.io.FormatException;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * BTF types as the type section has them: one array of 32-bit words holding every
 * {@code struct btf_type} with its trailing kind-specific words (see {@link Kinds}), and where
 * each id's record starts. Ids run from {@link #first()} (1, or the base's type count for split
 * BTF) to {@link #end()}, exclusive; id 0 (void) has no record.
 *
 * <p>The reader indexes a blob's type section into one ({@link #read}), checking that every record
 * has a known kind and fits, as libbpf's {@code btf_parse_type_sec}; the C dumper walks the words
 * directly, so a type costs no object; the encoder builds one record by record ({@link #add}).
 */
public final class TypeSection {
    private final int first;
    private int[] words;
    private int wordCount;
    /**
     * {@code start[id]}: the index in {@link #words} of the record's {@code name_off} word, for
     * ids from {@link #first()} (the slots below are unused), so that readers index it by id.
     */
    private int[] start;
    private int end;

    /** An empty section for ids from {@code first}, growing as records are {@link #add}ed. */
    public TypeSection(int first, int wordCapacity, int typeCapacity) {
        this.first = first;
        this.end = first;
        this.words = new int[Math.max(wordCapacity, 16)];
        this.start = new int[first + Math.max(typeCapacity, 16)];
    }

    private TypeSection(int first, int[] words, int wordCount, int[] start, int end) {
        this.first = first;
        this.words = words;
        this.wordCount = wordCount;
        this.start = start;
        this.end = end;
    }

    /**
     * Indexes the type section of {@code blob} (ordered as {@code h} says), whose ids start at
     * {@code first}. With a {@code base}, the base's records are copied in front, so that the
     * result holds every id from the base's first; {@code first} must then be {@code base.end()}.
     * Errors name {@code source} and offsets from {@code origin}, the blob's position in it.
     */
    public static TypeSection read(ByteBuffer blob, Header h, String source, long origin, int first, TypeSection base) {
        int nWords = h.typeLen() >>> 2;
        int tail = h.typeLen() & 3;
        int baseWords = base == null ? 0 : base.wordCount;
        int[] words = new int[baseWords + nWords];
        // every record has at least 3 words: an upper bound, so the index never grows
        long slots = (long) first + nWords / 3 + 1;
        if (slots > Integer.MAX_VALUE - 16) {
            throw new FormatException(source, "btf_type", origin + h.typeStart(), "more than 2^31 type ids");
        }
        int[] start = new int[(int) slots];
        if (base != null) {
            System.arraycopy(base.words, 0, words, 0, baseWords);
            System.arraycopy(base.start, 0, start, 0, base.end);
        }
        blob.slice(h.typeStart(), nWords * 4).order(h.order()).asIntBuffer().get(words, baseWords, nWords);
        long at = origin + h.typeStart() - 4L * baseWords;
        int p = baseWords;
        int wend = words.length;
        int id = first;
        while (p < wend) {
            int left = 4 * (wend - p) + tail;
            if (wend - p < 3) {
                throw truncated(source, at + 4L * p, id, left);
            }
            int info = words[p + 1];
            int kind = Kinds.kind(info);
            if (!Kinds.known(kind)) {
                throw new FormatException(source, structure(id), at + 4L * p + 4, "unknown BTF kind " + kind);
            }
            int len = Kinds.words(info);
            if (len > wend - p) {
                throw new FormatException(source, structure(id), at + 4L * p,
                        Kinds.name(kind) + " record needs " + 4 * len + " bytes, only " + left
                                + " left in the type section");
            }
            start[id++] = p;
            p += len;
        }
        if (tail != 0) {
            throw truncated(source, at + 4L * p, id, tail);
        }
        return new TypeSection(base == null ? first : base.first, words, words.length, start, id);
    }

    private static String structure(int id) {
        return "btf_type [" + id + "]";
    }

    private static FormatException truncated(String source, long at, int id, int left) {
        return new FormatException(source, structure(id), at, "truncated type record: " + left + " bytes left, 12 needed");
    }

    /** Reserves {@code n} words for a new record and returns its id; the words start at {@link #start}(id). */
    public int add(int n) {
        if (wordCount + n > words.length) {
            words = Arrays.copyOf(words, Math.max(wordCount + n, words.length + (words.length >> 1)));
        }
        if (end == start.length) {
            start = Arrays.copyOf(start, start.length + (start.length >> 1) + 16);
        }
        start[end] = wordCount;
        wordCount += n;
        return end++;
    }

    /** The first id with a record. */
    public int first() {
        return first;
    }

    /** One past the last id (libbpf's {@code btf__type_cnt} when {@link #first()} is 1). */
    public int end() {
        return end;
    }

    /** Number of records. */
    public int size() {
        return end - first;
    }

    /** The words; {@link #add} may replace the array, so callers that add fetch it again. */
    public int[] words() {
        return words;
    }

    /** Number of words in use. */
    public int wordCount() {
        return wordCount;
    }

    /** Index in {@link #words()} of the record of {@code id}. */
    public int start(int id) {
        return start[id];
    }

    /**
     * The record starts by id ({@link #start} for every id); for readers that walk the section
     * in a hot loop. {@link #add} may replace the array.
     */
    public int[] starts() {
        return start;
    }

    public int nameOff(int id) {
        return words[start[id]];
    }

    public int info(int id) {
        return words[start[id] + 1];
    }

    public int kind(int id) {
        return (words[start[id] + 1] >>> 24) & 0x1f;
    }

    /** The {@code size|type} word. */
    public int sizeOrType(int id) {
        return words[start[id] + 2];
    }

    /** Word {@code i} after the three header words. */
    public int extra(int id, int i) {
        return words[start[id] + 3 + i];
    }
}
