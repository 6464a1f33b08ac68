package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An event group, {@code '{cpu-clock:u,page-faults:u}'} (fixtures/make-groups.sh): annotate
 * prints a percent column per member under the group's name, perf 6.1's output byte for byte
 * with {@code --compat perf-6.1}, perf 7.2's by default; report's group view as both perfs
 * print it.
 */
class GroupsAnnotateTest {
    private static final String SYMBOL = Fixtures.golden("groups", "annotate-symbol").strip();

    private static CliFixtures.Run run(boolean compat, String command, String... extra) {
        List<String> a = new ArrayList<>(List.of(command));
        if (compat) {
            a.addAll(List.of("--compat", "perf-6.1"));
        }
        a.addAll(List.of("-i", Fixtures.recording("groups").toString(), "--no-system-files", "--buildid-dir",
                BuildIdCacheFixture.unpacked("groups.buildid-cache").toString()));
        a.addAll(Arrays.asList(extra));
        return CliFixtures.run(a.toArray(new String[0]));
    }

    private static CliFixtures.Run annotate(boolean compat, String... extra) {
        AnnotateGoldenTest.assumeObjdump();
        return run(compat, "annotate", extra);
    }

    @Test
    void theGroupsColumnsArePerf61sWithCompat() {
        CliFixtures.Run r = annotate(true, "--stdio", SYMBOL);
        assertEquals(Fixtures.golden("groups", "annotate-stdio"), r.out(), r.err());
        r = annotate(true, "--stdio2", SYMBOL);
        assertEquals(Fixtures.golden("groups", "annotate-stdio2"), r.out(), r.err());
    }

    private static final Pattern STDIO_INSN = Pattern.compile("^((?: +[0-9.]+)+) : +([0-9a-f]+):\\s+(.*)$");

    /** Address, percentages and instruction of each --stdio instruction line. */
    private static List<String> stdioInsns(String text) {
        List<String> out = new ArrayList<>();
        for (String l : text.split("\n")) {
            Matcher m = STDIO_INSN.matcher(l);
            if (m.matches()) {
                out.add(m.group(2) + " " + m.group(1).strip().replaceAll("\\s+", " ") + " " + m.group(3).strip().replaceAll("\\s+", " "));
            }
        }
        return out;
    }

    /**
     * perf 7.2's layout (no line markers from objdump, {@code --stdio2} without text lines and
     * with a column of {@code %7.2f } per member) and its title, which sums the group's periods.
     */
    @Test
    void theGroupsColumnsArePerf72sByDefault() {
        CliFixtures.Run r = annotate(false, "--stdio", SYMBOL);
        assertEquals(Fixtures.golden("groups", "annotate-stdio.perf72"), r.out(), r.err());
        assertTrue(stdioInsns(r.out()).stream().anyMatch(w -> w.split(" ")[2].equals("100.00")), "two columns");
        r = annotate(false, "--stdio2", SYMBOL);
        assertEquals(Fixtures.golden("groups", "annotate-stdio2.perf72"), r.out(), r.err());
    }

    /** {@code --no-group} annotates each event on its own (perf 6.1 and 7.2 abort there). */
    @Test
    void noGroupAnnotatesEachEventOnItsOwn() {
        CliFixtures.Run r = annotate(false, "--stdio", "--no-group", SYMBOL);
        assertEquals(0, r.rc(), r.err());
        List<String> heads = r.out().lines().filter(l -> l.startsWith(" Percent")).toList();
        assertEquals(2, heads.size(), r.out());
        assertTrue(heads.get(0).contains(" for cpu-clock:u ("), heads.get(0));
        assertTrue(heads.get(1).contains(" for page-faults:u ("), heads.get(1));
        List<String> grouped = stdioInsns(annotate(false, "--stdio", SYMBOL).out());
        List<String> alone = stdioInsns(r.out());
        assertEquals(2 * grouped.size(), alone.size());
        for (int i = 0; i < grouped.size(); i++) {
            String[] g = grouped.get(i).split(" ", 4);
            assertEquals(g[0] + " " + g[1] + " " + g[3], alone.get(i));
            assertEquals(g[0] + " " + g[2] + " " + g[3], alone.get(grouped.size() + i));
        }
    }

    @Test
    void reportShowsTheGroupAsBothPerfsDo() {
        for (String[] k : new String[][] {{"report"}, {"report-group", "--group"}, {"report-no-group", "--no-group"}}) {
            List<String> a = new ArrayList<>(List.of("--stdio", "--no-children", "-g", "none", "--dsos", "groups"));
            a.addAll(Arrays.asList(k).subList(1, k.length));
            CliFixtures.Run r = run(true, "report", a.toArray(new String[0]));
            ReportGoldenTest.compare(Fixtures.golden("groups", k[0]), r.out());
        }
    }
}
