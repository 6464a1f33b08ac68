package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.io.FormatException;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import io.perfj.testing.MutationMain;
import io.perfj.testing.Mutants;
import org.junit.jupiter.api.Test;

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
 * Corrupted {@code .eh_frame} / {@code .eh_frame_hdr} bytes of the hot fixture: truncated entries,
 * flipped bytes and absurd lengths must only ever surface as {@link FormatException}.
 */
class CfiMutationTest {

    private static byte[] hot() throws Exception {
        return Files.readAllBytes(Fixtures.file("bin/hot"));
    }

    private static SectionHeader section(byte[] image, String name) {
        try (ElfFile elf = ElfFile.of(image, "hot")) {
            return elf.section(name).orElseThrow();
        }
    }

    /** Everything a user of the API may do; returns how many calls failed with FormatException. */
    static int exercise(byte[] image, long seed) {
        int errors = 0;
        try (ElfFile elf = ElfFile.of(image, "mutant")) {
            CallFrameInfo cfi;
            try {
                cfi = CallFrameInfo.parse(elf);
            } catch (FormatException e) {
                return 1;
            }
            List<Fde> fdes = new ArrayList<>();
            try {
                fdes.addAll(cfi.fdes());
            } catch (FormatException e) {
                errors++;
            }
            Random r = new Random(seed);
            for (int i = 0; i < 64; i++) {
                long pc = 0x1000 + r.nextInt(0x400);
                try {
                    cfi.rowFor(pc);
                } catch (FormatException e) {
                    errors++;
                }
            }
            for (Fde f : fdes) {
                try {
                    cfi.rows(f);
                    cfi.rowFor(f, f.pcBegin());
                } catch (FormatException e) {
                    errors++;
                }
            }
        }
        return errors;
    }

    private static int rejected;

    /** The call frame sections of an image, as mutation ranges, and the address range its FDEs cover. */
    private static Mutants.Seed cfiSeed(String name, byte[] image) {
        List<Long> hot = new ArrayList<>();
        try (ElfFile elf = ElfFile.of(image, name)) {
            for (String sec : List.of(".eh_frame", ".eh_frame_hdr", ".debug_frame")) {
                elf.section(sec).ifPresent(s -> hot.addAll(List.of(s.offset(), s.offset() + s.size())));
            }
        }
        return new Mutants.Seed(name, image, hot.stream().mapToLong(Long::longValue).toArray());
    }

    /**
     * 10^5 mutants of the call frame information of a small executable (with and without its
     * .eh_frame_hdr index), libz and the vDSO: parsed, indexed, looked up at addresses inside and
     * around the FDEs, and the rows of some FDEs computed.
     */
    static MutationMain.Job job() throws Exception {
        List<Mutants.Seed> seeds = new ArrayList<>();
        seeds.add(cfiSeed("hot", hot()));
        seeds.add(cfiSeed("hot without .eh_frame_hdr", withoutHeader(hot())));
        for (String[] m : new String[][] {{"/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", "elf"}, {"[vdso]", "vdso"}}) {
            Path p = BuildIdCacheFixture.member(m[0], m[1]).orElseThrow(() -> new AssertionError("no " + m[0] + " in the build-id cache fixture"));
            seeds.add(cfiSeed(m[0], Files.readAllBytes(p)));
        }
        java.util.Map<String, long[]> ranges = new java.util.HashMap<>();
        for (Mutants.Seed s : seeds) {
            try (ElfFile elf = ElfFile.of(s.bytes(), s.name())) {
                List<Fde> f = CallFrameInfo.parse(elf).fdes();
                ranges.put(s.name(), new long[] {f.getFirst().pcBegin(), f.getLast().pcEnd()});
            }
        }
        return new MutationMain.Job(new Mutants("cfi", 0x5eed_0004L, seeds, 10_000), m -> {
            long[] range = ranges.get(m.seed().name());
            if (lookups(m.bytes(), range[0], range[1], m.index()) > 0) {
                throw new FormatException("mutant", "CFI", -1, "refused");
            }
        });
    }

    /** What a sample's unwinding does; returns how many calls failed with FormatException. */
    private static int lookups(byte[] image, long lo, long hi, long seed) {
        int errors = 0;
        try (ElfFile elf = ElfFile.of(image, "mutant")) {
            CallFrameInfo cfi = CallFrameInfo.parse(elf);
            List<Fde> fdes = new ArrayList<>();
            try {
                fdes.addAll(cfi.fdes());
            } catch (FormatException e) {
                errors++;
            }
            Random r = new Random(seed);
            for (int i = 0; i < 48; i++) {
                long pc = lo - 16 + (long) (r.nextDouble() * (hi - lo + 32));
                try {
                    cfi.rowFor(pc);
                } catch (FormatException e) {
                    errors++;
                }
            }
            for (int i = 0; i < Math.min(16, fdes.size()); i++) {
                Fde f = fdes.get(r.nextInt(fdes.size()));
                try {
                    cfi.rows(f);
                    cfi.rowFor(f, f.pcBegin());
                } catch (FormatException e) {
                    errors++;
                }
            }
        } catch (FormatException e) {
            errors++;
        }
        return errors;
    }

    @Test
    void hundredThousandMutantsFailOnlyWithFormatException() {
        MutationMain.inChildJvm(CfiMutationTest.class, Mutants.count(100_000));
    }

    private static void check(byte[] mutant, String what, long seed) {
        try {
            if (exercise(mutant, seed) > 0) {
                rejected++;
            }
        } catch (FormatException e) {
            rejected++;
        } catch (Throwable t) {
            fail(what + ": " + t, t);
        }
    }

    @Test
    void pristineFileHasNoErrors() throws Exception {
        byte[] img = hot();
        assertTrue(exercise(img, 1) == 0);
    }

    @Test
    void flippedBytes() throws Exception {
        rejected = 0;
        byte[] img = hot();
        Random r = new Random(42);
        for (String name : List.of(".eh_frame", ".eh_frame_hdr")) {
            SectionHeader s = section(img, name);
            for (int i = 0; i < 3000; i++) {
                byte[] m = img.clone();
                int flips = 1 + r.nextInt(4);
                for (int k = 0; k < flips; k++) {
                    int at = (int) (s.offset() + r.nextInt((int) s.size()));
                    m[at] = (byte) (r.nextBoolean() ? r.nextInt(256) : m[at] ^ (1 << r.nextInt(8)));
                }
                check(m, name + " flip #" + i, i);
            }
        }
        // the mutants must actually reach the parser's checks
        assertTrue(rejected > 500, "only " + rejected + " of 6000 mutants were rejected");
    }

    /** The image with .eh_frame_hdr renamed, so the index is built by walking .eh_frame. */
    private static byte[] withoutHeader(byte[] img) {
        byte[] m = img.clone();
        byte[] name = ".eh_frame_hdr".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int i = 0; i + name.length <= m.length; i++) {
            if (Arrays.equals(m, i, i + name.length, name, 0, name.length)) {
                m[i + name.length - 1] = 'X';
            }
        }
        try (ElfFile elf = ElfFile.of(m, "hot")) {
            assertTrue(elf.section(".eh_frame_hdr").isEmpty());
        }
        return m;
    }

    @Test
    void everyByteOfEhFrameSetToExtremes() throws Exception {
        everyByteSetToExtremes(hot());
    }

    @Test
    void everyByteOfEhFrameSetToExtremesWithoutHeader() throws Exception {
        byte[] img = withoutHeader(hot());
        assertTrue(exercise(img, 1) == 0);
        everyByteSetToExtremes(img);
    }

    private static void everyByteSetToExtremes(byte[] img) {
        SectionHeader s = section(img, ".eh_frame");
        for (int at = (int) s.offset(); at < s.offset() + s.size(); at++) {
            for (int v : new int[] {0x00, 0x7f, 0x80, 0xff}) {
                byte[] m = img.clone();
                m[at] = (byte) v;
                check(m, "byte 0x" + Integer.toHexString(at) + "=" + v, at);
            }
        }
    }

    @Test
    void absurdLengthsAtEveryWord() throws Exception {
        byte[] img = hot();
        for (String name : List.of(".eh_frame", ".eh_frame_hdr")) {
            SectionHeader s = section(img, name);
            for (int at = (int) s.offset(); at + 4 <= s.offset() + s.size(); at++) {
                for (int v : new int[] {0xffffffff, 0xfffffff0, 0x7fffffff, 0x80000000, 0x10000, 1}) {
                    byte[] m = img.clone();
                    ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
                    check(m, name + " word 0x" + Integer.toHexString(at) + "=" + Integer.toHexString(v), at);
                }
            }
        }
    }

    @Test
    void truncatedSections() throws Exception {
        byte[] img = hot();
        for (String name : List.of(".eh_frame", ".eh_frame_hdr")) {
            SectionHeader s = section(img, name);
            // shrink the section's size field so entries run past its end
            try (ElfFile elf = ElfFile.of(img, "hot")) {
                long shoff = elf.header().shoff();
                int entsize = 64;
                int sizeField = (int) (shoff + (long) s.index() * entsize + 32);
                for (long size = 0; size < s.size(); size++) {
                    byte[] m = img.clone();
                    ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putLong(sizeField, size);
                    check(m, name + " size " + size, size);
                }
            }
        }
        // and the file cut off in the middle of .eh_frame
        SectionHeader eh = section(img, ".eh_frame");
        for (long cut = eh.offset(); cut < eh.offset() + eh.size(); cut += 7) {
            byte[] m = Arrays.copyOf(img, (int) cut);
            try {
                exercise(m, cut);
            } catch (FormatException e) {
                // fine
            } catch (Throwable t) {
                fail("cut at " + cut + ": " + t, t);
            }
        }
    }
}
