package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link InlineChains}' decoding of ranges, line programs and inlined subroutines on the
 * fixtures' objects (answers binutils' addr2line gives), and corrupt DWARF failing only as
 * {@link InlineChains.Unanswerable}.
 */
class InlineChainsTest {
    private static List<String> lines(String object, long pc) {
        try (ElfFile elf = ElfFile.open(Fixtures.file(object))) {
            List<InlineChains.Level> levels = InlineChains.open(elf).orElseThrow().levels(pc);
            if (levels == null) {
                return null;
            }
            List<String> out = new ArrayList<>();
            for (InlineChains.Level l : levels) {
                out.add(l.function() + " " + l.place());
            }
            return out;
        }
    }

    @Test
    void dwarf5RangeListsAndInlinedSubroutines() {
        // gcc 12, DWARF 5: the unit's ranges in .debug_rnglists; mix inlined in churn
        assertEquals(List.of("mix ./src/srcline/mix.h:5", "churn ./src/srcline/srcline.c:14"),
                lines("bin/srcline", 0x401020));
    }

    @Test
    void aDiscriminatorIsPrintedAsBinutilsDoes() {
        assertEquals(List.of("fold ./src/srcline/srcline.c:22 (discriminator 3)"), lines("bin/srcline", 0x401068));
    }

    @Test
    void dwarf4DebugRangesAndClangDwarf5() {
        for (String[] c : new String[][] {{"btf-encode/bin/gcc-dwarf4", "1260", "31"},
            {"btf-encode/bin/clang-dwarf5", "120b", "37"}}) {
            List<String> l = lines(c[0], Long.parseLong(c[1], 16));
            assertEquals(2, l.size(), l.toString());
            assertTrue(l.get(0).startsWith("inl /") && l.get(0).endsWith("/btf-encode/src/second.c:" + c[2]), l.toString());
            assertTrue(l.get(1).startsWith("walk /") && l.get(1).endsWith("/btf-encode/src/second.c:38"), l.toString());
        }
    }

    @Test
    void aSeparateDebugFileNamesTheInlinedFunction() {
        assertEquals(List.of("mix_block ./src/debuglink/dlprog.c:19", "main ./src/debuglink/dlprog.c:42"),
                lines("debuglink/opt/perfj-debuglink/beside/dlprog.debug", 0x1150));
    }

    @Test
    void anAddressOutsideEverySectionIsNotFound() {
        assertNull(lines("bin/srcline", 0x10));
        try (ElfFile elf = ElfFile.open(Fixtures.file("bin/srcline"))) {
            InlineChains c = InlineChains.open(elf).orElseThrow();
            assertEquals("0x0000000000000010\n??\n??:0\n", c.answer(0x10));
        }
    }

    @Test
    void aFileWithoutItsOwnDwarfIsLeftToAddr2line() {
        // addr2line follows its .gnu_debuglink: not this reader
        try (ElfFile elf = ElfFile.open(Fixtures.file("debuglink/opt/perfj-debuglink/beside/dlprog"))) {
            assertTrue(InlineChains.open(elf).isEmpty());
        }
    }

    @Test
    void levelsPrintAsAddr2line() {
        assertEquals("a.c:3", new InlineChains.Level("f", "a.c", 3, 0).place());
        assertEquals("a.c:3 (discriminator 2)", new InlineChains.Level("f", "a.c", 3, 2).place());
        assertEquals("??:?", new InlineChains.Level(null, null, 0, 2).place());
    }

    @Test
    void rangesMergeAsBinutilsArangeAdd() {
        InlineChains.Ranges r = new InlineChains.Ranges();
        r.add(0x10, 0x10); // empty: dropped
        assertTrue(r.isEmpty());
        r.add(0x10, 0x20);
        r.add(0x20, 0x30); // touching: the first grows
        r.add(0x50, 0x60); // inserted after the first
        r.add(0x40, 0x50); // touching the second from below
        r.add(0x80, 0x90);
        assertEquals(3, r.n);
        assertEquals(List.of(0x10L, 0x30L, 0x80L, 0x90L, 0x40L, 0x60L),
                List.of(r.low[0], r.high[0], r.low[1], r.high[1], r.low[2], r.high[2]));
        assertTrue(r.contains(0x2f) && r.contains(0x40) && !r.contains(0x30) && !r.contains(0x60));
    }

    /** Random bytes of the DWARF sections changed: an answer or Unanswerable, never another exception. */
    @Test
    void corruptDwarfIsUnanswerableNeverAnException() throws Exception {
        byte[] good = Files.readAllBytes(Fixtures.file("bin/srcline"));
        long[] ranges;
        try (ElfFile elf = ElfFile.of(good, "srcline")) {
            ranges = elf.sections().stream().filter(s -> s.name().startsWith(".debug_") && s.size() > 0)
                    .flatMapToLong(s -> java.util.stream.LongStream.of(s.offset(), s.offset() + s.size()))
                    .toArray();
        }
        long[] pcs = {0x401020, 0x401068, 0x401000, 0x4010f0, 0x401130};
        Random rnd = new Random(7);
        int[] outcomes = new int[2]; // rounds answered throughout, rounds cut short by Unanswerable
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int round = 0; round < 400; round++) {
                byte[] b = good.clone();
                int s = rnd.nextInt(ranges.length / 2);
                long from = ranges[2 * s];
                long to = ranges[2 * s + 1];
                for (int k = 1 + rnd.nextInt(8); k > 0; k--) {
                    b[(int) (from + rnd.nextLong(to - from))] = (byte) rnd.nextInt(256);
                }
                try (ElfFile elf = ElfFile.of(b, "srcline-" + round)) {
                    InlineChains c = InlineChains.open(elf).orElse(null);
                    if (c == null) {
                        continue;
                    }
                    int outcome = 0;
                    for (long pc : pcs) {
                        try {
                            c.answer(pc);
                        } catch (InlineChains.Unanswerable e) {
                            outcome = 1; // the caller asks addr2line from here on
                            break;
                        }
                    }
                    outcomes[outcome]++;
                } catch (RuntimeException e) {
                    fail("round " + round + ": " + e, e);
                }
            }
        });
        assertTrue(outcomes[0] > 20 && outcomes[1] > 20, "answered / unanswerable rounds: " + outcomes[0] + " / " + outcomes[1]);
    }
}
