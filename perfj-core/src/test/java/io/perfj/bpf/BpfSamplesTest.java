package io.perfj.bpf;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.BpfProg;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Samples per sub-program against perf report's percentages for the BPF symbols. */
class BpfSamplesTest {

    @Test
    void subProgramSamplesMatchPerfReport() {
        try (PerfData data = PerfData.open(Fixtures.recording("bpf-sys"))) {
            RecordedBpf bpf = RecordedBpf.read(data);
            BpfSamples s = BpfSamples.count(data, bpf);
            String report = Fixtures.golden("bpf-sys", "report-sym");
            BpfProg p = bpf.programs().get(0);
            long[] c = s.of(p.info().id());
            int checked = 0;
            for (int i = 0; i < c.length; i++) {
                String name = BpfProgSymbols.name(p, bpf.btfText(p), i);
                String pct = String.format(Locale.ROOT, "%.2f%%", 100.0 * c[i] / s.total());
                if (c[i] > 0) {
                    assertTrue(report.contains(pct + "  [k] " + name), pct + " " + name);
                    checked++;
                } else {
                    assertTrue(!report.contains("[k] " + name + " "), name);
                }
            }
            assertEquals(2, checked);
        }
    }

    @Test
    void jitedAddressesMapToLineRecords() {
        try (PerfData data = PerfData.open(Fixtures.recording("bpf-sys"))) {
            BpfProg p = RecordedBpf.read(data).programs().get(0);
            JitedLines j = JitedLines.of(p);
            for (int k = 0; k < p.jitedLineInfo().length; k++) {
                long a = p.jitedLineInfo()[k];
                OptionalInt got = j.lineRecordAt(a);
                assertTrue(got.isPresent());
                // records sharing an address: the last one wins, as in libbpf
                assertEquals(a, p.jitedLineInfo()[got.getAsInt()]);
                assertTrue(got.getAsInt() >= k);
            }
            assertTrue(j.lineRecordAt(p.jitedKsyms()[0] - 1).isEmpty());
            assertEquals(OptionalInt.of(0), j.subprogAt(p.jitedKsyms()[0]));
            assertEquals(OptionalInt.of(16), j.xlatedInsnAt(p.jitedKsyms()[1] + 1));
        }
    }
}
