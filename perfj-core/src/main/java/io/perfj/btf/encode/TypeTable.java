package io.perfj.btf.encode;

import java.util.Arrays;

/**
 * All types, numbered globally from 1, as words (see {@link BtfWords}). Type id's words are
 * {@code words(id)[pos(id)]} onward; a type never straddles two arrays.
 *
 * <p>A table made with {@link #growing} (the one units are merged into, 130 MB for a kernel)
 * grows in chunks of {@value #CHUNK_WORDS} words, so it never holds more than one partly used
 * chunk and never copies itself to grow: an up-front guess of the size was either too large or,
 * when too small, meant holding the old and the new array at once. A table made with
 * {@link #exact} (the deduplicated result) is one array, {@link #w}, and {@code start[id]} is
 * then simply the position in it.
 */
final class TypeTable {
    private static final int CHUNK_BITS = 20;
    static final int CHUNK_WORDS = 1 << CHUNK_BITS;
    /** The longest type: a struct, enum or DATASEC of 65,535 three-word entries. */
    private static final int MAX_TYPE_WORDS = 3 + 3 * 0xffff;

    private final int shift;
    private final int mask;
    private final int chunkWords;
    private int[][] chunks;
    private int nChunks;
    /** Words used in the last chunk. */
    private int used;
    /** The only array of an {@link #exact} table. */
    final int[] w;
    /** Words in all types. */
    long nw;
    /** Where each type's words begin: chunk index above {@code shift}, position below. */
    int[] start;
    int count;

    private TypeTable(int shift, int chunkWords, int firstWords, int types) {
        this.shift = shift;
        this.mask = (int) ((1L << shift) - 1);
        this.chunkWords = chunkWords;
        this.chunks = new int[4][];
        this.chunks[0] = new int[firstWords];
        this.nChunks = 1;
        this.w = chunks[0];
        this.start = new int[Math.max(types, 16) + 1];
    }

    /**
     * A table that grows as types are added; {@code words} and {@code types} are guesses of how
     * many (a small input gets a small first chunk).
     */
    static TypeTable growing(long words, int types) {
        return growing(words, types, CHUNK_BITS);
    }

    /** As {@link #growing(long, int)} with chunks of 2^{@code chunkBits} words (tests use small ones). */
    static TypeTable growing(long words, int types, int chunkBits) {
        int chunk = 1 << chunkBits;
        return new TypeTable(chunkBits, chunk, (int) Math.min(chunk, Math.max(Math.min(chunk, 1 << 12), words)), types);
    }

    /** A table of one array of exactly {@code words} words for {@code types} types. */
    static TypeTable exact(int words, int types) {
        return new TypeTable(31, Math.max(words, 16), Math.max(words, 16), types);
    }

    /** Reserves {@code n} words for a new type and returns its id; they begin at words(id)[pos(id)]. */
    int add(int n) {
        if (n > MAX_TYPE_WORDS || n > chunkWords) {
            throw new IllegalArgumentException(n + " words for one type");
        }
        if (used + n > chunks[nChunks - 1].length) {
            if (shift == 31) {
                throw new IllegalStateException("an exact table of " + chunkWords + " words is full");
            }
            if (nChunks == 1 << (32 - shift)) { // chunk indexes fill the bits above the position
                throw new EncodeException("more than " + ((long) nChunks * chunkWords) + " words of BTF types");
            }
            if (nChunks == chunks.length) {
                chunks = Arrays.copyOf(chunks, 2 * nChunks);
            }
            chunks[nChunks++] = new int[chunkWords];
            used = 0;
        }
        if (count + 2 > start.length) {
            start = Arrays.copyOf(start, start.length + (start.length >> 1) + 16);
        }
        int id = ++count;
        start[id] = (nChunks - 1) << shift | used;
        used += n;
        nw += n;
        return id;
    }

    /** The array holding type {@code id}'s words. */
    int[] words(int id) {
        return chunks[start[id] >>> shift];
    }

    /** Where type {@code id}'s words begin in {@link #words}. */
    int pos(int id) {
        return start[id] & mask;
    }

    /** The word at {@code at}, an address made by {@link #address}. */
    void set(int at, int value) {
        chunks[at >>> shift][at & mask] = value;
    }

    /** The address of word {@code p} of the array holding type {@code id}, for {@link #set}. */
    int address(int id, int p) {
        return (start[id] & ~mask) | p;
    }

    /** The arrays words live in (for readers that keep them in locals), in order. */
    int[][] chunks() {
        return chunks;
    }

    /** start[id] >>> shift() is the index in {@link #chunks()} of id's array ... */
    int shift() {
        return shift;
    }

    /** ... and start[id] & mask() the position there. */
    int mask() {
        return mask;
    }

    int info(int id) {
        return words(id)[pos(id) + 1];
    }

    int kind(int id) {
        return BtfWords.kind(info(id));
    }
}
