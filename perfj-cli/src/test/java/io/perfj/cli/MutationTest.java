package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Damages every fixture in many ways (truncations, byte flips, size and count fields set to 0,
 * small, huge) and runs {@code header}, {@code header -I}, {@code dump} and {@code dump --stats} on
 * each mutant, and {@code report} (text and JSON) and {@code script} without this machine's
 * files. Allowed outcomes: success (exit 0, perhaps with warnings) or a one-line format
 * error (exit 2). Anything else — another exception, a stack trace, an OutOfMemoryError — fails.
 */
class MutationTest {
    static final List<String> NAMES = Fixtures.RECORDINGS;
    static final int MUTANTS = Integer.getInteger("perfj.mutants", 24);

    @TempDir
    static Path tmp;

    static final java.util.concurrent.atomic.AtomicInteger REJECTED = new java.util.concurrent.atomic.AtomicInteger();
    static final java.util.concurrent.atomic.AtomicInteger WARNED = new java.util.concurrent.atomic.AtomicInteger();

    /** Both outcomes must actually occur, or the mutants are not reaching the parsers. */
    @org.junit.jupiter.api.AfterAll
    static void bothOutcomesHappened() {
        assertTrue(REJECTED.get() > 100, "only " + REJECTED.get() + " runs ended in a format error");
        assertTrue(WARNED.get() > 20, "only " + WARNED.get() + " runs warned about damage");
    }

    record Mutant(String name, byte[] data) {
    }

    @TestFactory
    Stream<DynamicTest> everyMutantGivesATypedOutcome() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (String name : NAMES) {
            Path f = Fixtures.recording(name);
            byte[] orig = Files.readAllBytes(f);
            for (Mutant m : mutants(name, orig, new Random(name.hashCode()))) {
                tests.add(DynamicTest.dynamicTest(m.name(), () -> check(m)));
            }
        }
        return tests.stream();
    }

    static List<Mutant> mutants(String name, byte[] orig, Random rnd) {
        List<Mutant> out = new ArrayList<>();
        ByteBuffer le = ByteBuffer.wrap(orig).order(ByteOrder.LITTLE_ENDIAN);
        boolean pipe = le.getLong(8) == 16;
        long dataOff = pipe ? 16 : le.getLong(40);
        long dataSize = pipe ? orig.length - 16 : le.getLong(48);
        int[] cuts = {0, 7, 15, 16, 60, 103, 104, 200, (int) dataOff + 3, (int) (dataOff + dataSize / 2),
                (int) (dataOff + dataSize - 1), (int) (dataOff + dataSize + 8), orig.length - 1};
        for (int c : cuts) {
            if (c >= 0 && c < orig.length) {
                out.add(new Mutant(name + " truncated at " + c, java.util.Arrays.copyOf(orig, c)));
            }
        }
        if (!pipe) {
            out.add(field(name, orig, 48, 0, "data size 0"));
            out.add(field(name, orig, 48, Long.MAX_VALUE, "data size huge"));
            out.add(field(name, orig, 40, orig.length + 100L, "data offset past end"));
            out.add(field(name, orig, 16, 1L << 40, "attr size huge"));
            out.add(field(name, orig, 32, 1L << 40, "attrs size huge"));
            out.add(field(name, orig, 24, -1L, "attrs offset -1"));
            long featTable = dataOff + dataSize;
            for (int i = 0; i < 6 && featTable + 16L * i + 16 <= orig.length; i++) {
                int at = (int) (featTable + 16L * i);
                out.add(field(name, orig, at + 8, 1L << 33, "feature " + i + " size huge"));
                long sec = le.getLong(at);
                if (sec > 0 && sec + 4 <= orig.length) {
                    byte[] b = orig.clone();
                    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt((int) sec, -1);
                    out.add(new Mutant(name + " feature " + i + " first u32 = 0xffffffff", b));
                }
            }
            // Every feature section's leading count set absurd.
            for (int i = 0; i < 40 && featTable + 16L * i + 16 <= orig.length; i++) {
                int at = (int) (featTable + 16L * i);
                long sec = le.getLong(at);
                long len = le.getLong(at + 8);
                if (sec > 0 && len >= 8 && sec < orig.length && len < orig.length && sec + len <= orig.length) {
                    byte[] b = orig.clone();
                    int pos = (int) (sec + rnd.nextLong(Math.max(1, len - 4)));
                    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(pos, rnd.nextBoolean() ? -1 : 0x7fffffff);
                    out.add(new Mutant(name + " feature section " + i + " u32 at " + pos + " absurd", b));
                }
            }
        }
        // Record size fields: walk the first records and damage some.
        List<Integer> recs = new ArrayList<>();
        long p = dataOff;
        while (p + 8 <= Math.min(orig.length, dataOff + dataSize) && recs.size() < 4000) {
            int size = le.getShort((int) p + 6) & 0xffff;
            if (size < 8) {
                break;
            }
            recs.add((int) p);
            p += size;
        }
        int[] sizes = {0, 7, 8, 9, 0xffff};
        for (int k = 0; k < Math.min(MUTANTS, recs.size()); k++) {
            int at = recs.get(rnd.nextInt(recs.size()));
            byte[] b = orig.clone();
            int s = sizes[k % sizes.length];
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(at + 6, (short) s);
            out.add(new Mutant(name + " record at " + at + " size " + s, b));
            byte[] c = orig.clone();
            int len = le.getShort(at + 6) & 0xffff;
            int word = at + 8 + 8 * rnd.nextInt(Math.max(1, (len - 8) / 8));
            if (word + 8 <= c.length) {
                ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putLong(word, rnd.nextBoolean() ? -1L : 0x7fff_ffff_ffffL);
                out.add(new Mutant(name + " record at " + at + " word at " + word + " absurd", c));
            }
        }
        for (int k = 0; k < MUTANTS; k++) {
            byte[] b = orig.clone();
            int flips = 1 + rnd.nextInt(16);
            for (int i = 0; i < flips; i++) {
                int pos = rnd.nextInt(b.length);
                b[pos] ^= (byte) (1 << rnd.nextInt(8));
            }
            out.add(new Mutant(name + " " + flips + " random bit flips #" + k, b));
        }
        return out;
    }

    static Mutant field(String name, byte[] orig, int off, long value, String what) {
        byte[] b = orig.clone();
        if (off + 8 <= b.length) {
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(off, value);
        }
        return new Mutant(name + " " + what, b);
    }

    static void check(Mutant m) throws IOException {
        Path f = Files.createTempFile(tmp, "mut", ".data");
        Files.write(f, m.data());
        for (String[] args : new String[][] {
                {"header", "-i", f.toString()}, {"header", "-I", "-i", f.toString()},
                {"dump", "-i", f.toString(), "--no-system-files"}, {"dump", "--stats", "-i", f.toString()},
                {"report", "--stdio", "-i", f.toString(), "--no-system-files"},
                {"report", "--json", "--no-children", "-g", "folded", "-i", f.toString(), "--no-system-files"},
                {"script", "-i", f.toString(), "--no-system-files"}}) {
            StringWriter err = new StringWriter();
            OutputStream out = OutputStream.nullOutputStream();
            int rc;
            try {
                rc = Main.execute(args, out, new PrintWriter(err));
            } catch (Throwable t) {
                fail(m.name() + ": " + String.join(" ", args) + " threw " + t, t);
                return;
            }
            String e = err.toString();
            if (rc != 0 && rc != 2) {
                fail(m.name() + ": " + args[0] + " exited " + rc + ": " + e);
            }
            assertFalse(e.contains("\tat "), m.name() + ": stack trace printed: " + e);
            if (rc == 0 && !e.isBlank()) {
                WARNED.incrementAndGet();
            }
            if (rc == 2) {
                REJECTED.incrementAndGet();
                String[] lines = e.strip().split("\n");
                String last = lines[lines.length - 1];
                assertTrue(last.startsWith("perfj: ") && last.contains(" at offset 0x"),
                        m.name() + ": " + args[0] + ": error line does not name an offset: " + last);
            }
        }
        Files.delete(f);
    }
}
