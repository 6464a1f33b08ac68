package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.testing.Addr2LineTool;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link InlineChains} answers as binutils' {@code addr2line -f -i -a} does, byte for byte, for
 * every object with DWARF in the fixtures' build-id caches and symfs trees, at addresses across
 * each object's code: its symbols' starts and ends and evenly spread addresses, asked in the
 * same order of both (binutils' answers depend on what was asked before).
 */
class InlineChainsAddr2LineTest {
    private static final String[] ARCHIVES = {"buildid-cache", "cpp-inline.buildid-cache", "rust-lld.buildid-cache",
        "rust-v0.buildid-cache", "srcline.buildid-cache", "nonpie.buildid-cache", "pltgot.buildid-cache",
        "groups.buildid-cache", "tracepoints.buildid-cache", "vdso.buildid-cache", "go.symfs", "python-jit.symfs",
        "python-perf.symfs", "java-sysroot"};
    /** Fixture directories holding objects of their own. */
    private static final String[] DIRS = {"bin", "debuglink", "corpus/symfs", "btf-encode/bin", "minidebuginfo"};
    /** Evenly spread addresses per object, besides its symbols' own. */
    private static final int SPREAD = 3000;

    @TestFactory
    Stream<DynamicTest> sameAnswersAsAddr2Line() throws IOException {
        Addr2LineTool.assume();
        List<Path> objects = new ArrayList<>();
        for (String a : ARCHIVES) {
            if (!Files.exists(Fixtures.file("archive/" + a + ".tar.xz"))) {
                continue;
            }
            try (Stream<Path> s = Files.walk(BuildIdCacheFixture.unpacked(a))) {
                s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                        .filter(ElfFile::isElf).sorted().forEach(objects::add);
            }
        }
        for (String d : DIRS) {
            try (Stream<Path> s = Files.walk(Fixtures.file(d))) {
                s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                        .filter(ElfFile::isElf).sorted().forEach(objects::add);
            }
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (Path f : objects) {
            try (ElfFile elf = ElfFile.open(f)) {
                if (InlineChains.open(elf).isEmpty()) {
                    continue;
                }
            }
            tests.add(DynamicTest.dynamicTest(f.toString().replaceAll(".*/(target|fixtures)/", ""), () -> compare(f)));
        }
        assertTrue(tests.size() >= 5, "objects with DWARF found: " + tests.size());
        return tests.stream();
    }

    private static void compare(Path f) throws Exception {
        List<Long> addrs;
        StringBuilder mine = new StringBuilder();
        boolean fellBack = false;
        try (ElfFile elf = ElfFile.open(f)) {
            addrs = addresses(elf);
            InlineChains chains = InlineChains.open(elf).orElseThrow();
            for (long a : addrs) {
                try {
                    mine.append(chains.answer(a));
                } catch (InlineChains.Unanswerable e) {
                    fellBack = true; // the caller asks addr2line from here on
                    break;
                }
            }
        }
        Assumptions.assumeFalse(fellBack && mine.isEmpty(), "the reader leaves " + f + " to addr2line");
        String theirs = Addr2LineTool.answers(f, addrs);
        String ours = mine.toString();
        if (!theirs.startsWith(ours) || !fellBack && !theirs.equals(ours)) {
            assertEquals(firstDifference(theirs, ours), firstDifference(ours, theirs), "answers for " + f);
        }
    }

    /** The answer block around the first difference of {@code a} from {@code b}. */
    private static String firstDifference(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        int from = a.lastIndexOf("\n0x", Math.max(0, i - 1));
        from = Math.max(0, a.lastIndexOf("\n0x", Math.max(0, from - 1)));
        int to = a.indexOf("\n0x", i);
        return a.substring(from, to < 0 ? a.length() : Math.min(to, from + 2000));
    }

    /** Symbol starts, ends and middles in executable sections, and addresses spread across them. */
    static List<Long> addresses(ElfFile elf) {
        TreeSet<Long> set = new TreeSet<>();
        List<SectionHeader> code = elf.sections().stream()
                .filter(s -> s.isAlloc() && (s.flags() & io.perfj.elf.Elf.SHF_EXECINSTR) != 0 && s.size() > 0)
                .toList();
        for (var sym : elf.symtab()) {
            for (SectionHeader s : code) {
                if (sym.shndx() == s.index()) {
                    set.add(sym.value());
                    if (sym.size() > 1) {
                        set.add(sym.value() + sym.size() - 1);
                        set.add(sym.value() + sym.size() / 2);
                    }
                }
            }
        }
        long total = code.stream().mapToLong(SectionHeader::size).sum();
        for (SectionHeader s : code) {
            long n = Math.max(1, SPREAD * s.size() / Math.max(1, total));
            for (long k = 0; k < n; k++) {
                set.add(s.addr() + s.size() * k / n);
            }
        }
        // a mixed order: binutils' answers may depend on the order of questions
        List<Long> out = new ArrayList<>(set);
        java.util.Collections.shuffle(out, new java.util.Random(42));
        return out;
    }

}
