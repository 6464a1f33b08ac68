package io.perfj.cli;

import io.perfj.testing.Fixtures;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streaming commands' memory bound, tested instead of enforced: the launcher gives header
 * and dump no heap cap (a cap would turn a regression into an OutOfMemoryError for users), so
 * here they run, with their checked-in JVM options, in a heap of {@value #HEAP} over a recording
 * several times larger. Holding the records, their decoded form or the printed text would not
 * fit. {@code --no-system-files}: this machine's kallsyms (whose size varies between machines)
 * stays out of the bound.
 */
class StreamingMemoryBoundTest {
    static final String HEAP = "-Xmx32m";
    static final long DATA_BYTES = 96L << 20;

    @TempDir
    static Path tmp;
    static Path big;
    static int copies;

    @BeforeAll
    static void makeRecording() throws IOException {
        Path src = Fixtures.file("c-fp.data");
        assertTrue(Files.isRegularFile(src), "missing fixture " + src);
        big = tmp.resolve("big.data");
        copies = RepeatedRecording.write(src, big, DATA_BYTES);
        assertTrue(Files.size(big) > DATA_BYTES, "recording of " + Files.size(big) + " bytes");
    }

    private static ChildJvm.Result fitsInSmallHeap(String optionFile, boolean keepOut, String... args) throws Exception {
        ChildJvm.Result r = ChildJvm.run(optionFile, List.of(HEAP), keepOut, Main.class.getName(), args);
        assertFalse(r.err().contains("OutOfMemoryError") || r.err().contains("out of memory"), r.err());
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    /** The "SAMPLE events:" count of the totals in dump --stats output. */
    private static long samples(String stats) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\n *SAMPLE events: *(\\d+)").matcher(stats);
        assertTrue(m.find(), stats);
        return Long.parseLong(m.group(1));
    }

    @Test
    void dumpStreams() throws Exception {
        fitsInSmallHeap("dump", false, "dump", "--no-system-files", "-i", big.toString());
    }

    @Test
    void dumpStatsStreamsTheWholeFile() throws Exception {
        ChildJvm.Result r = fitsInSmallHeap("dump", true, "dump", "--stats", "--no-system-files", "-i", big.toString());
        CliFixtures.Run one = CliFixtures.run("dump", "--stats", "--no-system-files",
                "-i", Fixtures.file("c-fp.data").toString());
        assertEquals(0, one.rc(), one.err());
        assertEquals(copies * samples(one.out()), samples(r.out()));
    }

    @Test
    void headerReadsOnlyTheHeader() throws Exception {
        fitsInSmallHeap("header", false, "header", "-I", "-i", big.toString());
    }
}
