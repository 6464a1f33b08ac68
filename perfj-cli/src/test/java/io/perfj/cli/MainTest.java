package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line builds only the subcommand it runs, and still lists them all for help. */
class MainTest {
    @Test
    void topLevelHelpListsEveryCommandInOrder() {
        CliFixtures.Run r = CliFixtures.run("--help");
        assertEquals(0, r.rc(), r.err());
        int at = -1;
        for (String name : new String[] {"header", "dump", "report", "script", "annotate", "bpf", "btf", "help"}) {
            int i = r.out().indexOf("\n  " + name + " ");
            assertTrue(i > at, name + " missing or out of order in:\n" + r.out());
            at = i;
        }
    }

    @Test
    void helpNamesASubcommand() {
        CliFixtures.Run r = CliFixtures.run("help", "annotate");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("Usage: perfj annotate "), r.out());
    }

    @Test
    void aSubcommandsOwnHelp() {
        CliFixtures.Run r = CliFixtures.run("report", "--help");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("Usage: perfj report "), r.out());
    }

    @Test
    void anUnknownCommandIsRefusedWithTheFullUsage() {
        CliFixtures.Run r = CliFixtures.run("bogus");
        assertEquals(2, r.rc());
        assertTrue(r.err().contains("Unmatched argument at index 0: 'bogus'"), r.err());
        assertTrue(r.err().contains("annotate"), r.err());
    }

    @Test
    void anOptionGivenAgainOverridesTheEarlierOneAsInPerf() {
        String f = Fixtures.recording("c-fp").toString();
        CliFixtures.Run twice = CliFixtures.run("report", "--stdio", "--no-children", "--children", "-g", "none",
                "-i", f, "--no-system-files");
        CliFixtures.Run once = CliFixtures.run("report", "--stdio", "--children", "-g", "none", "-i", f,
                "--no-system-files");
        assertEquals(0, twice.rc(), twice.err());
        assertEquals(once.out(), twice.out());
    }

    @Test
    void cpuFilterOnARecordingWithoutCpusIsOneLine() {
        CliFixtures.Run r = CliFixtures.run("report", "--stdio", "--cpu", "0", "-i",
                Fixtures.recording("c-fp").toString(), "--no-system-files");
        assertEquals(1, r.rc());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("does not contain CPU events"), r.err());
    }

    /** perfj.jar holds no Spark: serve --fleet reaching it (not through the launcher) says where it runs. */
    @Test
    void serveFleetWithoutTheLauncherIsOneLine() {
        CliFixtures.Run r = CliFixtures.run("serve", "--fleet", "DIR");
        assertEquals(1, r.rc());
        assertEquals("perfj: serve --fleet: run 'perfj fleet serve DIR' (a fleet is read on Apache Spark, which "
                + "perfj.jar does not hold; the perfj launcher does this for serve --fleet)\n", r.err());
        assertEquals("", r.out());
    }
}
