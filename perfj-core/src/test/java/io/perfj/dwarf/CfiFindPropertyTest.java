package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link CallFrameInfo#find} (binary search over the index) against a linear scan of every FDE. */
class CfiFindPropertyTest {
    private static final List<Path> FILES = List.of(Fixtures.file("bin/hot"),
            BuildIdCacheFixture.object("libc.so.6", "elf"), BuildIdCacheFixture.object("bash", "elf"));
    private static final List<ElfFile> OPEN = new ArrayList<>();
    private static final List<CallFrameInfo> CFI = new ArrayList<>();
    private static final List<List<Fde>> FDES = new ArrayList<>();

    static {
        for (Path p : FILES) {
            ElfFile elf = ElfFile.open(p);
            OPEN.add(elf);
            CallFrameInfo cfi = CallFrameInfo.parse(elf);
            CFI.add(cfi);
            FDES.add(cfi.fdes().stream().filter(f -> f.pcEnd() != f.pcBegin()).toList());
        }
    }

    @AfterContainer
    static void close() {
        OPEN.forEach(ElfFile::close);
    }

    static Optional<Fde> linear(List<Fde> fdes, long pc) {
        for (Fde f : fdes) {
            if (f.contains(pc)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    @Provide
    Arbitrary<long[]> probes() {
        // {file, fde, delta within the FDE (or just outside it)}
        return Arbitraries.integers().between(0, CFI.size() - 1).flatMap(file -> {
            int n = FDES.get(file).size();
            return Arbitraries.integers().between(0, n - 1).flatMap(i -> {
                Fde f = FDES.get(file).get(i);
                long len = f.pcEnd() - f.pcBegin();
                return Arbitraries.longs().between(-2, len + 1).map(d -> new long[] {file, i, f.pcBegin() + d});
            });
        });
    }

    @Property(tries = 5000)
    void findEqualsLinearScan(@ForAll("probes") long[] probe) {
        int file = (int) probe[0];
        long pc = probe[2];
        Optional<Fde> want = linear(FDES.get(file), pc);
        Optional<Fde> got = CFI.get(file).find(pc);
        assertEquals(want.map(Fde::offset), got.map(Fde::offset), "pc 0x" + Long.toHexString(pc));
        got.ifPresent(f -> {
            UnwindRow row = CFI.get(file).rowFor(f, pc);
            assertEquals(true, Long.compareUnsigned(row.start(), pc) <= 0 && Long.compareUnsigned(pc, row.end()) < 0,
                    "row " + row + " covers 0x" + Long.toHexString(pc));
        });
    }
}
