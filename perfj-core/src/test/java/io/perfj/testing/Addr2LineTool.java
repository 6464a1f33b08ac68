package io.perfj.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** binutils' {@code addr2line}, for tests that compare with it (skipped without it). */
public final class Addr2LineTool {
    private Addr2LineTool() {
    }

    /** Skips the test when binutils' addr2line is not installed. */
    public static void assume() {
        try {
            Process p = new ProcessBuilder("addr2line", "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Assumptions.assumeTrue(p.waitFor() == 0 && v.contains("GNU addr2line"),
                    "binutils' addr2line is not installed");
        } catch (IOException e) {
            Assumptions.abort("binutils' addr2line is not installed");
        } catch (InterruptedException e) {
            java.lang.Thread.currentThread().interrupt();
            Assumptions.abort("interrupted");
        }
    }

    /** What {@code addr2line -f -i -a -e FILE} prints for {@code addrs}, asked in that order by one process. */
    public static String answers(Path file, List<Long> addrs) throws IOException, InterruptedException {
        StringBuilder in = new StringBuilder();
        for (long a : addrs) {
            in.append("0x").append(Long.toHexString(a)).append('\n');
        }
        Process p = new ProcessBuilder("addr2line", "-f", "-i", "-a", "-e", file.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        java.lang.Thread w = java.lang.Thread.ofVirtual().start(() -> {
            try (var o = p.getOutputStream()) {
                o.write(in.toString().getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the reader sees the short answer
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        w.join();
        return out;
    }
}
