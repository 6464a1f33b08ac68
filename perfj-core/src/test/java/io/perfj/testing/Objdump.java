package io.perfj.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;

/** The system's objdump, which annotate's tests disassemble with as perf did: a test without it is skipped. */
public final class Objdump {
    private Objdump() {
    }

    /** Skips the calling test unless {@code objdump --version} runs. */
    public static void assume() {
        assumeRuns("objdump is not installed", "objdump", "--version");
    }

    /**
     * Skips the calling test unless {@code command} starts and exits with 0; {@code missing} is
     * the reason given when it is not installed.
     */
    public static void assumeRuns(String missing, String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            Assumptions.assumeTrue(p.waitFor() == 0, command[0] + " does not run");
        } catch (IOException e) {
            Assumptions.abort(missing);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
