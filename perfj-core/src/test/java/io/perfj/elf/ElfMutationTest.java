package io.perfj.elf;

import io.perfj.io.FormatException;
import io.perfj.symbols.ElfSymbols;
import io.perfj.symbols.Kallsyms;
import io.perfj.symbols.PerfMap;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import io.perfj.testing.MutationMain;
import io.perfj.testing.Mutants;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Corrupted inputs: truncations, flipped bytes and absurd header/section fields must only ever
 * produce a FormatException from the ELF reader (never IndexOutOfBounds, NegativeArraySize,
 * OutOfMemory, ...), and only warnings from the text parsers.
 */
class ElfMutationTest {

    private static List<byte[]> seeds() throws IOException {
        List<byte[]> out = new ArrayList<>();
        out.add(Files.readAllBytes(Fixtures.file("bin/hot")));
        out.add(new ElfBuilder(false, ByteOrder.BIG_ENDIAN).sym("f", 0x401010, 16, Elf.STT_FUNC, Elf.STB_GLOBAL).build());
        out.add(new ElfBuilder(true, ByteOrder.LITTLE_ENDIAN).sym("g", 0x401010, 16, Elf.STT_FUNC, Elf.STB_GLOBAL).build());
        out.add(read(BuildIdCacheFixture.member("[vdso]", "vdso").orElseThrow()));
        out.add(read(BuildIdCacheFixture.member("/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", "elf").orElseThrow()));
        return out;
    }

    /** The ranges of an image where its structure is: headers, tables, symbols, strings, notes. */
    static long[] structure(byte[] image) {
        List<Long> r = new ArrayList<>(List.of(0L, 64L));
        try (ElfFile elf = ElfFile.of(image, "seed")) {
            ElfHeader h = elf.header();
            r.addAll(List.of(h.phoff(), h.phoff() + (long) h.phnum() * h.phentsize()));
            r.addAll(List.of(h.shoff(), h.shoff() + (long) h.shnum() * h.shentsize()));
            for (SectionHeader sh : elf.sections()) {
                if (sh.name().matches("\\.(symtab|dynsym|strtab|dynstr|shstrtab|dynamic|gnu\\.version.*|note.*|gnu_debuglink|gnu_debugdata|rela?\\.plt|plt.*)")) {
                    r.addAll(List.of(sh.offset(), sh.offset() + Math.min(sh.size(), 1 << 16)));
                }
            }
        }
        return r.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * 10^5 mutants of the ELF seeds (a small executable, hand-built 32- and 64-bit images of both
     * byte orders, the vDSO, libz and two BPF objects), read as every reader of ELF does.
     */
    static MutationMain.Job job() throws IOException {
        List<Mutants.Seed> seeds = new ArrayList<>();
        int k = 0;
        List<byte[]> images = new ArrayList<>(seeds());
        images.add(read(Fixtures.dir().resolve("bin/prog.bpf.o")));
        images.add(read(Fixtures.dir().resolve("btf/obj/maps.bpf.o")));
        for (byte[] image : images) {
            seeds.add(new Mutants.Seed("elf seed " + k++, image, structure(image)));
        }
        return new MutationMain.Job(new Mutants("elf", 0x5eed_0003L, seeds, 10_000), m -> {
            if (exercise(m.bytes()) > 0) {
                throw new FormatException("mutant", "ELF", -1, "refused");
            }
        });
    }

    @Test
    void hundredThousandMutantsFailOnlyWithFormatException() {
        MutationMain.inChildJvm(ElfMutationTest.class, Mutants.count(100_000));
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Everything a reader may do with a file; returns how many of those calls were refused. */
    private static int exercise(byte[] image) {
        try (ElfFile elf = ElfFile.of(image, "mutant")) {
            int refused = 0;
            for (SectionHeader s : elf.sections()) {
                refused += tryIt(() -> elf.sectionData(s));
            }
            refused += tryIt(elf::symtab);
            refused += tryIt(elf::dynsym);
            refused += tryIt(elf::notes);
            refused += tryIt(elf::buildId);
            refused += tryIt(elf::debugLink);
            refused += tryIt(elf::debugData);
            refused += tryIt(() -> ElfSymbols.loadUser(elf, null, List.of()));
            refused += tryIt(() -> ElfSymbols.loadUser(elf, null, List.of(), io.perfj.compat.PerfSymbolTree.RULES,
                    io.perfj.symbols.Demangling.PERF_6_1));
            return refused;
        } catch (FormatException e) {
            return 1;
        }
    }

    private static int tryIt(java.util.function.Supplier<?> s) {
        try {
            s.get();
            return 0;
        } catch (FormatException e) {
            return 1;
        }
    }

    private static void check(byte[] image, String what) {
        try {
            exercise(image);
        } catch (RuntimeException | Error e) {
            fail(what + ": " + e, e);
        }
    }

    @Test
    void truncations() throws IOException {
        for (byte[] seed : seeds()) {
            int step = Math.max(1, seed.length / 400);
            for (int len = 0; len < seed.length; len += step) {
                check(Arrays.copyOf(seed, len), "truncated to " + len);
            }
        }
    }

    @Test
    void flippedBytes() throws IOException {
        Random rnd = new Random(42);
        for (byte[] seed : seeds()) {
            for (int round = 0; round < 300; round++) {
                byte[] m = seed.clone();
                int flips = 1 + rnd.nextInt(8);
                for (int i = 0; i < flips; i++) {
                    // bias towards the headers and tables, where the structure is
                    int at = rnd.nextInt(4) == 0 ? rnd.nextInt(Math.min(m.length, 256)) : rnd.nextInt(m.length);
                    m[at] ^= (byte) (1 + rnd.nextInt(255));
                }
                check(m, "round " + round);
            }
        }
    }

    @Test
    void absurdFields() throws IOException {
        long[] absurd = {0, 1, 0x7f, 0xffff, 0x7fff_ffffL, 0xffff_ffffL, Long.MAX_VALUE, -1, -64};
        for (byte[] seed : seeds()) {
            ElfHeader h;
            List<SectionHeader> secs;
            try (ElfFile elf = ElfFile.of(seed, "seed")) {
                h = elf.header();
                secs = elf.sections();
            }
            boolean is64 = h.is64();
            ByteOrder order = h.order();
            // header fields: phoff, shoff, phnum, shnum, shstrndx, entsizes
            int[][] headerFields = is64
                    ? new int[][]{{32, 8}, {40, 8}, {54, 2}, {56, 2}, {58, 2}, {60, 2}, {62, 2}}
                    : new int[][]{{28, 4}, {32, 4}, {42, 2}, {44, 2}, {46, 2}, {48, 2}, {50, 2}};
            for (int[] f : headerFields) {
                for (long v : absurd) {
                    check(patch(seed, order, f[0], f[1], v), "header @" + f[0] + "=" + v);
                }
            }
            // every section header field
            int shentsize = h.shentsize();
            int[][] secFields = is64
                    ? new int[][]{{0, 4}, {4, 4}, {8, 8}, {24, 8}, {32, 8}, {40, 4}, {44, 4}, {56, 8}}
                    : new int[][]{{0, 4}, {4, 4}, {8, 4}, {16, 4}, {20, 4}, {24, 4}, {28, 4}, {36, 4}};
            for (SectionHeader s : secs) {
                long base = h.shoff() + (long) s.index() * shentsize;
                for (int[] f : secFields) {
                    for (long v : absurd) {
                        check(patch(seed, order, (int) (base + f[0]), f[1], v), s.name() + " @" + f[0] + "=" + v);
                    }
                }
            }
        }
    }

    private static byte[] patch(byte[] seed, ByteOrder order, int off, int width, long v) {
        byte[] m = seed.clone();
        if (off < 0 || off + width > m.length) {
            return m;
        }
        ByteBuffer b = ByteBuffer.wrap(m).order(order);
        switch (width) {
            case 2 -> b.putShort(off, (short) v);
            case 4 -> b.putInt(off, (int) v);
            default -> b.putLong(off, v);
        }
        return m;
    }

    @Test
    void textParsersOnlyWarn() throws IOException {
        Random rnd = new Random(7);
        byte[] map = Files.readAllBytes(Fixtures.file("perf-maps/perf-9690.map"));
        byte[] kall = Files.readAllBytes(BuildIdCacheFixture.member("[kernel.kallsyms]", "kallsyms").orElseThrow());
        kall = Arrays.copyOf(kall, 200_000);
        for (int round = 0; round < 200; round++) {
            byte[] m = map.clone();
            byte[] k = kall.clone();
            for (int i = 0; i < 20; i++) {
                m[rnd.nextInt(m.length)] = (byte) rnd.nextInt(256);
                k[rnd.nextInt(k.length)] = (byte) rnd.nextInt(256);
            }
            int cut = rnd.nextInt(m.length);
            PerfMap pm = PerfMap.parse(Arrays.copyOf(m, cut), "map");
            assertTrue(pm.badLines() == 0 || pm.warning() != null);
            Kallsyms ks = Kallsyms.parse(Arrays.copyOf(k, rnd.nextInt(k.length)), "kallsyms");
            assertTrue(ks.badLines() == 0 || ks.warning() != null);
        }
        byte[] junk = new byte[100_000];
        rnd.nextBytes(junk);
        PerfMap.parse(junk, "junk");
        Kallsyms.parse(junk, "junk");
    }
}
