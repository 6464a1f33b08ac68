package io.perfj.btf.encode;

import io.perfj.btf.wire.Header;
import io.perfj.btf.wire.Kinds;
import io.perfj.btf.wire.StringSectionBuilder;
import io.perfj.btf.wire.TypeSection;
import io.perfj.dwarf.info.DwarfInfo;
import io.perfj.dwarf.info.UnitHeader;
import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.perfj.btf.wire.Kinds.*;

/**
 * BTF from an ELF file's DWARF, like {@code pahole -J}: compile units are encoded in parallel,
 * numbered in unit order as pahole numbers them, variables are gathered into DATASECs, and the
 * whole is deduplicated with libbpf's algorithm ({@link BtfDedup}). The bytes do not depend on
 * the number of threads.
 */
public final class BtfEncoder {
    private static final boolean TIMING = Boolean.getBoolean("perfj.btf.timing");

    private BtfEncoder() {
    }

    private static final long BORN = System.nanoTime();

    /** With {@code -Dperfj.btf.timing=true}: when {@code what} happened, in ms since this class was loaded. */
    public static void mark(String what) {
        if (TIMING) {
            System.err.println("btf encode: at " + (System.nanoTime() - BORN) / 100_000 / 10.0 + " ms, " + what);
        }
    }

    private static void report(CuBtf cu, ElfFile elf, java.util.function.Consumer<String> warn) {
        if (cu != null) {
            for (String s : cu.skipped) {
                warn.accept(elf.name() + ": " + s);
            }
        }
    }

    /** Encodes {@code elf}'s DWARF and returns raw BTF (a {@code .BTF} section's contents). */
    public static byte[] encode(ElfFile elf, EncodeOptions options) {
        return encode(elf, options, w -> { });
    }

    /**
     * As {@link #encode(ElfFile, EncodeOptions)}, telling {@code warn} about each piece of DWARF
     * skipped because BTF cannot express it (as pahole warns), in unit order whatever the thread
     * count.
     */
    public static byte[] encode(ElfFile elf, EncodeOptions options, java.util.function.Consumer<String> warn) {
        return encode(elf, options, warn, null);
    }

    /**
     * As {@link #encode(ElfFile, EncodeOptions, java.util.function.Consumer)}; with a {@code base}
     * (a module on vmlinux's BTF, like {@code pahole --btf_base}) the result is split BTF: the
     * types are deduplicated against the base's, which stay as they are, numbered after its last
     * id, and only names the base lacks are in the string section, at offsets after the base's.
     */
    public static byte[] encode(ElfFile elf, EncodeOptions options, java.util.function.Consumer<String> warn,
                                SplitBase base) {
        mark("encode starts");
        long t0 = System.nanoTime();
        StringPool pool = new StringPool();
        // The base's types are copied into the table while the units are encoded (only merging
        // needs them).
        TypeSection baseTable = base == null ? null
                : TypeSection.chunked(1, base.wordGuess(), (int) Math.min(1 << 24, Math.max(1 << 10, base.wordGuess() / 8)));
        java.util.concurrent.CompletableFuture<Void> baseCopy = base == null ? null
                : new java.util.concurrent.CompletableFuture<>();
        // After the copy, the same thread makes what the dedup needs of the base (once per base).
        java.util.concurrent.CompletableFuture<Void> basePrep = base == null ? null
                : new java.util.concurrent.CompletableFuture<>();
        if (base != null) {
            daemon(() -> {
                try {
                    base.copyInto(baseTable);
                    mark("base copied");
                    baseCopy.complete(null);
                    base.prepare();
                    basePrep.complete(null);
                } catch (RuntimeException | Error e) {
                    baseCopy.completeExceptionally(e);
                    basePrep.completeExceptionally(e);
                }
            }, "btf-base");
        }
        // The symbol table is read while the DWARF sections are loaded.
        java.util.concurrent.CompletableFuture<ElfContext> ctxFuture = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> new ElfContext(elf, pool, options.vars()), r -> daemon(r, "btf-symbols"));
        DwarfInfo dwarf = DwarfInfo.of(elf);
        long tDwarf = System.nanoTime();
        mark("sections loaded");
        ElfContext ctx = join(ctxFuture);
        long tElf = System.nanoTime();
        if (TIMING) {
            System.err.printf("btf encode: sections %d ms, then symbols %d ms more%n", (tDwarf - t0) / 1_000_000,
                    (tElf - tDwarf) / 1_000_000);
        }
        // About one word of BTF per five bytes of .debug_info and one type per ten words (measured
        // on vmlinux); only the per-type array grows by copying.
        long guess = dwarf.infoSize() / 5;
        TypeSection table = baseTable != null ? baseTable : TypeSection.chunked(1, guess,
                (int) Math.min(Integer.MAX_VALUE / 4, Math.max(1 << 10, guess / 9)));
        Merger merger = new Merger(table, !ctx.funcNames.isEmpty(), pool.intern("int"),
                baseCopy == null ? null : () -> join(baseCopy));
        // names by .debug_str offset, unless each unit has its own strings (ld -r merges none)
        int[] strIds = elf.type() == io.perfj.elf.Elf.ET_REL && dwarf.debugStrBytes() != null ? null
                : new int[(int) dwarf.debugStrSize()];
        // Type units first, so units referring to their types by signature find them numbered.
        List<UnitHeader> units = new ArrayList<>(dwarf.units());
        units.sort((a, b) -> Boolean.compare(!a.isTypeUnit(), !b.isTypeUnit()));
        int threads = Math.max(1, Math.min(options.threads(), units.size()));
        if (threads == 1) {
            CuEncoder enc = new CuEncoder(dwarf, pool, ctx, options.vars(), strIds);
            for (UnitHeader u : units) {
                CuBtf cu = enc.encode(u);
                report(cu, elf, warn);
                merger.merge(cu);
            }
        } else {
            ExecutorService ex = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "btf-encode");
                t.setDaemon(true);
                return t;
            });
            ThreadLocal<CuEncoder> encoders = ThreadLocal.withInitial(
                    () -> new CuEncoder(dwarf, pool, ctx, options.vars(), strIds));
            try {
                // A bounded window of units in flight keeps memory flat while the merge catches up.
                int window = threads * 8;
                List<Future<CuBtf>> inFlight = new ArrayList<>();
                int next = 0;
                for (int i = 0; i < units.size(); i++) {
                    while (next < units.size() && next < i + window) {
                        UnitHeader u = units.get(next++);
                        inFlight.add(ex.submit(() -> encoders.get().encode(u)));
                    }
                    CuBtf cu = inFlight.get(i).get();
                    inFlight.set(i, null);
                    report(cu, elf, warn);
                    merger.merge(cu);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException re) {
                    throw re;
                }
                throw new IllegalStateException(e.getCause());
            } finally {
                ex.shutdownNow();
            }
        }
        if (baseCopy != null) {
            join(baseCopy);
        }
        int splitStart = base == null ? 1 : base.end();
        merger.finish();
        addDatasecs(table, pool, ctx, merger, options.vars());
        if (base != null) {
            // module names the base has become the base's (negative) numbers, so they compare equal
            int[] codes = base.codes(pool);
            for (int id = splitStart; id < table.end(); id++) {
                int[] w = table.words(id);
                Kinds.forEachName(w, table.pos(id), at -> w[at] = codes[w[at]]);
            }
        }
        long t1 = System.nanoTime();
        mark("units merged");
        if (table.end() == splitStart) {
            return raw(TypeSection.flat(splitStart, 0, 0), pool, elf.order(), base);
        }
        int before = table.end() - splitStart;
        if (basePrep != null) {
            join(basePrep);
            mark("base prepared");
        }
        DedupTable candidates = base == null ? null : base.candidates();
        mark("candidates copied");
        BtfDedup dedup = new BtfDedup(table, splitStart, candidates);
        mark("dedup made");
        TypeSection deduped = dedup.run();
        long t2 = System.nanoTime();
        mark("dedup done");
        byte[] out = raw(deduped, pool, elf.order(), base);
        if (TIMING) {
            System.err.printf("btf encode: %d units, %d types (%d words) before dedup, %d after; encode %d ms,"
                    + " dedup %d ms, write %d ms%n", units.size(), before, table.wordCount(), deduped.size(),
                    (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (System.nanoTime() - t2) / 1_000_000);
        }
        return out;
    }

    private static void daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    /** The task's result, its own exception rethrown as it was. */
    private static <T> T join(java.util.concurrent.CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /**
     * Raw BTF ({@code include/uapi/linux/btf.h}: the header, the type section, the string section)
     * of {@code types}, whose names are {@link StringPool} ids: strings are laid out in order of
     * first use by the types, after the empty string, each once.
     */
    static byte[] raw(TypeSection types, StringPool pool, ByteOrder order) {
        return raw(types, pool, order, null);
    }

    /**
     * As {@link #raw(TypeSection, StringPool, ByteOrder)}, split on {@code base} when it is not
     * null: a negative name is the base's string at that (negated) offset.
     */
    private static byte[] raw(TypeSection types, StringPool pool, ByteOrder order, SplitBase base) {
        StringSectionBuilder str = new StringSectionBuilder(base == null ? 0 : base.stringLength(), 1 << 16);
        int[] offsets = pool.layOut(types, str);
        byte[] strBytes = str.toByteArray();
        ByteBuffer out = Header.allocate(types.byteLength(), strBytes.length, order);
        if (base == null) {
            types.write(out, offsets);
        } else {
            // names become offsets in place (the section is the dedup's own result), then written as they are
            for (int id = types.first(); id < types.end(); id++) {
                int[] w = types.words(id);
                Kinds.forEachName(w, types.pos(id), at -> w[at] = w[at] < 0 ? -w[at] : offsets[w[at]]);
            }
            types.write(out, null);
        }
        out.put(strBytes);
        return out.array();
    }

    private static void addDatasecs(TypeSection t, StringPool pool, ElfContext ctx, Merger m, EncodeOptions.Vars vars) {
        if (m.varIds.size() == 0) {
            return;
        }
        // entries per section, sections in index order
        TreeMap<Integer, List<long[]>> bySection = new TreeMap<>();
        for (int i = 0; i < m.varIds.size(); i++) {
            bySection.computeIfAbsent(m.varShndx.get(i), k -> new ArrayList<>())
                    .add(new long[] {m.varOffset.get(i), m.varSize.get(i), m.varIds.get(i)});
        }
        for (var e : bySection.entrySet()) {
            List<long[]> entries = e.getValue();
            SectionHeader sh = ctx.sections.get(e.getKey());
            if (vars == EncodeOptions.Vars.PERCPU) {
                // pahole 1.24: qsort by offset, no other changes
                entries.sort((a, b) -> Long.compare(a[0], b[0]));
            } else {
                entries.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[2], b[2]));
                List<long[]> kept = new ArrayList<>();
                long end = 0;
                for (long[] x : entries) {
                    if (!kept.isEmpty() && x[0] < end) {
                        continue; // an alias or an overlap: the kernel rejects overlapping entries
                    }
                    kept.add(x);
                    end = x[0] + x[1];
                }
                entries = kept;
            }
            int n = entries.size();
            if (n > 0xffff) {
                throw new EncodeException("section " + sh.name() + " has more variables than a DATASEC can hold");
            }
            long[] last = entries.get(n - 1);
            int id = t.add(3 + 3 * n);
            int p = t.pos(id);
            int[] w = t.words(id);
            w[p] = pool.intern(sh.name());
            w[p + 1] = info(DATASEC, n, false);
            w[p + 2] = (int) (last[0] + last[1]);
            for (int i = 0; i < n; i++) {
                long[] x = entries.get(i);
                w[p + 3 + 3 * i] = (int) x[2];
                w[p + 4 + 3 * i] = (int) x[0];
                w[p + 5 + 3 * i] = (int) x[1];
            }
        }
    }

    /** Appends compile units in order, numbering their records as pahole's single encoder would. */
    static final class Merger {
        private final TypeSection t;
        private final boolean bySymbols;
        private final Set<Integer> generated = new HashSet<>();
        private boolean hasIndexType;
        private int indexType;
        final IntBuf varIds = new IntBuf(64);
        final IntBuf varShndx = new IntBuf(64);
        final IntBuf varSize = new IntBuf(64);
        final LongList varOffset = new LongList();

        private final int intName;
        /** Waits for the base's types to be in the table (split BTF), before the first merge; else null. */
        private Runnable awaitBase;

        Merger(TypeSection t, boolean bySymbols, int intName, Runnable awaitBase) {
            this.t = t;
            this.bySymbols = bySymbols;
            this.intName = intName;
            this.awaitBase = awaitBase;
        }

        /** Rewrites the type ids of the record at {@code p} from unit-local to global. */
        private final java.util.HashMap<Long, Integer> bySignature = new java.util.HashMap<>();
        private final IntBuf pendingPos = new IntBuf(16);
        private final LongList pendingSig = new LongList();

        /** Fills in references to type units that came later than the units using them. */
        void finish() {
            for (int i = 0; i < pendingPos.size(); i++) {
                Integer g = bySignature.get(pendingSig.get(i));
                t.set(pendingPos.get(i), g == null ? 0 : g);
            }
        }

        private static void remap(int[] w, int p, int[] map, int index) {
            int info = w[p + 1];
            int kind = kind(info);
            int vlen = vlen(info);
            if (sizeIsType(kind)) {
                w[p + 2] = local(w[p + 2], map, index);
            }
            switch (kind) {
                case ARRAY -> {
                    w[p + 3] = local(w[p + 3], map, index);
                    w[p + 4] = local(w[p + 4], map, index);
                }
                case STRUCT, UNION -> {
                    for (int i = 0, q = p + 4; i < vlen; i++, q += 3) {
                        w[q] = local(w[q], map, index);
                    }
                }
                case FUNC_PROTO -> {
                    for (int i = 0, q = p + 4; i < vlen; i++, q += 2) {
                        w[q] = local(w[q], map, index);
                    }
                }
                default -> {
                }
            }
        }

        private static int local(int v, int[] map, int index) {
            return v == CuBtf.INDEX_TYPE ? index : v <= 0 ? (v < CuBtf.INDEX_TYPE ? v : 0) : map[v];
        }

        private void copy(CuBtf cu, int r, int[] map, int index) {
            int s = cu.starts[r];
            int len = words(cu.words[s + 1]);
            int id = t.add(len);
            int p = t.pos(id);
            int[] w = t.words(id);
            System.arraycopy(cu.words, s, w, p, len);
            remap(w, p, map, index);
            if (cu.signatures.length > 0) {
                forEachTypeRef(w, p, at -> {
                    int v = w[at];
                    if (v < CuBtf.INDEX_TYPE) {
                        long sig = cu.signatures[-3 - v];
                        Integer g = bySignature.get(sig);
                        if (g == null) {
                            // a type unit not merged yet: patched at the end
                            pendingPos.add(t.address(id, at));
                            pendingSig.add(sig);
                            w[at] = 0;
                        } else {
                            w[at] = g;
                        }
                    }
                });
            }
        }

        void merge(CuBtf cu) {
            if (cu == null) {
                return;
            }
            if (awaitBase != null) {
                awaitBase.run();
                awaitBase = null;
            }
            int base = t.end() - 1;
            int index;
            boolean addInt = false;
            if (hasIndexType) {
                index = indexType;
            } else if (cu.intLocal > 0) {
                index = base + cu.intLocal;
                hasIndexType = true;
                indexType = index;
            } else {
                index = base + cu.nTypes + 1;
                if (cu.usesIndex) {
                    addInt = true;
                    hasIndexType = true;
                    indexType = index;
                }
            }
            int[] map = new int[cu.nRecords + 1];
            for (int i = 1; i <= cu.nTypes; i++) {
                map[i] = base + i;
            }
            int next = base + cu.nTypes + (addInt ? 1 : 0);
            boolean[] keep = new boolean[cu.nRecords];
            for (int g = 0; g < cu.nGroups; g++) {
                int from = cu.groupStart[g];
                int to = g + 1 < cu.nGroups ? cu.groupStart[g + 1] : cu.nRecords;
                int key = cu.groupKey[g];
                if (key >= 0 && bySymbols && !generated.add(key)) {
                    continue;
                }
                for (int r = from; r < to; r++) {
                    keep[r] = true;
                    map[r + 1] = ++next;
                }
            }
            for (int r = 0; r < cu.nTypes; r++) {
                copy(cu, r, map, index);
            }
            if (addInt) {
                int id = t.add(4);
                int p = t.pos(id);
                int[] w = t.words(id);
                w[p] = intName;
                w[p + 1] = info(INT, 0, false);
                w[p + 2] = 4;
                w[p + 3] = 1 << 24 | 32;
            }
            for (int r = cu.nTypes; r < cu.nRecords; r++) {
                if (keep[r]) {
                    copy(cu, r, map, index);
                }
            }
            if (cu.typeSignature != 0 && cu.typeLocal > 0) {
                bySignature.putIfAbsent(cu.typeSignature, map[cu.typeLocal]);
            }
            for (int i = 0; i < cu.nVars; i++) {
                int g = map[cu.varLocal[i]];
                if (g == 0) {
                    continue;
                }
                varIds.add(g);
                varShndx.add(cu.varShndx[i]);
                varSize.add(cu.varSize[i]);
                varOffset.add(cu.varOffset[i]);
            }
        }
    }

    static final class LongList {
        long[] a = new long[16];
        int n;

        void add(long v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        long get(int i) {
            return a[i];
        }
    }
}
