package io.perfj.symbols;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replays every fixture through a {@link Machine} and compares, sample by sample, the comm, the
 * DSO of the sample ip and its DSO-relative address with the first frame perf script printed.
 */
class MachineGoldenTest {
    private static final Pattern HEADER = Pattern.compile(
            "^(.*?)\\s+(\\d+)(?:/(\\d+))?\\s+(?:\\[(\\d+)\\]\\s+)?(\\d+\\.\\d+):\\s+(\\d+)\\s+(\\S+):\\s*$");
    private static final Pattern FRAME = Pattern.compile("^\\s+([0-9a-f]+) (.*) \\((.*)\\)$");

    /** What perf script printed for one sample: comm, tid, and its first (non-inlined) frame. */
    record Expected(String comm, int tid, Long addr, String dso, String sym, String line) {
    }

    static List<Expected> parse(String script) {
        List<Expected> out = new ArrayList<>();
        String[] lines = script.split("\n");
        for (int i = 0; i < lines.length; i++) {
            Matcher h = HEADER.matcher(lines[i]);
            if (!h.matches()) {
                continue;
            }
            Long addr = null;
            String dso = null;
            String line = null;
            String sym = null;
            for (int j = i + 1; j < lines.length && !lines[j].isEmpty() && !HEADER.matcher(lines[j]).matches(); j++) {
                Matcher f = FRAME.matcher(lines[j]);
                if (!f.matches()) {
                    continue;
                }
                long a = Long.parseUnsignedLong(f.group(1), 16);
                if (addr == null) {
                    if (a == -1L) {
                        break; // perf printed a context marker: no usable first frame
                    }
                    addr = a;
                    line = lines[j];
                } else if (a != addr) {
                    break;
                }
                if (!f.group(3).equals("inlined")) {
                    dso = f.group(3);
                    sym = f.group(2);
                    break;
                }
            }
            out.add(new Expected(h.group(1).stripLeading(), Integer.parseInt(h.group(2)), addr, dso, sym, line));
        }
        return out;
    }

    /** Counts; dso/addr "ok" include the samples perf printed no comparable first frame for. */
    record Result(String name, int samples, int commOk, int dsoOk, int addrOk, int dsoChecked, int addrChecked,
                  List<String> diffs) {
        @Override
        public String toString() {
            int dsoUnchecked = samples - dsoChecked;
            int addrUnchecked = samples - addrChecked;
            return String.format("%-10s samples %5d  comm %5d/%d  dso %5d/%d (%d not comparable)"
                            + "  map_ip %5d/%d (%d not comparable)", name, samples, commOk, samples,
                    dsoOk - dsoUnchecked, dsoChecked, dsoUnchecked, addrOk - addrUnchecked, addrChecked,
                    addrUnchecked);
        }
    }

    static SymbolOptions options() {
        return SymbolOptions.builder().perfMapDir(Fixtures.file("perf-maps")).noSystemFiles().build();
    }

    static Result replay(String name, boolean execClears) {
        Path file = Fixtures.recording(name);
        List<Expected> expected = parse(Fixtures.golden(name, "script"));
        List<String> diffs = new ArrayList<>();
        int n = 0;
        int commOk = 0;
        int dsoOk = 0;
        int addrOk = 0;
        int dsoChecked = 0;
        int addrChecked = 0;
        try (PerfData data = PerfData.open(file)) {
            RecordInput in = data.orderedRecords();
            Machine m = null;
            for (RawRecord raw; (raw = in.next()) != null; ) {
                if (m == null) {
                    m = new Machine(data, options());
                    m.execClearsMaps(execClears);
                }
                PerfRecord r = RecordDecoder.decode(raw, data.evlist());
                if (!(r instanceof Sample s)) {
                    m.process(r);
                    continue;
                }
                Thread t = m.thread(s.pid(), s.tid());
                Location loc = m.resolve(t, s.cpumode(), s.ip());
                String dso = loc.dso() == null ? "[unknown]" : loc.dso().longName();
                Expected e = n < expected.size() ? expected.get(n) : null;
                n++;
                if (e == null) {
                    diffs.add("extra sample " + n);
                    continue;
                }
                boolean cOk = e.comm().equals(t.comm());
                boolean dOk = e.dso() == null || dso.equals(e.dso());
                boolean aOk = e.addr() == null || loc.mapIp() == e.addr();
                dsoChecked += e.dso() == null ? 0 : 1;
                addrChecked += e.addr() == null ? 0 : 1;
                commOk += cOk ? 1 : 0;
                dsoOk += dOk ? 1 : 0;
                addrOk += aOk ? 1 : 0;
                if ((!cOk || !dOk || !aOk) && diffs.size() < 20) {
                    diffs.add(String.format("#%d %d/%d cpumode %d ip %x: have %s %x (%s), perf: %s |%s", n, s.pid(),
                            s.tid(), s.cpumode(), s.ip(), t.comm(), loc.mapIp(), dso, e.comm(), e.line()));
                }
            }
        }
        assertEquals(expected.size(), n, name + ": sample count");
        return new Result(name, n, commOk, dsoOk, addrOk, dsoChecked, addrChecked, diffs);
    }

    /** The non-perf option of clearing maps on exec: the same answers on these recordings. */
    @ParameterizedTest
    @MethodSource("names")
    void execClearingMapsVariant(String name) {
        Result r = replay(name, true);
        System.out.println("[machine-golden exec-clears] " + r);
        r.diffs().forEach(d -> System.out.println("[machine-golden exec-clears]   " + d));
        assertAllMatch(r);
    }

    /**
     * Every count of {@code r} is a match: comm for every sample, DSO and DSO-relative address for
     * every sample perf printed a first frame for; and those are nearly all samples (perf prints
     * none for a sample whose chain starts with a context marker), so the check cannot pass by
     * comparing nothing.
     */
    static void assertAllMatch(Result r) {
        assertEquals(r.samples(), r.commOk(), r.name() + " comm mismatches: " + r.diffs());
        assertEquals(r.samples(), r.dsoOk(), r.name() + " dso mismatches: " + r.diffs());
        assertEquals(r.samples(), r.addrOk(), r.name() + " map_ip mismatches: " + r.diffs());
        assertTrue(r.dsoChecked() >= r.samples() * 0.97, r.name() + ": only " + r.dsoChecked() + " of "
                + r.samples() + " samples had a DSO to compare");
        assertTrue(r.addrChecked() >= r.samples() * 0.97, r.name() + ": only " + r.addrChecked() + " of "
                + r.samples() + " samples had an address to compare");
    }

    /** perf's "name+0xoff" for a location, "[unknown]" without a symbol. */
    static String symbolText(Location loc) {
        if (loc.symbol() == null) {
            return "[unknown]";
        }
        return loc.symbol().name() + "+0x" + Long.toHexString(loc.symbolOffset());
    }

    /**
     * With the build-id cache: the symbol of every sample ip perf named equals perf's, whatever
     * the symbols come from (ELF objects, kallsyms, BPF KSYMBOLs, the vDSO, perf maps); a sample
     * perf named a symbol for but perfj has no DSO for is a mismatch too.
     */
    @ParameterizedTest
    @MethodSource("names")
    void kernelBpfAndJitSymbolsMatchPerfWithTheBuildIdCache(String name) {
        Path cache = BuildIdCacheFixture.dir();
        SymbolOptions o = SymbolOptions.builder().buildIdDir(cache).perfMapDir(Fixtures.file("perf-maps")).noSystemFiles().build();
        List<Expected> expected = parse(Fixtures.golden(name, "script"));
        int n = 0;
        int[] checked = new int[DsoKind.values().length];
        int[] ok = new int[DsoKind.values().length];
        int noDso = 0;
        List<String> diffs = new ArrayList<>();
        try (PerfData data = PerfData.open(Fixtures.recording(name))) {
            RecordInput in = data.orderedRecords();
            Machine m = null;
            for (RawRecord raw; (raw = in.next()) != null; ) {
                if (m == null) {
                    // the goldens are perf 6.1's: its PLT symbols and its tree's answers
                    m = new Machine(data, o, new DefaultSymbolLoader(o, io.perfj.compat.PerfSymbolTree.RULES, Demangling.PERF_6_1));
                }
                PerfRecord r = RecordDecoder.decode(raw, data.evlist());
                if (!(r instanceof Sample s)) {
                    m.process(r);
                    continue;
                }
                Expected e = expected.get(n++);
                Location loc = m.resolve(m.thread(s.pid(), s.tid()), s.cpumode(), s.ip());
                if (e.sym() == null) {
                    continue;
                }
                if (loc.dso() == null) {
                    noDso++;
                    if (diffs.size() < 10) {
                        diffs.add(String.format("#%d: no DSO, perf %s", n, e.line()));
                    }
                    continue;
                }
                int k = loc.dso().kind().ordinal();
                checked[k]++;
                if (symbolText(loc).equals(e.sym())) {
                    ok[k]++;
                } else if (diffs.size() < 10) {
                    diffs.add(String.format("#%d %s: have %s, perf %s", n, loc.dso().longName(), symbolText(loc), e.sym()));
                }
            }
            StringBuilder sb = new StringBuilder("[machine-symbols] " + String.format("%-10s", name));
            for (DsoKind kind : DsoKind.values()) {
                if (checked[kind.ordinal()] > 0) {
                    sb.append(String.format("  %s %d/%d", kind, ok[kind.ordinal()], checked[kind.ordinal()]));
                }
            }
            System.out.println(sb);
            diffs.forEach(d -> System.out.println("[machine-symbols]   " + d));
            if (!m.warnings().isEmpty()) {
                System.out.println("[machine-symbols]   warnings: " + m.warnings());
            }
            int all = 0;
            for (DsoKind kind : DsoKind.values()) {
                assertEquals(checked[kind.ordinal()], ok[kind.ordinal()], name + " " + kind + " symbols: " + diffs);
                all += checked[kind.ordinal()];
            }
            assertEquals(0, noDso, name + ": samples perf named a symbol for, without a DSO here: " + diffs);
            assertTrue(all >= expected.size() * 0.97, name + ": only " + all + " of " + expected.size()
                    + " samples had a symbol to compare");
        }
    }

    static List<String> names() {
        return Fixtures.RECORDINGS;
    }

    @ParameterizedTest
    @MethodSource("names")
    void sampleIpDsoAndCommMatchPerf(String name) {
        Result r = replay(name, false);
        System.out.println("[machine-golden] " + r);
        r.diffs().forEach(d -> System.out.println("[machine-golden]   " + d));
        assertAllMatch(r);
    }
}
