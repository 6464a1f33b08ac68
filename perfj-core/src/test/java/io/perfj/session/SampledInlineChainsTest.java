package io.perfj.session;

import io.perfj.dwarf.InlineChains;
import io.perfj.elf.ElfFile;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.Addr2LineTool;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The inline chains of every address the fixtures' samples ask about (frame-pointer, LBR and
 * DWARF-unwound callchains, asked ahead by the session) are binutils' {@code addr2line -f -i -a}
 * answers byte for byte, asked in the same order as the session asks them.
 */
class SampledInlineChainsTest {
    /** Recording, build-id cache archive, and whether the archive is a symfs tree. */
    private static final String[][] RECORDINGS = {
        {"c-fp", "buildid-cache", ""}, {"record-hot", "buildid-cache", ""}, {"hot-20k", "buildid-cache", ""},
        {"cpp-inline", "cpp-inline.buildid-cache", ""}, {"srcline", "srcline.buildid-cache", ""},
        {"rust-lld", "rust-lld.buildid-cache", ""},
        {"nonpie", "nonpie.buildid-cache", ""}, {"pltgot", "pltgot.buildid-cache", ""},
        {"groups", "groups.buildid-cache", ""}, {"vdso", "vdso.buildid-cache", ""}, {"go", "go.symfs", "symfs"},
    };

    @TestFactory
    Stream<DynamicTest> sampledAddressesAnswerAsAddr2Line() {
        Addr2LineTool.assume();
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] r : RECORDINGS) {
            tests.add(DynamicTest.dynamicTest(r[0], () -> {
                Map<Path, List<Long>> asked = asked(r[0], r[1], !r[2].isEmpty());
                assertFalse(asked.isEmpty(), "no inline chain asked for");
                for (Map.Entry<Path, List<Long>> e : asked.entrySet()) {
                    compare(e.getKey(), e.getValue());
                }
            }));
        }
        return tests.stream();
    }

    /** The (file, addresses) a two-thread session naming inlined frames asked about. */
    private static Map<Path, List<Long>> asked(String recording, String archive, boolean symfs) {
        Path dir = BuildIdCacheFixture.unpacked(archive);
        SymbolOptions symbols = SymbolOptions.builder().symfs(symfs ? dir : null).buildIdDir(symfs ? null : dir).perfMapDir(Path.of("/nonexistent-perfj-maps")).noSystemFiles().build();
        try (Session s = Session.open(Fixtures.recording(recording), SessionOptions.of(symbols))) {
            s.threads(2);
            ChainWalk walk = ChainWalk.of(s);
            List<io.perfj.symbols.Location> frames = new ArrayList<>();
            s.run(new RecordHandler() {
                @Override
                public void sample(SampleRef ref) {
                    frames.clear();
                    s.resolveStack(ref.sample(), Session.DEFAULT_MAX_STACK, walk, frames);
                }

                @Override
                public boolean namesInlinedFrames() {
                    return true;
                }
            });
            return s.resolver().inlineNames().asked();
        }
    }

    private static void compare(Path file, List<Long> addrs) throws IOException, InterruptedException {
        StringBuilder mine = new StringBuilder();
        int answered = 0;
        try (ElfFile elf = ElfFile.open(file)) {
            InlineChains chains = InlineChains.open(elf).orElse(null);
            Assumptions.assumeTrue(chains != null, file + " is left to addr2line");
            for (long a : addrs) {
                try {
                    mine.append(chains.answer(a));
                    answered++;
                } catch (InlineChains.Unanswerable e) {
                    break;
                }
            }
        }
        String theirs = Addr2LineTool.answers(file, addrs.subList(0, answered));
        assertEquals(theirs, mine.toString(), "answers for " + file);
    }
}
