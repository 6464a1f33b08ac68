package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rust-lld.data: a Rust program linked by LLD (.text a page above its file offset) whose hottest
 * function is ThinLTO's {@code _ZN9hashbrown3raw21RawTable$LT$T$C$A$GT$14reserve_rehash17h...E.llvm.N}.
 * The goldens are perf 6.1's (compared with {@code --compat perf-6.1}) and perf 7.2's (the
 * default mode); see fixtures/make-rust-lld.sh. Only bin/rustlld is in the recording's build-id
 * cache, so reports are restricted to it and script to its frames.
 */
class RustLldGoldenTest {
    private static final String REHASH = "hashbrown::raw::RawTable<T,A>::reserve_rehash";
    private static final Pattern STDIO_INSN = Pattern.compile("^ +([0-9.]+) : +([0-9a-f]+):.*");

    private static CliFixtures.Run run(String... args) {
        List<String> a = new ArrayList<>(Arrays.asList(args));
        a.addAll(List.of("-i", Fixtures.recording("rust-lld").toString(), "--buildid-dir",
                BuildIdCacheFixture.unpacked("rust-lld.buildid-cache").toString(), "--no-system-files"));
        CliFixtures.Run r = CliFixtures.run(a.toArray(new String[0]));
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    private static void assertReport(String golden, CliFixtures.Run r) {
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(Fixtures.golden("rust-lld", golden))),
                String.join("\n", ReportGoldenTest.withoutTip(r.out())));
    }

    @Test
    void reportNoChildrenAsPerf72() {
        assertReport("report-no-children.perf72",
                run("report", "--stdio", "-g", "none", "--no-children", "--dsos", "rustlld"));
    }

    /**
     * With children, the rows of perf 7.2's default, the functions inlined at frame-pointer
     * addresses included: a sample outside bin/rustlld is left out, and a sample inside counts
     * in every caller's row ({@code HashMap::insert} 35.99%, which a page fault's sample reached
     * first). Masked: the rows of class {@code self-as-inlined} (fixtures/README.md): perf 7.2
     * names a function whose DWARF name differs from its symbol (Rust's DWARF names lack the
     * path: {@code build}, {@code insert<u64, u64, ...>}) as inlined in itself, and perfj keeps
     * it as the symbol's row; and libc's {@code __libc_start_call_main}, which perf 7.2 named
     * from the machine's libc and perfj cannot (only bin/rustlld is in the recording's build-id
     * cache): perfj prints its address.
     */
    @Test
    void reportChildrenAsPerf72() {
        List<String> want = ReportGoldenTest.withoutTip(Fixtures.golden("rust-lld", "report.perf72")).stream()
                .filter(ReportGoldenTest::isRow).filter(l -> !SELF_AS_INLINED.stream().anyMatch(l::endsWith)
                        && !l.endsWith("[.] __libc_start_call_main")).toList();
        List<String> got = ReportGoldenTest.withoutTip(run("report", "--stdio", "-g", "none", "--dsos", "rustlld").out())
                .stream().filter(ReportGoldenTest::isRow).toList();
        assertEquals(1, got.stream().filter(l -> l.matches(" +59\\.91% +0\\.00% +rustlld +\\[\\.] 0x00007f[0-9a-f]+")).count(),
                String.join("\n", got));
        assertEquals(String.join("\n", want),
                String.join("\n", got.stream().filter(l -> !l.matches(".*\\[\\.] 0x00007f[0-9a-f]+")).toList()));
    }

    /** The rows perf 7.2 prints for a function as inlined in itself (class {@code self-as-inlined}). */
    private static final List<String> SELF_AS_INLINED = List.of("[.] build (inlined)",
            "[.] insert<u64, u64, std::hash::random::RandomState, alloc::alloc::Global> (inlined)",
            "[.] reserve_rehash<(u64, u64), alloc::alloc::Global, hashbrown::map::make_hasher::{closure_env#0}"
                    + "<u64, u64, std::hash::random::RandomState>> (inlined)",
            "[.] score (inlined)");

    @Test
    void reportNoChildrenAsPerf61() {
        CliFixtures.Run r = run("report", "--stdio", "-g", "none", "--no-children", "--dsos", "rustlld",
                "--compat", "perf-6.1");
        assertReport("report-no-children", r);
        assertTrue(r.out().contains("[.] " + REHASH + "\n"), ".llvm.N suffix dropped");
    }

    @Test
    void reportChildrenAsPerf61() {
        assertReport("report", run("report", "--stdio", "-g", "none", "--dsos", "rustlld", "--compat", "perf-6.1"));
    }

    /** perf 6.1's script lines for the program's own frames: file offsets, names, the object. */
    @Test
    void scriptFramesAsPerf61() {
        CliFixtures.Run r = run("script", "-F", "comm,tid,ip,sym,dso", "--compat", "perf-6.1");
        List<String> want = ownFrames(Fixtures.golden("rust-lld", "script"));
        assertEquals(3007, want.size());
        assertEquals(want, ownFrames(r.out()));
        assertFalse(r.out().contains(".llvm."), "a .llvm.N name left mangled");
    }

    private static List<String> ownFrames(String script) {
        return script.lines().filter(l -> l.endsWith("/bin/rustlld)")).toList();
    }

    /** The instructions of reserve_rehash.llvm.N and their percentages, found by its demangled name. */
    @Test
    void annotateByDemangledNameAsPerf() {
        AnnotateGoldenTest.assumeObjdump();
        List<String> want61 = percents(Fixtures.golden("rust-lld", "annotate"));
        assertEquals(want61, percents(Fixtures.golden("rust-lld", "annotate.perf72")), "perf 6.1 and 7.2 agree");
        assertTrue(want61.contains("84.38 21e97"), want61.toString());
        CliFixtures.Run r61 = run("annotate", "--stdio", "--compat", "perf-6.1", REHASH);
        assertEquals(want61, percents(r61.out()), r61.err());
        assertTrue(r61.out().contains("0000000000021ac0 <" + REHASH + ">:"), r61.out());
        CliFixtures.Run r = run("annotate", "--stdio", REHASH);
        assertEquals(want61, percents(r.out()), r.err());
    }

    /**
     * perf 7.2's whole listing (objdump without {@code -l}: no inlined functions' names and
     * {@code file:line} lines). perf 7.2 ran Debian sid's objdump (binutils 2.47), which spells a
     * shift by one {@code shr $1,%rax} where the host's 2.40 prints {@code shr %rax}: the one
     * difference, the disassembler's and not perf's, is undone before comparing.
     */
    @Test
    void annotateIsPerf72sByDefault() {
        AnnotateGoldenTest.assumeObjdump();
        CliFixtures.Run r = CliFixtures.run("annotate", "--stdio", REHASH, "-i", Fixtures.recording("rust-lld").toString(),
                "--buildid-dir", BuildIdCacheFixture.unpacked("rust-lld.buildid-cache").toString(), "--no-system-files");
        String want = Fixtures.golden("rust-lld", "annotate.perf72");
        assertTrue(want.contains(" shr    $1,%rax\n"), "perf 7.2's objdump spells the count");
        assertEquals(implicitShiftCount(want), implicitShiftCount(r.out()), r.err());
    }

    /** {@code shr $1,REG} as objdump 2.40 and earlier print it, {@code shr REG}. */
    static String implicitShiftCount(String listing) {
        return listing.replaceAll("(?m)^(.*: +(?:shr|shl|sar|sal|rol|ror) +)\\$1,(%\\w+)$", "$1$2");
    }

    /** capstone reads the bytes itself: from the address of the symbol's file offset too. */
    @Test
    void annotateWithCapstone() {
        CliFixtures.Run r = CliFixtures.runPerf("annotate", "--stdio", "--disassembler", "capstone", REHASH,
                "-i", Fixtures.recording("rust-lld").toString(), "--buildid-dir",
                BuildIdCacheFixture.unpacked("rust-lld.buildid-cache").toString(), "--no-system-files");
        Assumptions.assumeFalse(r.rc() != 0 && r.err().contains("not found"), "capstone is not installed");
        assertEquals(0, r.rc(), r.err());
        List<String> got = percents(r.out());
        assertTrue(got.contains("84.38 21e97"), got.toString());
        assertEquals(percents(Fixtures.golden("rust-lld", "annotate")).stream().filter(l -> !l.startsWith("0.00 ")).toList(),
                got.stream().filter(l -> !l.startsWith("0.00 ")).toList());
    }

    /** "PERCENT ADDRESS" of every instruction line. */
    private static List<String> percents(String stdio) {
        List<String> out = new ArrayList<>();
        for (String l : stdio.split("\n")) {
            Matcher m = STDIO_INSN.matcher(l);
            if (m.matches()) {
                out.add(m.group(1) + " " + m.group(2));
            }
        }
        return out;
    }
}
