package io.perfj.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code perfj record}'s refusals, one line each with exit status 1, before any system call. */
class RecordCommandTest {
    private static void refused(String expected, String... args) {
        CliFixtures.Run r = CliFixtures.run(args);
        assertEquals(1, r.rc(), r.err());
        assertEquals("perfj: " + expected + "\n", r.err());
        assertEquals("", r.out());
    }

    @Test
    void badCommandLinesAreOneLine() {
        refused("nothing to record: give a command, -p PID or -a", "record");
        refused("-F and -c are exclusive: sample at a frequency or every N events", "record", "-F", "99", "-c", "5", "true");
        refused("-F and -c need a positive number", "record", "-F", "0", "true");
        refused("event 'bogus' is not a hardware or software event perfj knows (cpu-clock, task-clock, page-faults,"
                + " context-switches, cycles, instructions, ...)", "record", "-e", "bogus", "true");
        refused("event modifier 'x' of 'cpu-clock:x' is not supported (u, k, p)", "record", "-e", "cpu-clock:x", "true");
        refused("--call-graph lbr: the modes are fp and dwarf[,SIZE]", "record", "--call-graph", "lbr", "true");
        refused("ring buffer pages must be a power of two, not 3", "record", "-m", "3", "true");
        refused("-k sundial: the clocks are realtime, monotonic, monotonic_raw, boottime, tai or a clock id",
                "record", "-k", "sundial", "true");
    }
}
