package io.perfj.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;

/** The system's objdump, which annotate's tests disassemble with as perf did: a test without it is skipped. */
public final class Objdump {
    private Objdump() {
    }

    /** Skips the calling test unless {@code objdump --version} runs. */
    public static void assume() {
        try {
            Process p = new ProcessBuilder("objdump", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            Assumptions.assumeTrue(p.waitFor() == 0, "objdump does not run");
        } catch (IOException e) {
            Assumptions.abort("objdump is not installed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
