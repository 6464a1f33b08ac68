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
