package io.perfj.report;

import io.perfj.perfdata.PerfData;
import io.perfj.profile.Frame;
import io.perfj.session.Compat;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.Dso;
import io.perfj.testing.Fixtures;
import io.perfj.testing.Pipeline;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The default report (no {@code --compat}): rows are merged by plain key equality and printed in
 * the total order {@link Hists} documents, checked on every committed recording against an
 * independent statement of that order; and its rows are the same as under
 * {@code --compat perf-6.1} wherever perf's comparisons are an order (no inlined frames).
 */
class DefaultReportOrderTest {
    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String name : Fixtures.RECORDINGS) {
            for (List<SortKey> keys : List.of(List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM),
                    List.of(SortKey.SYM), List.of(SortKey.DSO), List.of(SortKey.PID, SortKey.SYM))) {
                out.add(Arguments.of(name, keys, true, CallchainMode.GRAPH));
                out.add(Arguments.of(name, keys, false, CallchainMode.NONE));
            }
        }
        return out.stream();
    }

    private static Report report(Path file, List<SortKey> keys, boolean children, CallchainMode mode, Compat compat) {
        PerfData data = PerfData.open(file);
        ReportOptions o = new ReportOptions(keys, false, children, mode, children, 0.5, 0, 127,
                null, null, null, null, null, null);
        return Report.build(Session.of(data, new SessionOptions(Pipeline.noSystemFiles(), io.perfj.compat.Perf61Quirks.of(compat))), o, true);
    }

    @ParameterizedTest(name = "{0} {1} children={2}")
    @MethodSource("cases")
    void rowsAreKeyedExactlyAndTotallyOrdered(String name, List<SortKey> keys, boolean children, CallchainMode mode) {
        Report r = report(Fixtures.recording(name), keys, children, mode, Compat.NONE);
        for (Hists h : r.hists()) {
            List<HistEntry> rows = h.entries();
            Set<List<Object>> seen = new HashSet<>();
            long self = 0;
            for (HistEntry e : rows) {
                assertTrue(seen.add(key(h, e, keys)), () -> "two rows with one key: " + key(h, e, keys));
                self += e.selfPeriod();
            }
            if (!children) {
                assertEquals(h.totalPeriod(), self, "every sample's period is in one row");
            }
            for (int i = 1; i < rows.size(); i++) {
                int c = expectedOrder(h, rows.get(i - 1), rows.get(i), keys, children, mode);
                int at = i;
                assertTrue(c < 0, () -> "rows " + (at - 1) + " and " + at + " out of order: "
                        + key(h, rows.get(at - 1), keys) + " / " + key(h, rows.get(at), keys));
            }
        }
    }

    /** On a frame-pointer recording perf's comparisons are an order: the same rows, in some order. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("framePointerRecordings")
    void sameRowsAsPerfWithoutInlinedFrames(String name) {
        for (boolean children : new boolean[]{false, true}) {
            CallchainMode mode = children ? CallchainMode.GRAPH : CallchainMode.NONE;
            List<SortKey> keys = List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM);
            Report d = report(Fixtures.recording(name), keys, children, mode, Compat.NONE);
            Report p = report(Fixtures.recording(name), keys, children, mode, Compat.PERF_6_1);
            for (int ev = 0; ev < d.hists().size(); ev++) {
                assertEquals(rows(d.hists().get(ev)), rows(p.hists().get(ev)), name + " children=" + children);
            }
        }
    }

    static Stream<String> framePointerRecordings() {
        return Stream.of("c-fp", "two-events", "pipe", "zstd");
    }

    private static Map<String, Long> rows(Hists h) {
        Map<String, Long> out = new HashMap<>();
        for (HistEntry e : h.entries()) {
            Frame f = h.frames().get(e.frame());
            out.merge(e.comm() + " " + f.dsoName() + " " + f.symName() + " " + e.accPeriod(), e.selfPeriod(), Long::sum);
        }
        return out;
    }

    /** What tells two rows apart: the sort keys' values (a DSO by identity, a symbol by value). */
    private static List<Object> key(Hists h, HistEntry e, List<SortKey> keys) {
        Frame f = h.frames().get(e.frame());
        List<Object> k = new ArrayList<>();
        for (SortKey s : keys) {
            switch (s) {
                case COMM -> k.add(e.comm());
                case PID, TID -> k.add(e.pid() + "/" + e.tid());
                case CPU -> k.add(e.cpu());
                case DSO -> k.add(f.dso() == null ? "[unknown]" : new Identity(f.dso()));
                case SYM -> {
                    k.add(f.dso() == null ? "[unknown]" : new Identity(f.dso()));
                    k.add(f.sym() != null ? f.sym() : f.addr());
                }
                case TRACE -> k.add(e.trace() == null ? "N/A" : java.util.HexFormat.of().formatHex(e.trace()));
                case TRACE_FIELDS -> k.add(java.util.Arrays.deepToString(e.traceFields()));
            }
        }
        return k;
    }

    /** Trace texts by their unsigned bytes; no text (another event's rows) compares equal. */
    private static int traceOrder(byte[] a, byte[] b) {
        return a == null || b == null ? 0 : java.util.Arrays.compareUnsigned(a, b);
    }

    private record Identity(Dso dso) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Identity i && i.dso == dso;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(dso);
        }

        @Override
        public String toString() {
            return dso.longName();
        }
    }

    /** The order of the class comment of {@link Hists}, written out again. */
    private static int expectedOrder(Hists h, HistEntry a, HistEntry b, List<SortKey> keys, boolean children,
                                     CallchainMode mode) {
        if (children && a.accPeriod() != b.accPeriod()) {
            return a.accPeriod() > b.accPeriod() ? -1 : 1;
        }
        if (children && mode != CallchainMode.NONE && a.maxDepth() != b.maxDepth()) {
            return a.maxDepth() > b.maxDepth() ? -1 : 1; // caller order: the deeper tree first
        }
        if (a.selfPeriod() != b.selfPeriod()) {
            return a.selfPeriod() > b.selfPeriod() ? -1 : 1;
        }
        Frame fa = h.frames().get(a.frame());
        Frame fb = h.frames().get(b.frame());
        for (SortKey k : keys) {
            int c = switch (k) {
                case COMM -> a.comm().compareTo(b.comm());
                case PID, TID -> a.tid() != b.tid() ? Integer.compare(a.tid(), b.tid()) : Integer.compare(a.pid(), b.pid());
                case CPU -> Integer.compare(a.cpu(), b.cpu());
                case DSO -> dso(fa, fb);
                case SYM -> {
                    int s;
                    if (fa.sym() == null || fb.sym() == null) {
                        s = fa.sym() != null ? -1 : fb.sym() != null ? 1 : Long.compareUnsigned(fa.addr(), fb.addr());
                    } else {
                        s = fa.sym().name().compareTo(fb.sym().name());
                    }
                    if (s == 0 && !keys.contains(SortKey.DSO)) {
                        s = dso(fa, fb);
                    }
                    if (s == 0 && fa.sym() != null && fb.sym() != null) {
                        s = Long.compareUnsigned(fa.sym().start(), fb.sym().start());
                    }
                    yield s;
                }
                case TRACE -> traceOrder(a.trace(), b.trace());
                case TRACE_FIELDS -> 0;
                case SRCLINE -> a.srcline().compareTo(b.srcline());
                case SRCFILE -> a.srcfile().compareTo(b.srcfile());
                case PARENT -> Hists.parentOrder(a.parent(), b.parent());
            };
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.frame(), b.frame());
    }

    private static int dso(Frame a, Frame b) {
        if (a.dso() == b.dso()) {
            return 0;
        }
        if (a.dso() == null || b.dso() == null) {
            return a.dso() == null ? 1 : -1;
        }
        int c = a.dso().shortName().compareTo(b.dso().shortName());
        return c != 0 ? c : Objects.compare(a.dso().longName(), b.dso().longName(), String::compareTo);
    }
}
