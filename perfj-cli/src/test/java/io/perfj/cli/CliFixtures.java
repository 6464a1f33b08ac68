package io.perfj.cli;

import org.junit.jupiter.api.Assumptions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Fixture access for CLI tests: recordings, goldens, the unpacked build-id cache, running the CLI. */
final class CliFixtures {
    private CliFixtures() {
    }

    record Run(int rc, String out, String err) {
    }

    static Path dir() {
        String p = System.getProperty("perfj.fixtures");
        return Path.of(p != null ? p : "../fixtures").toAbsolutePath().normalize();
    }

    static Path recording(String name) {
        Path f = dir().resolve(name + ".data");
        Assumptions.assumeTrue(Files.isRegularFile(f), "fixture " + f + " is absent");
        return f;
    }

    static String golden(String name, String kind) {
        Path plain = dir().resolve("golden").resolve(name + "." + kind + ".txt");
        Path gz = dir().resolve("golden").resolve(name + "." + kind + ".txt.gz");
        try {
            if (Files.isRegularFile(plain)) {
                return Files.readString(plain, StandardCharsets.UTF_8);
            }
            Assumptions.assumeTrue(Files.isRegularFile(gz), "golden " + plain + " is absent");
            try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path cache;

    /** The committed build-id cache, unpacked once per JVM into a temporary directory. */
    static synchronized Path buildIdCache() {
        if (cache != null) {
            return cache;
        }
        Path tar = dir().resolve("archive").resolve("buildid-cache.tar.xz");
        Assumptions.assumeTrue(Files.isRegularFile(tar), "no " + tar);
        try {
            Path d = Files.createTempDirectory("perfj-buildid-cache");
            Process p = new ProcessBuilder("tar", "-xJf", tar.toString(), "-C", d.toString())
                    .redirectErrorStream(true).start();
            String msg = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int rc = p.waitFor();
            Assumptions.assumeTrue(rc == 0, "tar could not unpack the cache: " + msg);
            cache = d;
            return d;
        } catch (IOException e) {
            Assumptions.abort("tar is not available: " + e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs a command with {@code --compat perf-6.1} after its name: what golden tests against
     * perf's own output compare, since they include perf's known mistakes.
     */
    static Run runPerf(String... args) {
        String[] a = new String[args.length + 2];
        a[0] = args[0];
        a[1] = "--compat";
        a[2] = "perf-6.1";
        System.arraycopy(args, 1, a, 3, args.length - 1);
        return run(a);
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = Main.execute(args, out, new PrintWriter(err));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString());
    }
}
