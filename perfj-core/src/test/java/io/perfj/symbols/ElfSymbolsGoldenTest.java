package io.perfj.symbols;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every call-chain frame perf printed in the {@code perf script} goldens, resolved again through
 * the unpacked build-id cache: user frames print the DSO address (map_ip) so the DSO's table must
 * give the same name and offset; kernel frames resolve through the cached kallsyms; JIT frames
 * through the committed perf-9690.map.
 */
class ElfSymbolsGoldenTest {

    record Frame(long addr, String sym, long off, String dso) {
    }

    private final Map<String, Optional<SymbolTable>> tables = new HashMap<>();
    private Kallsyms kallsyms;

    @Test
    void goldenFramesResolveLikePerf() {
        BuildIdCacheFixture.dir();
        int checked = 0;
        int matched = 0;
        int skipped = 0;
        Map<String, int[]> perDso = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (String rec : Fixtures.RECORDINGS) {
            String script = Fixtures.golden(rec, "script");
            for (String line : script.split("\n")) {
                Frame f = parse(line);
                if (f == null) {
                    continue;
                }
                Optional<SymbolTable> t = table(f.dso());
                if (t.isEmpty()) {
                    skipped++;
                    continue;
                }
                Symbol s = t.get().find(f.addr());
                String got = s == null ? "[unknown]" : s.name() + "+0x" + Long.toHexString(f.addr() - s.start());
                String want = f.sym().equals("[unknown]") ? "[unknown]" : f.sym() + "+0x" + Long.toHexString(f.off());
                if (f.dso().equals("[kernel.kallsyms]") && s == null && !f.sym().equals("[unknown]")
                        && f.sym().startsWith("bpf_prog_")) {
                    skipped++; // BPF programs come from PERF_RECORD_KSYMBOL, not kallsyms
                    continue;
                }
                checked++;
                int[] c = perDso.computeIfAbsent(f.dso(), k -> new int[2]);
                c[1]++;
                if (got.equals(want)) {
                    matched++;
                    c[0]++;
                } else if (failures.size() < 40) {
                    failures.add(rec + ": " + Long.toHexString(f.addr()) + " " + f.dso() + ": perf " + want + ", ours " + got);
                }
            }
        }
        System.out.printf("golden frames: %d checked, %d matched (%.2f%%), %d skipped (DSO not in cache)%n",
                checked, matched, 100.0 * matched / Math.max(1, checked), skipped);
        perDso.forEach((k, v) -> System.out.printf("  %6d/%6d %s%n", v[0], v[1], k));
        failures.forEach(x -> System.out.println("  MISMATCH " + x));
        assertTrue(checked > 10_000, "too few frames checked: " + checked);
        assertEquals(checked, matched, "frames resolved differently from perf (first: " + (failures.isEmpty() ? "" : failures.getFirst()) + ")");
    }

    static Frame parse(String line) {
        if (!line.startsWith("\t") || !line.endsWith(")")) {
            return null;
        }
        String l = line.strip();
        int sp = l.indexOf(' ');
        int dsoAt = l.lastIndexOf(" (");
        if (sp <= 0 || dsoAt < sp) {
            return null;
        }
        String dso = l.substring(dsoAt + 2, l.length() - 1);
        String sym = l.substring(sp + 1, dsoAt);
        if (dso.equals("inlined") || dso.equals("[unknown]")) {
            return null;
        }
        long addr;
        try {
            addr = Long.parseUnsignedLong(l.substring(0, sp), 16);
        } catch (NumberFormatException e) {
            return null;
        }
        if (sym.equals("[unknown]")) {
            return new Frame(addr, sym, 0, dso);
        }
        int plus = sym.lastIndexOf("+0x");
        if (plus < 0) {
            return null;
        }
        return new Frame(addr, sym.substring(0, plus), Long.parseUnsignedLong(sym.substring(plus + 3), 16), dso);
    }

    private Optional<SymbolTable> table(String dso) {
        return tables.computeIfAbsent(dso, d -> {
            if (d.equals("[kernel.kallsyms]")) {
                Optional<Path> k = BuildIdCacheFixture.member("[kernel.kallsyms]", "kallsyms");
                if (k.isEmpty()) {
                    return Optional.empty();
                }
                kallsyms = Kallsyms.read(k.get());
                return Optional.of(kallsyms.kernel());
            }
            if (d.equals("/tmp/perf-9690.map")) {
                return Optional.of(PerfMap.read(Fixtures.file("perf-maps/perf-9690.map")).table());
            }
            if (d.equals("[vdso]")) {
                return BuildIdCacheFixture.member("[vdso]", "vdso").map(p -> ElfSymbols.loadUser(p, List.of(), false, io.perfj.compat.PerfSymbolTree.RULES, Demangling.PERF_6_1).table());
            }
            if (!d.startsWith("/")) {
                return Optional.empty();
            }
            Optional<Path> elf = BuildIdCacheFixture.member(d, "elf");
            if (elf.isEmpty()) {
                return Optional.empty();
            }
            Optional<Path> debug = BuildIdCacheFixture.member(d, "debug");
            return Optional.of(ElfSymbols.loadUser(elf.get(), debug.map(List::of).orElse(List.of()), false, io.perfj.compat.PerfSymbolTree.RULES, Demangling.PERF_6_1).table());
        });
    }
}
