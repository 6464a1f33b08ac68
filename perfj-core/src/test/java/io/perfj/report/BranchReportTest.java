package io.perfj.report;

import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.PerfDataBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Branch mode counts branches, not samples: one period-1 entry per branch of every stack. */
class BranchReportTest {
    @TempDir
    Path tmp;

    static final long ST = SampleFormat.IP | SampleFormat.TID | SampleFormat.PERIOD | SampleFormat.BRANCH_STACK;

    private PerfData open(boolean feature) throws Exception {
        PerfDataBuilder b = new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);
        b.addAttr(b.attr(0, 0, 1000, ST, 0, 0), 1);
        // two samples, periods 1000 and 5: three branches, two of them the same (cycles 3 in flags bits 4..19)
        b.add(b.record(RecordType.SAMPLE, 2, 0x1000, (5L << 32) | 5, 1000, 2, 0x10, 0x20, 3 << 4, 0x10, 0x20, 3 << 4));
        b.add(b.record(RecordType.SAMPLE, 2, 0x1000, (5L << 32) | 5, 5, 1, 0x30, 0x40, 2));
        // a sample with an empty stack adds nothing
        b.add(b.record(RecordType.SAMPLE, 2, 0x1000, (5L << 32) | 5, 7, 0));
        if (feature) {
            b.feature(FeatureId.BRANCH_STACK, new byte[0]);
        }
        Path f = tmp.resolve("b" + feature + ".data");
        Files.write(f, b.buildFile());
        return PerfData.open(f);
    }

    private static String report(PerfData d, String keys) {
        Session s = Session.of(d, SessionOptions.of(SymbolOptions.builder().perfMapDir(null).noSystemFiles().build()));
        BranchReport r = BranchReport.build(s, BranchSortKey.parse(keys), false);
        StringWriter w = new StringWriter();
        r.print(new PrintWriter(w), true, 0);
        assertEquals(3, r.branches(0));
        return w.toString();
    }

    @Test
    void eachBranchIsOneSampleOfPeriodOne() throws Exception {
        try (PerfData d = open(true)) {
            assertTrue(BranchReport.isDefault(d));
            String out = report(d, BranchSortKey.DEFAULT);
            // the samples with branch stacks, as perf 7.2 counts them (perf 6.1: the branches)
            assertTrue(out.contains("# Samples: 2  of event"), out);
            assertTrue(out.contains("# Event count (approx.): 3\n"), out);
            List<String> rows = out.lines().filter(l -> l.startsWith("    ")).toList();
            assertEquals(2, rows.size(), out);
            assertTrue(rows.get(0).startsWith("    66.67%  :5       [unknown]             [H] 0x0000000000000010"
                    + "  [H] 0x0000000000000020  3"), rows.get(0));
            assertTrue(rows.get(1).startsWith("    33.33%"), rows.get(1));
            // no cycles: perf's "-"
            assertTrue(rows.get(1).contains("  -"), rows.get(1));
        }
    }

    @Test
    void keysDecideWhatMerges() throws Exception {
        try (PerfData d = open(true)) {
            // by the target's object alone every branch is one row
            List<String> rows = report(d, "dso_to").lines().filter(l -> l.startsWith("   ")).toList();
            assertEquals(List.of("   100.00%  [unknown]           "), rows);
        }
    }

    @Test
    void branchModeIsPerfsDefaultOnlyWithTheFeature() throws Exception {
        try (PerfData d = open(false)) {
            assertFalse(BranchReport.isDefault(d));
            assertTrue(BranchReport.hasBranchStacks(d));
        }
    }
}
