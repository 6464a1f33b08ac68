package io.perfj.btf.encode;

import io.perfj.btf.Btf;
import io.perfj.btf.cdump.BtfCDumper;
import io.perfj.dwarf.info.BtfEncodeFixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * perfj's encoding printed as C by perfj's own C dumper (io.perfj.btf.cdump) against bpftool's C
 * dump of pahole's encoding: no tools needed.
 */
class BtfEncodeCDumpTest {

    @ParameterizedTest
    @ValueSource(strings = {"gcc-dwarf4", "gcc-dwarf5", "clang-dwarf4", "clang-dwarf5"})
    void perfjCDumpMatchesPahole(String name) throws Exception {
        Btf btf = Btf.parse(BtfEncodeGoldenTest.encode(name, EncodeOptions.Vars.PERCPU, 2), name);
        StringBuilder sb = new StringBuilder();
        BtfCDumper.dump(btf, sb);
        assertEquals(Files.readString(BtfEncodeFixtures.golden(name + ".pahole.c")), sb.toString());
    }
}
