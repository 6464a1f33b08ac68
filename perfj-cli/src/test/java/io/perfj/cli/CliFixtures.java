package io.perfj.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/**
 * Runs the CLI in the test's JVM. Fixtures (recordings, goldens, build-id caches) come from
 * {@link io.perfj.testing.Fixtures} and {@link io.perfj.testing.BuildIdCacheFixture}, shared with
 * perfj-core's tests.
 */
final class CliFixtures {
    private CliFixtures() {
    }

    record Run(int rc, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = Main.execute(args, out, new PrintWriter(err));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString());
    }
}
