package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * C++ symbols asked for by name with {@code -S}/{@code --symbols} (java.data, libjvm's
 * {@code StringTable::create_table()}, two samples): by default perfj names them as perf 7.2
 * does, with the parameter list, and takes the name with or without it; with
 * {@code --compat perf-6.1}, as perf 6.1, only the name it prints, without.
 */
class CxxNamesTest {
    private static CliFixtures.Run run(String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("-i", Fixtures.recording("java").toString(), "--buildid-dir", BuildIdCacheFixture.dir().toString(),
                "--symfs", ReportGoldenTest.javaSysroot(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    @Test
    void scriptTakesTheNameWithOrWithoutItsParameterList() {
        String full = run("script", "-S", "StringTable::create_table()").out();
        assertEquals(2, full.split("cpu-clock:", -1).length - 1, full);
        assertTrue(full.contains(" StringTable::create_table()+0x"), full);
        assertEquals(full, run("script", "-S", "StringTable::create_table").out());
    }

    @Test
    void reportTakesTheNameWithOrWithoutItsParameterList() {
        String full = run("report", "--stdio", "--no-children", "-g", "none", "-S", "StringTable::create_table()").out();
        assertTrue(full.contains("\n     0.17%  java     libjvm.so    \n"), full);
        assertEquals(full.replace("StringTable::create_table()", "StringTable::create_table"),
                run("report", "--stdio", "--no-children", "-g", "none", "-S", "StringTable::create_table").out());
    }

    @Test
    void perf61TakesTheNameItPrints() {
        String perf61 = run("script", "--compat", "perf-6.1", "-S", "StringTable::create_table").out();
        assertTrue(perf61.contains(" StringTable::create_table+0x"), perf61);
        assertFalse(run("script", "--compat", "perf-6.1", "-S", "StringTable::create_table()").out().contains("cpu-clock:"));
    }
}
