package io.perfj.btf.encode;

import io.perfj.btf.BtfWords;
import io.perfj.btf.wire.Kinds;
import io.perfj.btf.wire.StringSection;
import io.perfj.btf.wire.TypeSection;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * The base BTF a module's split BTF is encoded on (usually vmlinux's): its types go into the
 * encoder's table first, names turned into {@link StringPool} ids, so the module's types are
 * numbered after them and deduplicated against them as libbpf does for split BTF; each base
 * string keeps its base offset, which a module string equal to it uses.
 */
public final class SplitBase {
    private final BtfWords words;

    private SplitBase(BtfWords words) {
        this.words = words;
    }

    /** Loads raw BTF or an ELF's {@code .BTF} as a base, checking every record as the reader does. */
    public static SplitBase load(Path file) {
        BtfWords w = BtfWords.load(file, null);
        w.check(w.firstId(), w.end());
        return new SplitBase(w);
    }

    /** The first id the split BTF defines (one past the base's last). */
    int end() {
        return words.end();
    }

    /** The length of the base's string section: a split's own offsets start there. */
    int stringLength() {
        return words.strings().length();
    }

    long wordCount() {
        return words.types().wordCount();
    }

    /**
     * Appends the base's records to {@code table} (empty, ids from 1) with names as pool ids and
     * returns each pool id's offset in the base's strings (-1 for ids that are not base strings).
     */
    int[] copyInto(TypeSection table, StringPool pool) {
        TypeSection src = words.types();
        StringSection strings = words.strings();
        int[] poolIdAt = new int[strings.length() + 1];
        Arrays.fill(poolIdAt, -1);
        for (int id = src.first(); id < src.end(); id++) {
            int[] sw = src.words(id);
            int sp = src.pos(id);
            int len = Kinds.words(sw[sp + 1]);
            int nid = table.add(len);
            if (nid != id) {
                throw new IllegalStateException("the base must be copied into an empty table");
            }
            int[] w = table.words(nid);
            int p = table.pos(nid);
            System.arraycopy(sw, sp, w, p, len);
            Kinds.forEachName(w, p, at -> {
                int off = w[at];
                int pid = poolIdAt[off];
                if (pid < 0) {
                    pid = pool.intern(strings.get(off));
                    poolIdAt[off] = pid;
                }
                w[at] = pid;
            });
        }
        int[] offsetOf = new int[pool.size()];
        Arrays.fill(offsetOf, -1);
        offsetOf[0] = 0;
        for (int off = 0; off < poolIdAt.length; off++) {
            int pid = poolIdAt[off];
            if (pid > 0 && offsetOf[pid] < 0) {
                offsetOf[pid] = off;
            }
        }
        return offsetOf;
    }
}
