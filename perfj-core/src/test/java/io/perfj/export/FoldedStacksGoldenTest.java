package io.perfj.export;

import io.perfj.perfdata.PerfData;
import io.perfj.profile.Profile;
import io.perfj.session.Compat;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
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
        SymbolOptions symbols = new SymbolOptions(null, BuildIdCacheFixture.dir(), null, Fixtures.file("perf-maps"), false);
        try (PerfData data = PerfData.open(Fixtures.recording(name))) {
            Session session = Session.of(data, new SessionOptions(symbols, compat));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new FoldedStacks(Profile.read(session, Session.DEFAULT_MAX_STACK), null).write(out);
            return out.toString(StandardCharsets.UTF_8);
        }
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
