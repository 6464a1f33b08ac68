package io.perfj.btf.cdump;

import io.perfj.io.FormatException;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Assumptions;

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
    @Property(tries = 60)
    void sameAsBpftool(@ForAll long seed) throws Exception {
        Assumptions.assumeTrue(bpftoolAvailable(), "bpftool is not installed");
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
