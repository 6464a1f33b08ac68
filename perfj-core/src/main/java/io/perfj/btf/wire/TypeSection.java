package io.perfj.btf.wire;

import io.perfj.io.FormatException;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * BTF types as the type section has them: 32-bit words holding every {@code struct btf_type}
 * with its trailing kind-specific words (see {@link Kinds}), and where each id's record starts.
 * Ids run from {@link #first()} (1, or the base's type count for split BTF) to {@link #end()},
 * exclusive; id 0 (void) has no record.
 *
 * <p>The words live in arrays ("chunks"); a record never straddles two. A <em>flat</em> section
 * is one array: {@link #words()} is all of it and {@code starts()[id]} is the position of id's
 * record there. The reader indexes a blob's type section into one ({@link #read}), checking that
 * every record has a known kind and fits, as libbpf's {@code btf_parse_type_sec}; the C dumper
 * walks its words directly, so a type costs no object; the encoder's deduplicated result is one
 * sized exactly ({@link #flat}). A <em>chunked</em> section ({@link #chunked}: the encoder's
 * table of every unit's types, 130 MB for a kernel, before deduplication) grows by adding
 * chunks of 2^{@value #CHUNK_BITS} words, so it never copies itself to grow: an up-front guess
 * of the size was either too large or, when too small, meant holding the old and the new array
 * at once. There {@code starts()[id]} holds the chunk index above {@link #shift()} and the
 * position below; {@link #words(int)} and {@link #pos(int)} read both kinds of section.
 */
public final class TypeSection {
    /** log2 of a chunked section's chunk size in words (4 MiB chunks). */
    public static final int CHUNK_BITS = 20;
    /** The longest record: a struct, enum or DATASEC of 65,535 three-word entries. */
    private static final int MAX_RECORD_WORDS = 3 + 3 * 0xffff;
    /** The shift of a flat section: every start is a position in chunk 0. */
    private static final int FLAT = 31;

    private final int first;
    private final int shift;
    private final int mask;
    private final int chunkWords;
    private int[][] chunks;
    private int nChunks;
    /** Words used in the last chunk. */
    private int used;
    /** Words in all records. */
    private long wordCount;
    /**
     * {@code start[id]}: where the record's {@code name_off} word is (chunk index above
     * {@link #shift}, position below), for ids from {@link #first()} (the slots below are
     * unused), so that readers index it by id.
     */
    private int[] start;
    private int end;

    private TypeSection(int first, int shift, int chunkWords, int[] firstChunk, int used, int[] start, int end) {
        this.first = first;
        this.shift = shift;
        this.mask = (int) ((1L << shift) - 1);
        this.chunkWords = chunkWords;
        this.chunks = new int[shift == FLAT ? 1 : 4][];
        this.chunks[0] = firstChunk;
        this.nChunks = 1;
        this.used = used;
        this.wordCount = used;
        this.start = start;
        this.end = end;
    }

    /**
     * An empty flat section for ids from {@code first}, with room for {@code words} words and
     * {@code types} records; {@link #add} copies the array to grow past that, so a caller that
     * knows the sizes never copies.
     */
    public static TypeSection flat(int first, int words, int types) {
        return new TypeSection(first, FLAT, Integer.MAX_VALUE, new int[Math.max(words, 16)], 0,
                new int[first + Math.max(types, 16)], first);
    }

    /**
     * An empty chunked section for ids from {@code first}; {@code words} and {@code types} are
     * guesses of how many (a small input gets a small first chunk).
     */
    public static TypeSection chunked(int first, long words, int types) {
        return chunked(first, words, types, CHUNK_BITS);
    }

    /** As {@link #chunked(int, long, int)} with chunks of 2^{@code chunkBits} words (tests use small ones). */
    public static TypeSection chunked(int first, long words, int types, int chunkBits) {
        if (chunkBits < 1 || chunkBits >= FLAT) {
            throw new IllegalArgumentException("chunks of 2^" + chunkBits + " words");
        }
        int chunk = 1 << chunkBits;
        int firstChunk = (int) Math.min(chunk, Math.max(Math.min(chunk, 1 << 12), words));
        return new TypeSection(first, chunkBits, chunk, new int[firstChunk], 0,
                new int[first + Math.max(types, 16)], first);
    }

    /**
     * Indexes the type section of {@code blob} (ordered as {@code h} says) into a flat section
     * whose ids start at {@code first}. With a {@code base} (flat), the base's records are copied
     * in front, so that the result holds every id from the base's first; {@code first} must then
     * be {@code base.end()}. Errors name {@code source} and offsets from {@code origin}, the
     * blob's position in it.
     */
    public static TypeSection read(ByteBuffer blob, Header h, String source, long origin, int first, TypeSection base) {
        int nWords = h.typeLen() >>> 2;
        int tail = h.typeLen() & 3;
        int baseWords = base == null ? 0 : base.used;
        if (base != null && base.nChunks != 1) {
            throw new IllegalArgumentException("a chunked base section");
        }
        int[] words = new int[baseWords + nWords];
        // every record has at least 3 words: an upper bound, so the index never grows
        long slots = (long) first + nWords / 3 + 1;
        if (slots > Integer.MAX_VALUE - 16) {
            throw new FormatException(source, "btf_type", origin + h.typeStart(), "more than 2^31 type ids");
        }
        int[] start = new int[(int) slots];
        if (base != null) {
            System.arraycopy(base.chunks[0], 0, words, 0, baseWords);
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
        return new TypeSection(base == null ? first : base.first, FLAT, Integer.MAX_VALUE, words, words.length,
                start, id);
    }

    private static String structure(int id) {
        return "btf_type [" + id + "]";
    }

    private static FormatException truncated(String source, long at, int id, int left) {
        return new FormatException(source, structure(id), at, "truncated type record: " + left + " bytes left, 12 needed");
    }

    /**
     * Reserves {@code n} words for a new record and returns its id; they begin at
     * {@link #words(int)}(id)[{@link #pos(int)}(id)].
     */
    public int add(int n) {
        if (n > MAX_RECORD_WORDS || n > chunkWords) {
            throw new IllegalArgumentException(n + " words for one type");
        }
        int[] last = chunks[nChunks - 1];
        if (used + n > last.length) {
            if (shift == FLAT) {
                if ((long) used + n > Integer.MAX_VALUE - 16) {
                    throw new IllegalStateException("more than 2^31 words in one array");
                }
                chunks[0] = Arrays.copyOf(last, (int) Math.min(Integer.MAX_VALUE - 16,
                        Math.max((long) used + n, last.length + (long) (last.length >> 1))));
            } else {
                newChunk();
            }
        }
        if (end == start.length) {
            start = Arrays.copyOf(start, start.length + (start.length >> 1) + 16);
        }
        start[end] = (nChunks - 1) << shift | used;
        used += n;
        wordCount += n;
        return end++;
    }

    private void newChunk() {
        if (nChunks == 1 << (32 - shift)) { // chunk indexes fill the bits above the position
            throw new IllegalStateException("more than " + ((long) nChunks * chunkWords) + " words of BTF types");
        }
        if (nChunks == chunks.length) {
            chunks = Arrays.copyOf(chunks, 2 * nChunks);
        }
        chunks[nChunks++] = new int[chunkWords];
        used = 0;
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

    /** Words in all records. */
    public long wordCount() {
        return wordCount;
    }

    /** Bytes the records take in a blob. */
    public long byteLength() {
        return 4 * wordCount;
    }

    /**
     * The words of a flat section (the array may be longer than {@link #wordCount()});
     * {@link #add} may replace it, so callers that add fetch it again.
     */
    public int[] words() {
        if (nChunks != 1) {
            throw new IllegalStateException("a chunked section is not one array");
        }
        return chunks[0];
    }

    /** The array holding id's record (any section). */
    public int[] words(int id) {
        return chunks[start[id] >>> shift];
    }

    /** Where id's record begins in {@link #words(int)} (any section); in a flat section, {@code starts()[id]}. */
    public int pos(int id) {
        return start[id] & mask;
    }

    /**
     * The record starts by id (see the class comment); for readers that walk the section in a
     * hot loop. {@link #add} may replace the array.
     */
    public int[] starts() {
        return start;
    }

    /** The arrays the words live in, in order (some trailing slots may be null), for hot loops. */
    public int[][] chunks() {
        return chunks;
    }

    /** {@code starts()[id] >>> shift()} is the index in {@link #chunks()} of id's array ... */
    public int shift() {
        return shift;
    }

    /** ... and {@code starts()[id] & mask()} the position there. */
    public int mask() {
        return mask;
    }

    /** The address of word {@code p} of the array holding id's record, for {@link #set}. */
    public int address(int id, int p) {
        return (start[id] & ~mask) | p;
    }

    /** Sets the word at {@code at}, an address made by {@link #address}. */
    public void set(int at, int value) {
        chunks[at >>> shift][at & mask] = value;
    }

    public int nameOff(int id) {
        return words(id)[pos(id)];
    }

    public int info(int id) {
        return words(id)[pos(id) + 1];
    }

    public int kind(int id) {
        return Kinds.kind(info(id));
    }

    /** The {@code size|type} word. */
    public int sizeOrType(int id) {
        return words(id)[pos(id) + 2];
    }

    /** Word {@code i} after the three header words. */
    public int extra(int id, int i) {
        return words(id)[pos(id) + 3 + i];
    }

    /**
     * Puts every record into {@code out} in id order, in {@code out}'s byte order; each name
     * word {@code v} (see {@link Kinds#forEachName}) is written as {@code names[v]}, or as it is
     * when {@code names} is null (names that are offsets already).
     */
    public void write(ByteBuffer out, int[] names) {
        boolean[] isName = names == null ? null : new boolean[MAX_RECORD_WORDS];
        for (int id = first; id < end; id++) {
            int[] w = words(id);
            int p = pos(id);
            int len = Kinds.words(w[p + 1]);
            if (isName == null) {
                for (int i = 0; i < len; i++) {
                    out.putInt(w[p + i]);
                }
                continue;
            }
            Kinds.forEachName(w, p, at -> isName[at - p] = true);
            for (int i = 0; i < len; i++) {
                out.putInt(isName[i] ? names[w[p + i]] : w[p + i]);
                isName[i] = false;
            }
        }
    }
}
