package io.perfj.perfdata.feature;

import io.perfj.perfdata.PerfData;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** perf's normalised architecture names, from uname machine strings and from recordings. */
class RecordedArchTest {
    @Test
    void unameMachinesAsPerfNamesThem() {
        assertEquals("x86", RecordedArch.normalise("x86_64"));
        assertEquals("x86", RecordedArch.normalise("i686"));
        assertEquals("x86", RecordedArch.normalise("i386"));
        assertEquals("arm64", RecordedArch.normalise("aarch64"));
        assertEquals("arm", RecordedArch.normalise("armv7l"));
        assertEquals("riscv64", RecordedArch.normalise("riscv64"));
    }

    @Test
    void theCorpusRecordingsArchitectures() {
        assertEquals("arm64", RecordedArch.of(PerfData.open(Fixtures.file("corpus/sp-no-unwind.data"))));
        assertEquals("arm", RecordedArch.of(PerfData.open(Fixtures.file("corpus/q-armv7-3.4.data"))));
        assertEquals("x86", RecordedArch.of(PerfData.open(Fixtures.file("corpus/q-i686-3.4.data"))));
        // a pipe's features come with its records: none before they are read
        assertEquals("x86", RecordedArch.of(PerfData.open(Fixtures.file("corpus/q-piped.target-3.8.data"))));
    }
}
