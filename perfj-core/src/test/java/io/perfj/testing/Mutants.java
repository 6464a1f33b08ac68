package io.perfj.testing;

import io.perfj.io.FormatException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Runs many mutants of a few seed inputs through a parser in one JVM, in memory: each mutant is
 * a copy of a seed with a few damaging edits (bit flips, bytes and aligned words set to extreme
 * values, truncation, a block copied over another, bytes inserted or removed), positions biased
 * towards the seed's structural ranges. The only failure a parser may give is a
 * {@link FormatException}; anything else (NullPointerException, an index out of bounds,
 * OutOfMemoryError, ...) or a mutant that takes longer than the time bound fails the run with
 * the mutant's number.
 *
 * <p>Mutant {@code i} of a run is made from a random generator seeded with the run's seed and
 * {@code i} alone, so every mutant can be made again: {@code -Dperfj.mutant=NAME:I} runs only
 * mutant I of run NAME, {@code -Dperfj.mutants=N} sets how many mutants each run makes.
 */
public final class Mutants {
    /** A seed input and the byte ranges [from, to) where its structure is (may be empty). */
    public record Seed(String name, byte[] bytes, long[] hot) {
        public Seed(String name, byte[] bytes) {
            this(name, bytes, new long[0]);
        }
    }

    /** What a run found, and how long it took (wall and this process's processor time). */
    public record Outcome(int mutants, int rejected, long millis, long cpuMillis) {
        @Override
        public String toString() {
            return mutants + " mutants, " + rejected + " refused, " + millis + " ms (" + cpuMillis + " ms of processor time)";
        }
    }

    private static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(0L);
    }

    private static final long[] VALUES = {0, 1, 2, 7, 8, 0x7f, 0x80, 0xff, 0xffff, 0x10000, 0x7fff_ffffL,
            0x8000_0000L, 0xffff_ffffL, 1L << 32, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE, -1L, -8L};

    private final String name;
    private final long seed;
    private final List<Seed> seeds;
    private final long boundMillis;

    /**
     * @param name        the run's name (in messages, and for {@code -Dperfj.mutant})
     * @param seed        the run's random seed
     * @param boundMillis the most one mutant may take
     */
    public Mutants(String name, long seed, List<Seed> seeds, long boundMillis) {
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException(name + ": no seed inputs");
        }
        this.name = name;
        this.seed = seed;
        this.seeds = seeds;
        this.boundMillis = boundMillis;
    }

    /** Mutants per run: {@code -Dperfj.mutants}, else {@code dflt}. */
    public static int count(int dflt) {
        return Integer.getInteger("perfj.mutants", dflt);
    }

    /** A mutant: the bytes and what was done to which seed. */
    public record Mutant(int index, Seed seed, byte[] bytes, String edits) {
        @Override
        public String toString() {
            return "mutant " + index + " of " + seed.name() + " (" + edits + ")";
        }
    }

    /** Mutant {@code i}: the same bytes every time. */
    public Mutant mutant(int i) {
        SplittableRandom r = new SplittableRandom(seed * 0x9e3779b97f4a7c15L + i);
        Seed s = seeds.get(r.nextInt(seeds.size()));
        byte[] b = s.bytes();
        StringBuilder what = new StringBuilder();
        int edits = 1 + (r.nextInt(4) == 0 ? r.nextInt(3) : 0);
        for (int e = 0; e < edits && b.length > 0; e++) {
            if (e > 0) {
                what.append("; ");
            }
            b = edit(b, s, r, what, e == 0);
        }
        return new Mutant(i, s, b, what.toString());
    }

    private static int position(byte[] b, Seed s, SplittableRandom r) {
        if (s.hot().length >= 2 && r.nextInt(3) != 0) {
            int k = 2 * r.nextInt(s.hot().length / 2);
            long from = Math.min(s.hot()[k], b.length);
            long to = Math.min(s.hot()[k + 1], b.length);
            if (to > from) {
                return (int) (from + r.nextLong(to - from));
            }
        }
        return r.nextInt(b.length);
    }

    private static byte[] edit(byte[] in, Seed s, SplittableRandom r, StringBuilder what, boolean first) {
        byte[] b = first ? in.clone() : in;
        switch (r.nextInt(10)) {
            case 0, 1 -> {
                int n = 1 + r.nextInt(8);
                what.append(n).append(" bit flips at");
                for (int k = 0; k < n; k++) {
                    int p = position(b, s, r);
                    b[p] ^= (byte) (1 << r.nextInt(8));
                    what.append(' ').append(p);
                }
            }
            case 2 -> {
                int p = position(b, s, r);
                int v = (int) VALUES[r.nextInt(8)];
                b[p] = (byte) v;
                what.append("byte ").append(p).append(" = ").append(v & 0xff);
            }
            case 3, 4, 5 -> {
                int width = r.nextBoolean() ? 4 : (r.nextBoolean() ? 8 : 2);
                int p = position(b, s, r) & -width;
                long v = r.nextInt(5) == 0 ? r.nextLong() >>> r.nextInt(64) : VALUES[r.nextInt(VALUES.length)];
                if (r.nextInt(6) == 0) {
                    v = b.length + r.nextInt(-64, 64);
                }
                if (width < 8) {
                    v &= (1L << (8 * width)) - 1;
                }
                boolean big = r.nextInt(8) == 0;
                for (int k = 0; k < width && p + k < b.length; k++) {
                    int shift = 8 * (big ? width - 1 - k : k);
                    b[p + k] = (byte) (v >>> shift);
                }
                what.append(width * 8).append("-bit word ").append(p).append(" = 0x").append(Long.toHexString(v))
                        .append(big ? " (big-endian)" : "");
            }
            case 6 -> {
                int p = r.nextBoolean() ? position(b, s, r) : r.nextInt(b.length + 1);
                what.append("cut to ").append(p);
                return Arrays.copyOf(b, p);
            }
            case 7 -> {
                int len = 1 + r.nextInt(Math.min(256, b.length));
                int from = r.nextInt(b.length - len + 1);
                int to = position(b, s, r);
                int n = Math.min(len, b.length - to);
                System.arraycopy(b, from, b, to, n);
                what.append(n).append(" bytes from ").append(from).append(" copied to ").append(to);
            }
            case 8 -> {
                int p = position(b, s, r);
                int n = 1 + r.nextInt(16);
                byte[] out = new byte[b.length + n];
                System.arraycopy(b, 0, out, 0, p);
                for (int k = 0; k < n; k++) {
                    out[p + k] = (byte) r.nextInt(256);
                }
                System.arraycopy(b, p, out, p + n, b.length - p);
                what.append(n).append(" bytes inserted at ").append(p);
                return out;
            }
            default -> {
                int p = position(b, s, r);
                int n = Math.min(1 + r.nextInt(16), b.length - p);
                byte[] out = new byte[b.length - n];
                System.arraycopy(b, 0, out, 0, p);
                System.arraycopy(b, p + n, out, p, b.length - p - n);
                what.append(n).append(" bytes removed at ").append(p);
                return out;
            }
        }
        return b;
    }

    /**
     * Runs {@code count} mutants through {@code parse} on several threads and fails (an
     * {@link AssertionError} naming the lowest failing mutant) when one throws anything but a
     * {@link FormatException} or runs past the time bound.
     */
    public Outcome run(int count, Consumer<Mutant> parse) {
        String only = System.getProperty("perfj.mutant");
        int from = 0;
        int to = count;
        if (only != null && only.startsWith(name + ":")) {
            from = Integer.parseInt(only.substring(name.length() + 1));
            to = from + 1;
        } else if (only != null) {
            return new Outcome(0, 0, 0, 0);
        }
        long start = System.nanoTime();
        long cpuStart = cpuNanos();
        // more threads than processors: the readers hand records between threads, and those
        // waits leave a processor idle
        int threads = 2 * Runtime.getRuntime().availableProcessors();
        AtomicInteger next = new AtomicInteger(from);
        AtomicInteger rejected = new AtomicInteger();
        AtomicLong firstFailure = new AtomicLong(Long.MAX_VALUE);
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        Worker[] workers = new Worker[threads];
        final int end = to;
        for (int w = 0; w < threads; w++) {
            Worker wk = new Worker();
            workers[w] = wk;
            wk.thread = Thread.ofPlatform().daemon().name("mutants-" + name + "-" + w).start(() -> {
                for (int i; (i = next.getAndIncrement()) < end && i < firstFailure.get(); ) {
                    wk.current = i;
                    wk.started = System.nanoTime();
                    Mutant m = mutant(i);
                    try {
                        parse.accept(m);
                    } catch (FormatException e) {
                        rejected.incrementAndGet();
                    } catch (Throwable t) {
                        java.io.StringWriter sw = new java.io.StringWriter();
                        t.printStackTrace(new java.io.PrintWriter(sw));
                        failures.add(i + "\t" + describe(m) + ": " + sw);
                        firstFailure.accumulateAndGet(i, Math::min);
                    }
                    wk.started = 0;
                }
            });
        }
        for (Worker wk : workers) {
            while (true) {
                try {
                    wk.thread.join(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(e);
                }
                if (!wk.thread.isAlive()) {
                    break;
                }
                long t = wk.started;
                if (t != 0 && System.nanoTime() - t > boundMillis * 1_000_000L) {
                    int i = wk.current;
                    StringBuilder st = new StringBuilder();
                    for (StackTraceElement e : wk.thread.getStackTrace()) {
                        st.append("\n\tat ").append(e);
                    }
                    firstFailure.set(-1); // stop the others
                    throw new AssertionError(name + ": " + describe(mutant(i)) + " took more than "
                            + boundMillis + " ms; still running:" + st);
                }
            }
        }
        if (!failures.isEmpty()) {
            String lowest = failures.stream().min(java.util.Comparator.comparingInt(f -> Integer.parseInt(f.substring(0, f.indexOf('\t'))))).orElseThrow();
            throw new AssertionError(name + ": " + lowest.substring(lowest.indexOf('\t') + 1));
        }
        return new Outcome(to - from, rejected.get(), (System.nanoTime() - start) / 1_000_000,
                (cpuNanos() - cpuStart) / 1_000_000);
    }

    private String describe(Mutant m) {
        return m + " [run again alone with -Dperfj.mutant=" + name + ":" + m.index() + "]";
    }

    private static final class Worker {
        volatile Thread thread;
        volatile int current;
        volatile long started;
    }
}
