package io.perfj.btf.encode;

import io.perfj.btf.Btf;
import io.perfj.dwarf.info.BtfEncodeFixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Method;
import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * perfj's encoding printed as C by perfj's own C dumper (io.perfj.btf.cdump, when it is part of
 * the build) against bpftool's C dump of pahole's encoding: no tools needed. Skipped when the
 * dumper is not on the class path.
 */
class BtfEncodeCDumpTest {

    @ParameterizedTest
    @ValueSource(strings = {"gcc-dwarf4", "gcc-dwarf5", "clang-dwarf4", "clang-dwarf5"})
    void perfjCDumpMatchesPahole(String name) throws Exception {
        Method dump;
        try {
            dump = Class.forName("io.perfj.btf.cdump.BtfCDumper").getMethod("dump", Btf.class, Appendable.class);
        } catch (ReflectiveOperationException e) {
            Assumptions.abort("the C dumper is not part of this build");
            return;
        }
        Btf btf = Btf.parse(BtfEncodeGoldenTest.encode(name, EncodeOptions.Vars.PERCPU, 2), name);
        StringBuilder sb = new StringBuilder();
        dump.invoke(null, btf, sb);
        assertEquals(Files.readString(BtfEncodeFixtures.golden(name + ".pahole.c")), sb.toString());
    }
}
