package io.perfj.btf.cdump;

import io.perfj.io.FormatException;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Differential property, live against the installed bpftool (skipped without it): for random
 * well-formed BTF ({@link RandomBtf}), perfj prints exactly what {@code bpftool btf dump file F
 * format c} prints, and fails exactly when bpftool fails (an unsatisfiable type cycle), having
 * printed the same text up to that point.
 */
class BtfCDumpDifferentialTest {
    /**
     * Skips the property as a whole without bpftool 7.1 (an assumption inside it would reject
     * every try, which jqwik reports as a failure: exhausted).
     */
    static final class NeedsBpftool implements SkipExecutionHook {
        @Override
        public SkipResult shouldBeSkipped(LifecycleContext context) {
            return bpftoolAvailable() ? SkipResult.doNotSkip() : SkipResult.skip("bpftool 7.1 is not installed");
        }
    }

    @Property(tries = 60)
    @AddLifecycleHook(NeedsBpftool.class)
    void sameAsBpftool(@ForAll long seed) throws Exception {
        byte[] blob = RandomBtf.generate(seed);
        Path f = Files.createTempFile("perfj-random-", ".btf");
        try {
            Files.write(f, blob);
            Process p = new ProcessBuilder("bpftool", "btf", "dump", "file", f.toString(), "format", "c")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String expected = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(60, TimeUnit.SECONDS);
            // Where libbpf itself crashes (e.g. a division by a zero alignment for a member whose
            // type has none, such as const void) there is nothing to compare with.
            Assume.that(p.exitValue() < 128);
            boolean bpftoolFailed = p.exitValue() != 0;

            ByteArrayOutputStream mine = new ByteArrayOutputStream();
            boolean perfjFailed = false;
            try {
                BtfCDumper.dump(RawTypes.parse(blob, null, "random"), mine);
            } catch (FormatException e) {
                perfjFailed = true;
            }
            assertEquals(expected, mine.toString(StandardCharsets.UTF_8), "seed " + seed);
            assertEquals(bpftoolFailed, perfjFailed, "seed " + seed + ": failure");
        } finally {
            Files.deleteIfExists(f);
        }
    }

    private static Boolean available;

    static synchronized boolean bpftoolAvailable() {
        if (available == null) {
            try {
                Process p = new ProcessBuilder("bpftool", "version").redirectErrorStream(true).start();
                String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                available = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 && v.contains("v7.1");
            } catch (IOException | InterruptedException e) {
                available = false;
            }
        }
        return available;
    }
}
