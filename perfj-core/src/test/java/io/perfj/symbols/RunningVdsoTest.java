package io.perfj.symbols;

import io.perfj.elf.ElfFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A {@code [vdso]} recorded without a build-id takes the running vdso's symbols, as perf does,
 * shown with this JVM's own vdso: whatever kernel runs the test, a sample in this process's
 * vdso resolves to the symbol the vdso image itself has there.
 */
class RunningVdsoTest {
    @TempDir
    Path tmp;

    private static byte[] image() {
        byte[] image = RunningVdso.image(Path.of("/proc/self"));
        assumeTrue(image != null, "this process has no readable [vdso] mapping");
        return image;
    }

    private DsoFinder finder(Path symfs, boolean system) {
        return new DsoFinder(SymbolOptions.builder().symfs(symfs).buildIdDir(tmp.resolve("empty-cache")).perfMapDir(tmp).systemFiles(system).build(),
                new DefaultSymbolLoader());
    }

    /** A function of the running vdso, from its own symbol table. */
    private static Symbol someFunction() throws IOException {
        Path f = RunningVdso.file();
        assertNotNull(f);
        SymbolTable own = new DefaultSymbolLoader().loadElf(f, new Dso("[vdso]", DsoKind.VDSO, null, d -> null));
        assumeTrue(own.size() > 0, "the running vdso has no symbols");
        return own.symbols().stream().filter(s -> s.name().contains("gettime")).findFirst()
                .orElse(own.symbols().getFirst());
    }

    @Test
    void theImageIsTheMappingsElf() throws IOException {
        byte[] image = image();
        assertArrayEquals(new byte[] {0x7f, 'E', 'L', 'F'}, Arrays.copyOf(image, 4));
        assertArrayEquals(image, Files.readAllBytes(RunningVdso.file()));
        assertNull(RunningVdso.image(tmp), "no maps file");
    }

    @Test
    void aVdsoWithoutBuildIdResolvesInTheRunningOne() throws IOException {
        image();
        Symbol want = someFunction();
        DsoFinder f = finder(null, true);
        Dso vdso = new Dso("[vdso]", DsoKind.VDSO, null, f::load);
        Symbol got = vdso.symbols().find(want.start() + (want.end() - want.start()) / 2);
        assertNotNull(got, "a sample inside " + want.name());
        assertEquals(want.name(), got.name());
        assertEquals(RunningVdso.file(), f.find(vdso));
    }

    @Test
    void aVdsoRecordedWithItsBuildIdResolvesInTheRunningOne() throws IOException {
        byte[] id;
        try (ElfFile elf = ElfFile.of(image(), "[vdso]")) {
            id = elf.buildId().orElse(null);
        }
        assumeTrue(id != null, "the running vdso has no build-id");
        Symbol want = someFunction();
        Dso vdso = new Dso("[vdso]", DsoKind.VDSO, id, finder(null, true)::load);
        assertEquals(want.name(), vdso.symbols().find(want.start()).name());
    }

    @Test
    void anotherVdsosBuildIdNeverTakesTheRunningOne() {
        image();
        byte[] other = new byte[20];
        Arrays.fill(other, (byte) 0x5a);
        Dso vdso = new Dso("[vdso]", DsoKind.VDSO, other, finder(null, true)::load);
        assertEquals(0, vdso.symbols().size());
    }

    @Test
    void notWithoutSystemFilesNorUnderSymfs() throws IOException {
        image();
        Path symfs = Files.createDirectories(tmp.resolve("symfs"));
        for (DsoFinder f : new DsoFinder[] {finder(null, false), finder(symfs, false), finder(symfs, true)}) {
            Dso vdso = new Dso("[vdso]", DsoKind.VDSO, null, f::load);
            assertNull(f.find(vdso));
            assertTrue(vdso.symbols().size() == 0);
        }
    }
}
