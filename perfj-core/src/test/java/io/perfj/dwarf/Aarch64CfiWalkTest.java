package io.perfj.dwarf;

import io.perfj.io.Bytes;
import io.perfj.symbols.DefaultSymbolLoader;
import io.perfj.symbols.DsoFinder;
import io.perfj.symbols.Dso;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Map;
import io.perfj.symbols.Maps;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * aarch64 walks over the real call frame information of the corpus's {@code libnative-lib.so}
 * (an Android arm64 library, see fixtures/README.md) with stacks made here, where the expected
 * frames follow from the rows {@code readelf --debug-dump=frames-interp} prints for it:
 * <pre>
 *   FDE pc=4b138..4b210   4b138: CFA sp+0 (no rule for x30: the caller's pc is in the link register)
 *                         4b14c: CFA x29+16, x29 at c-16, x30 (ra) at c-8
 *   FDE pc=4b210..4b300   4b220: CFA x29+16, x29 at c-16, x30 (ra) at c-8
 * </pre>
 * The library's executable segment is mapped at {@link #BASE} + 0x4b000 from file offset 0x4b000
 * (its segments' addresses are their file offsets), so an address is BASE + the library's address.
 */
class Aarch64CfiWalkTest {
    private static final String PATH = "/data/app/simpleperf.demo.cpp_api/base.apk!/lib/arm64-v8a/libnative-lib.so";
    private static final long BASE = 0x7000_0000_0000L;
    private static final long SP = 0x7f00_0000_1000L;
    private static final int X29 = 29;
    private static final int X30 = 30;

    @TempDir
    Path empty;
    private CfiWalk walk;
    private Maps maps;
    private UnwindSpace space;

    @BeforeEach
    void setUp() throws Exception {
        Path kallsyms = Files.createFile(empty.resolve("kallsyms"));
        SymbolOptions opts = SymbolOptions.builder().symfs(Fixtures.require(Fixtures.file("corpus/symfs"))).buildIdDir(empty).kallsyms(kallsyms).perfMapDir(empty).noSystemFiles().build();
        var objects = new io.perfj.unwind.UnwindObjects(new io.perfj.symbols.ObjectCache(
                new DsoFinder(opts, new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ))));
        walk = new CfiWalk(UnwindArch.AARCH64);
        maps = new Maps();
        space = new io.perfj.unwind.UnwindMethod.Space(objects).of(maps);
        Dso lib = new Dso(PATH, DsoKind.USER, null, d -> null);
        maps.insert(Map.of(BASE + 0x4b000, BASE + 0x4b000 + 0x66000, 0x4b000, lib));
    }

    private long[] unwind(long pc, long lr, long x29, long[] stackWords) {
        long[] reg = new long[UnwindArch.AARCH64.slots()];
        boolean[] known = new boolean[reg.length];
        for (int i = 0; i < reg.length; i++) {
            known[i] = true;
        }
        reg[X29] = x29;
        reg[X30] = lr;
        reg[31] = SP;
        reg[32] = pc;
        ByteBuffer b = ByteBuffer.allocate(stackWords.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long w : stackWords) {
            b.putLong(w);
        }
        Bytes stack = Bytes.of(b.array(), ByteOrder.LITTLE_ENDIAN, "test", "user stack");
        return walk.unwind(reg, known, stack, 0, space, 127);
    }

    /** Frame records: each function's x29 points at {saved x29, saved x30} (the CFA is x29+16). */
    @Test
    void callersComeFromTheFrameRecordsTheCfaRulesName() {
        long[] stack = new long[0x40];
        // the sampled function (4b250, in the second FDE's body): x29 = sp+0x40
        stack[0x40 / 8] = SP + 0x100;          // saved x29
        stack[0x48 / 8] = BASE + 0x4b1a8;      // return address into the first FDE's body
        // its caller: x29 = sp+0x100
        stack[0x100 / 8] = SP + 0x180;
        stack[0x108 / 8] = BASE + 0x4b260;     // back into the second FDE's body
        // and that one's caller returns to 0: the outermost frame
        stack[0x180 / 8] = 0;
        stack[0x188 / 8] = 0;
        long[] frames = unwind(BASE + 0x4b250, 0x1234, SP + 0x40, stack);
        assertArrayEquals(new long[] {BASE + 0x4b250, BASE + 0x4b1a7, BASE + 0x4b25f}, frames, hex(frames));
    }

    /** At a function's first instruction nothing is saved yet: the caller's pc is the link register. */
    @Test
    void atAFunctionsEntryTheReturnAddressIsTheLinkRegister() {
        long[] stack = new long[0x10];
        // the caller's frame record (x29 is still the caller's)
        stack[0x20 / 8] = SP + 0x60;
        stack[0x28 / 8] = 0;
        long[] frames = unwind(BASE + 0x4b138, BASE + 0x4b264, SP + 0x20, stack);
        assertArrayEquals(new long[] {BASE + 0x4b138, BASE + 0x4b263}, frames, hex(frames));
    }

    /** A return address in no map ends the walk there (it is not one). */
    @Test
    void aReturnAddressOutsideTheMapsEndsTheWalk() {
        long[] stack = new long[0x10];
        long[] frames = unwind(BASE + 0x4b138, 0x5000, SP, stack);
        assertArrayEquals(new long[] {BASE + 0x4b138}, frames, hex(frames));
    }

    @Test
    void aSignedReturnAddressLosesItsAuthenticationCode() {
        assertEquals(BASE + 0x4b1a8, UnwindArch.AARCH64.stripSigned(0x002d_0000_0000_0000L | (BASE + 0x4b1a8)));
        assertEquals(0x002d_7000_0004_b1a8L, UnwindArch.X86_64.stripSigned(0x002d_7000_0004_b1a8L));
    }

    private static String hex(long[] frames) {
        StringBuilder sb = new StringBuilder();
        for (long f : frames) {
            sb.append(" 0x").append(Long.toHexString(f));
        }
        return sb.toString();
    }
}
