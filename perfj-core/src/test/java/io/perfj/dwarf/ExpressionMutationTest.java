package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Mutants of real call frame expressions (every one in the fixtures' libc, ld.so and bin/hot)
 * and random byte strings: evaluation must end with a value or an {@link ExpressionException},
 * never another exception, a hang or an allocation that grows with the input.
 */
class ExpressionMutationTest {
    private static final ExpressionEvaluator EVAL = ExpressionEvaluator.x86_64();

    /** Every register known, every address readable (a value derived from it). */
    private static final ExpressionEvaluator.Context OPEN = new ExpressionEvaluator.Context() {
        @Override
        public long register(int reg) {
            return 0x7ffd_0000_0000L + reg * 0x100L;
        }

        @Override
        public long read(long address, int size) {
            long v = address * 0x9e3779b97f4a7c15L;
            return size == 8 ? v : v & ((1L << (8 * size)) - 1);
        }
    };

    /** Nothing known: every register and read fails. */
    private static final ExpressionEvaluator.Context CLOSED = new ExpressionEvaluator.Context() {
        @Override
        public long register(int reg) {
            throw new ExpressionException(-1, "unknown");
        }

        @Override
        public long read(long address, int size) {
            throw new ExpressionException(-1, "unreadable");
        }
    };

    /** The expressions of every CFA and register rule in these files. */
    static List<byte[]> corpus(List<Path> files) {
        Set<DwarfExpression> found = new LinkedHashSet<>();
        for (Path f : files) {
            try (ElfFile elf = ElfFile.open(f)) {
                CallFrameInfo cfi = CallFrameInfo.parse(elf);
                for (Fde fde : cfi.fdes()) {
                    for (UnwindRow row : cfi.rows(fde)) {
                        if (row.cfa() instanceof CfaRule.Expression e) {
                            found.add(e.code());
                        }
                        for (RegisterRule r : row.rules().values()) {
                            if (r instanceof RegisterRule.Expression e) {
                                found.add(e.code());
                            } else if (r instanceof RegisterRule.ValExpression e) {
                                found.add(e.code());
                            }
                        }
                    }
                }
            }
        }
        List<byte[]> out = new ArrayList<>();
        for (DwarfExpression e : found) {
            out.add(e.bytes());
        }
        return out;
    }

    private static List<Path> objects() {
        List<Path> files = new ArrayList<>();
        files.add(Fixtures.dir().resolve("bin/hot"));
        files.add(BuildIdCacheFixture.member("/usr/lib/x86_64-linux-gnu/libc.so.6", "elf").orElseThrow());
        files.add(BuildIdCacheFixture.member("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", "elf").orElseThrow());
        return files;
    }

    /** Evaluates in both contexts, with and without an initial value; fails on anything but a value or the typed error. */
    static int exercise(byte[] code) {
        DwarfExpression e = new DwarfExpression(code);
        int errors = 0;
        for (ExpressionEvaluator.Context c : List.of(OPEN, CLOSED)) {
            for (int pushed = 0; pushed < 2; pushed++) {
                try {
                    if (pushed == 0) {
                        EVAL.evaluate(e, c);
                    } else {
                        EVAL.evaluate(e, c, 0x7ffd_1234_5678L);
                    }
                } catch (ExpressionException x) {
                    errors++;
                    assertTrue(x.offset() >= 0 && x.offset() <= code.length, x.getMessage());
                } catch (RuntimeException | StackOverflowError | OutOfMemoryError x) {
                    fail("expression " + java.util.HexFormat.of().formatHex(code) + ": " + x, x);
                }
            }
        }
        return errors;
    }

    @Test
    void realExpressionsEvaluate() {
        List<byte[]> corpus = corpus(objects());
        // libc has at least the PLT rule and the signal trampoline's rules
        assertTrue(corpus.size() >= 3, corpus.size() + " expressions");
        for (byte[] code : corpus) {
            DwarfExpression e = new DwarfExpression(code);
            EVAL.evaluate(e, OPEN, 0x7ffd_0000_1000L);
        }
    }

    @Test
    void mutantsOfRealExpressions() {
        List<byte[]> corpus = corpus(objects());
        Random r = new Random(11);
        int mutants = 0;
        int errors = 0;
        for (int i = 0; i < 60_000; i++) {
            byte[] m = mutate(corpus.get(r.nextInt(corpus.size())), r);
            errors += exercise(m);
            mutants++;
        }
        // both outcomes must occur, or the mutator is not reaching the evaluator
        assertTrue(errors > 0 && errors < mutants * 4, errors + " errors in " + mutants * 4 + " evaluations");
    }

    @Test
    void randomBytes() {
        Random r = new Random(12);
        for (int i = 0; i < 60_000; i++) {
            byte[] m = new byte[r.nextInt(48)];
            r.nextBytes(m);
            if (r.nextBoolean()) {
                // mostly operations that are allowed, so that evaluation goes deep
                for (int k = 0; k < m.length; k++) {
                    if (r.nextInt(3) > 0) {
                        m[k] = (byte) ALLOWED[r.nextInt(ALLOWED.length)];
                    }
                }
            }
            exercise(m);
        }
    }

    @Test
    void loopsEndAtALimit() {
        try {
            // lit1 | dup dup bra back: the stack grows by one a round until its limit
            EVAL.evaluate(new DwarfExpression(new byte[]{0x31, 0x12, 0x12, 0x28, (byte) 0xfb, (byte) 0xff}), OPEN);
            fail("a loop that pushes must stop");
        } catch (ExpressionException e) {
            assertTrue(e.getMessage().contains("deeper"), e.getMessage());
        }
        try {
            // skip -3: jumps to itself forever
            EVAL.evaluate(new DwarfExpression(new byte[]{0x31, 0x2f, (byte) 0xfd, (byte) 0xff}), OPEN);
            fail("a loop must stop");
        } catch (ExpressionException e) {
            assertTrue(e.getMessage().contains("operations"), e.getMessage());
        }
    }

    private static final int[] ALLOWED = {0x03, 0x06, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
        0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x24,
        0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f, 0x31, 0x3f, 0x77, 0x80, 0x92, 0x94, 0x96};

    private static byte[] mutate(byte[] in, Random r) {
        byte[] b = in.clone();
        int kind = r.nextInt(6);
        switch (kind) {
            case 0 -> {
                if (b.length > 0) {
                    b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
                }
            }
            case 1 -> {
                if (b.length > 0) {
                    b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                }
            }
            case 2 -> b = java.util.Arrays.copyOf(b, r.nextInt(b.length + 1)); // truncated
            case 3 -> { // an operation inserted
                int at = r.nextInt(b.length + 1);
                byte[] n = new byte[b.length + 1];
                System.arraycopy(b, 0, n, 0, at);
                n[at] = (byte) ALLOWED[r.nextInt(ALLOWED.length)];
                System.arraycopy(b, at, n, at + 1, b.length - at);
                b = n;
            }
            case 4 -> { // the expression twice
                byte[] n = new byte[b.length * 2];
                System.arraycopy(b, 0, n, 0, b.length);
                System.arraycopy(b, 0, n, b.length, b.length);
                b = n;
            }
            default -> { // a branch with a random offset appended
                byte[] n = java.util.Arrays.copyOf(b, b.length + 3);
                n[b.length] = (byte) (r.nextBoolean() ? 0x28 : 0x2f);
                n[b.length + 1] = (byte) r.nextInt(256);
                n[b.length + 2] = (byte) (r.nextBoolean() ? 0xff : 0x00);
                b = n;
            }
        }
        return b;
    }
}
