package io.perfj.trace;

import io.perfj.io.FormatException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Damaged tracing data and format files fail only with {@link FormatException} (or a print fmt
 * error the formatter turns into name=value fields), and formatting any raw bytes never throws.
 */
class TraceMutationTest {
    private static final byte[] BLOB = TraceFixtures.blob("tp-irq-timer");
    private static final List<TracingData.EventFile> FILES =
            TracingData.parse(TraceFixtures.bytes(BLOB)).eventFiles();

    @Property(tries = 300)
    void damagedBlobsReadOrFailTyped(@ForAll long seed, @ForAll @IntRange(min = 1, max = 16) int flips) {
        Random r = new Random(seed);
        byte[] b = BLOB.clone();
        for (int i = 0; i < flips; i++) {
            b[r.nextInt(b.length)] = (byte) r.nextInt(256);
        }
        byte[] cut = r.nextBoolean() ? java.util.Arrays.copyOf(b, r.nextInt(b.length)) : b;
        try {
            TracingData.parse(TraceFixtures.bytes(cut));
        } catch (FormatException expected) {
            // typed: fine
        }
        TraceEvents te = TraceEvents.parse(TraceFixtures.bytes(cut), "test.data");
        assertNotNull(te.warnings());
        formatAll(te, r);
    }

    @Property(tries = 300)
    void damagedFormatFilesParseOrFailTyped(@ForAll long seed, @ForAll @IntRange(min = 1, max = 8) int edits) {
        Random r = new Random(seed);
        TracingData.EventFile f = FILES.get(r.nextInt(FILES.size()));
        StringBuilder t = new StringBuilder(f.text());
        String alphabet = "(){}[],:;\"'?*&|<>-+!~%REC0123456789x_ \n\t\\";
        for (int i = 0; i < edits && !t.isEmpty(); i++) {
            int at = r.nextInt(t.length());
            switch (r.nextInt(3)) {
                case 0 -> t.setCharAt(at, alphabet.charAt(r.nextInt(alphabet.length())));
                case 1 -> t.deleteCharAt(at);
                default -> t.insert(at, alphabet.charAt(r.nextInt(alphabet.length())));
            }
        }
        EventFormat ev;
        try {
            ev = EventFormat.parse(f.system(), t.toString(), "test.data", f.offset());
        } catch (FormatException expected) {
            return;
        }
        TraceFormatter fmt = new TraceFormatter(TracingData.parse(TraceFixtures.bytes(BLOB)), KernelFunctions.NONE,
                "test.data", w -> { });
        for (int n : new int[] {0, 3, 8, 16, 40, 64, 200}) {
            byte[] raw = new byte[n];
            r.nextBytes(raw);
            fmt.format(ev, raw, new ByteSink());
        }
    }

    private static void formatAll(TraceEvents te, Random r) {
        TraceFormatter fmt = new TraceFormatter(te.data(), KernelFunctions.NONE, "test.data", w -> { });
        for (TracingData.EventFile f : te.data().eventFiles()) {
            EventFormat ev;
            try {
                ev = EventFormat.parse(f.system(), f.text(), "test.data", f.offset());
            } catch (FormatException expected) {
                continue;
            }
            byte[] raw = new byte[r.nextInt(80)];
            r.nextBytes(raw);
            fmt.format(ev, raw, new ByteSink());
        }
    }
}
