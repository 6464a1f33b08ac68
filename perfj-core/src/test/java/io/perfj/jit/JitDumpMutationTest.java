package io.perfj.jit;

import io.perfj.testing.Fixtures;
import io.perfj.testing.Mutants;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged jitdumps (flipped bits, extreme sizes and counts, cuts, blocks moved): the reader and
 * everything the session asks of its result (codes, code bytes, source positions, perf inject's
 * file names) only ever fail with a FormatException; a cut file is a warning, never an error.
 */
class JitDumpMutationTest {

    /** The header and the first records of node's dump, cut at a record boundary. */
    private static byte[] nodePrefix() throws IOException {
        Path file;
        try (var s = Files.list(Fixtures.file("jitdump"))) {
            file = s.filter(p -> p.getFileName().toString().endsWith(".dump")).findFirst().orElseThrow();
        }
        JitDump d = JitDump.read(file);
        long cut = d.records().size() > 60 ? d.records().get(60).offset() : Files.size(file);
        return Arrays.copyOf(Files.readAllBytes(file), (int) cut);
    }

    private static long[] structure(byte[] b) {
        JitDump d = JitDump.parse(b, "seed");
        List<Long> r = new ArrayList<>(List.of(0L, (long) JitDump.HEADER_SIZE));
        for (JitRecord x : d.records()) {
            long end = x instanceof JitRecord.CodeLoad l ? l.codeOffset() : x.offset() + 64;
            r.addAll(List.of(x.offset(), end));
        }
        return r.stream().mapToLong(Long::longValue).toArray();
    }

    private static void exercise(byte[] bytes) {
        JitDump d = JitDump.parse(bytes, "jit-1.dump");
        for (JitCode c : d.codes()) {
            c.code();
            c.lineAt(c.codeAddr());
            c.lineAt(c.codeAddr() + c.codeSize() / 2);
            JitCode.fileName("/tmp/jit-1.dump", c.pid(), c.index());
        }
        d.requireIntact();
    }

    @Test
    void mutantsFailOnlyWithFormatException() throws IOException {
        List<Mutants.Seed> seeds = new ArrayList<>();
        int k = 0;
        for (byte[] b : List.of(nodePrefix(),
                new JitDumpBuilder(ByteOrder.LITTLE_ENDIAN, 7).debug(1, 0x10, 0x10L, 3, "a.js", 0x12L, 4, null)
                        .load(1, 0x10, "JS:f", new byte[] {(byte) 0x90, (byte) 0xc3}, 1).unwinding(2, 16, 8, 32)
                        .load(3, 0x40, "JS:g", new byte[] {(byte) 0xc3}, 2).move(4, 0x40, 0x80, 1, 2).close(5).bytes(),
                new JitDumpBuilder(ByteOrder.BIG_ENDIAN, 8).debug(1, 0x10, 0x10L, 3, "b.js")
                        .load(1, 0x10, "JS:h", new byte[] {(byte) 0xc3}, 1).raw(77, 32, 2).bytes())) {
            seeds.add(new Mutants.Seed("jitdump seed " + k++, b, structure(b)));
        }
        Mutants.Outcome o = new Mutants("jitdump", 0x5eed_0013L, seeds, 10_000)
                .run(Mutants.count(10_000), m -> exercise(m.bytes()));
        assertTrue(o.rejected() > 0 && o.rejected() < o.mutants(), o.toString());
    }
}
