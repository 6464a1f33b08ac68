package io.perfj.btf.encode;

import io.perfj.btf.BtfWords;
import io.perfj.btf.wire.Kinds;
import io.perfj.btf.wire.StringSection;
import io.perfj.btf.wire.TypeSection;

import java.nio.file.Path;
import java.nio.charset.StandardCharsets;

/**
 * The base BTF a module's split BTF is encoded on (usually vmlinux's): its types go into the
 * encoder's table first, so the module's types are numbered after them and deduplicated against
 * them as libbpf does for split BTF. Base names stay base offsets (negated, apart from pool ids);
 * a module name the base has is given the same number, as libbpf points it at the base's string.
 */
public final class SplitBase {
    private final Path file;
    private BtfWords words;

    private SplitBase(Path file, BtfWords words) {
        this.file = file;
        this.words = words;
    }

    /** Loads raw BTF or an ELF's {@code .BTF} as a base, checking every record as the reader does. */
    public static SplitBase load(Path file) {
        return new SplitBase(file, read(file));
    }

    /**
     * As {@link #load}, but read on first use: {@link BtfEncoder} reads it on its own thread
     * while the module's DWARF sections are loaded; a bad file fails the encoding as
     * {@link #load} would.
     */
    public static SplitBase deferred(Path file) {
        return new SplitBase(file, null);
    }

    private static BtfWords read(Path file) {
        BtfWords w = BtfWords.load(file, null);
        w.check(w.firstId(), w.end());
        return w;
    }

    private synchronized BtfWords words() {
        if (words == null) {
            words = read(file);
        }
        return words;
    }

    /** The base's size in words if it is loaded, else a guess from the file's size (for sizing tables). */
    synchronized long wordGuess() {
        if (words != null) {
            return words.types().wordCount();
        }
        try {
            return java.nio.file.Files.size(file) / 4;
        } catch (java.io.IOException e) {
            return 1 << 10; // reported when it is read
        }
    }

    /** The first id the split BTF defines (one past the base's last). */
    int end() {
        return words().end();
    }

    /** The length of the base's string section: a split's own offsets start there. */
    int stringLength() {
        return words().strings().length();
    }

    /**
     * Appends the base's records to {@code table} (empty, ids from 1). A base name at offset
     * {@code off} is written as {@code -off} (0 stays the empty name): pool ids are never
     * negative, and {@link #codes} turns a module name the base has into the same number.
     */
    void copyInto(TypeSection table) {
        TypeSection src = negated();
        int[] sw = src.words();
        for (int id = src.first(); id < src.end(); id++) {
            int sp = src.pos(id);
            int len = Kinds.words(sw[sp + 1]);
            int nid = table.add(len);
            if (nid != id) {
                throw new IllegalStateException("the base must be copied into an empty table");
            }
            System.arraycopy(sw, sp, table.words(nid), table.pos(nid), len);
        }
    }

    /** The base's records with names as {@code -offset}, made once (one flat section). */
    private TypeSection negated;
    /** The base's types filed as dedup candidates, made once from {@link #negated}. */
    private DedupTable candidates;

    private synchronized TypeSection negated() {
        if (negated == null) {
            TypeSection src = words().types();
            TypeSection t = TypeSection.flat(1, (int) src.wordCount(), src.size());
            for (int id = src.first(); id < src.end(); id++) {
                int[] sw = src.words(id);
                int sp = src.pos(id);
                int len = Kinds.words(sw[sp + 1]);
                int nid = t.add(len);
                int[] w = t.words(nid);
                int p = t.pos(nid);
                System.arraycopy(sw, sp, w, p, len);
                Kinds.forEachName(w, p, at -> w[at] = -w[at]);
            }
            negated = t;
        }
        return negated;
    }

    /**
     * A copy of the base's dedup candidates (libbpf's btf_dedup_prep), for one module's
     * {@link BtfDedup}: every module on this base starts from the same table, hashed once.
     */
    DedupTable candidates() {
        DedupTable c;
        synchronized (this) {
            if (candidates == null) {
                candidates = BtfDedup.baseCandidates(negated());
            }
            c = candidates;
        }
        return c.copy();
    }

    /** Makes what every module needs of the base (strings by content, candidates) ahead of use. */
    void prepare() {
        index();
        synchronized (this) {
            if (candidates == null) {
                candidates = BtfDedup.baseCandidates(negated());
            }
        }
    }

    /**
     * For each pool id, the name the split's records use: {@code -offset} of the same string in
     * the base (its first copy, as libbpf's btf__find_str finds it), else the pool id itself.
     */
    int[] codes(StringPool pool) {
        Index ix = index();
        int n = pool.size();
        int[] out = new int[n];
        for (int id = 1; id < n; id++) {
            byte[] b = pool.get(id).getBytes(StandardCharsets.UTF_8);
            int found = b.length == 0 ? 0 : ix.find(b);
            out[id] = found != 0 ? -found : id;
        }
        return out;
    }

    /** The base's strings by content, made once and shared by every module encoded on this base. */
    private volatile Index index;

    /** {@link #codes}'s table, made on first use (the base-copy thread asks for it early). */
    Index index() {
        Index ix = index;
        if (ix == null) {
            synchronized (this) {
                ix = index;
                if (ix == null) {
                    ix = new Index(words().strings().ownBytes());
                    index = ix;
                }
            }
        }
        return ix;
    }

    /** String starts by content hash, open addressing; each string once, its first copy kept. */
    static final class Index {
        private final byte[] str;
        private final int[] slots;
        private final int mask;

        Index(byte[] str) {
            this.str = str;
            int cap = Integer.highestOneBit(Math.max(16, str.length / 4)) * 2;
            slots = new int[cap];
            mask = cap - 1;
            for (int off = 1; off < str.length; ) {
                int h = 0;
                int e = off;
                while (e < str.length && str[e] != 0) {
                    h = 31 * h + str[e++];
                }
                if (e > off) {
                    int i = mix(h) & mask;
                    while (slots[i] != 0 && !same(str, slots[i], str, off, e - off)) {
                        i = (i + 1) & mask;
                    }
                    if (slots[i] == 0) {
                        slots[i] = off;
                    }
                }
                off = e + 1;
            }
        }

        /** The base offset of the first string equal to {@code b}, or 0. */
        int find(byte[] b) {
            int h = 0;
            for (byte x : b) {
                h = 31 * h + x;
            }
            for (int i = mix(h) & mask; slots[i] != 0; i = (i + 1) & mask) {
                if (same(str, slots[i], b, 0, b.length)) {
                    return slots[i];
                }
            }
            return 0;
        }
    }

    private static int mix(int h) {
        return h ^ (h >>> 16) ^ (h >>> 7);
    }

    /** Whether the NUL-terminated string at {@code off} of {@code str} is {@code b[from, from+len)}. */
    private static boolean same(byte[] str, int off, byte[] b, int from, int len) {
        int end = off + len;
        if (end > str.length || (end < str.length && str[end] != 0)) {
            return false;
        }
        return java.util.Arrays.equals(str, off, end, b, from, from + len);
    }
}
