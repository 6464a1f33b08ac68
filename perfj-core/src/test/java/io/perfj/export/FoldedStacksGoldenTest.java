package io.perfj.export;

import io.perfj.session.Compat;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Folded stacks against FlameGraph's {@code stackcollapse-perf.pl} run on perf script's own
 * output (the {@code script} goldens; fixtures/README.md has the command), line for line, in
 * perf 6.1's mode as the script goldens are.
 */
class FoldedStacksGoldenTest {
    static String fold(String name, Compat compat) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FoldedStacks(ProfileFixtures.profile(name, compat), null).write(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"c-fp", "bpf-sys", "pipe", "zstd", "two-events"})
    void matchesStackcollapseOfPerfScript(String name) throws Exception {
        List<String> expected = Arrays.asList(Fixtures.golden(name, "folded").split("\n"));
        List<String> actual = Arrays.asList(fold(name, Compat.PERF_6_1).split("\n"));
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), "line " + (i + 1));
        }
        assertEquals(expected.size(), actual.size(), "lines");
    }
}
