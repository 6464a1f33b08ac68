package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.io.FormatException;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
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
