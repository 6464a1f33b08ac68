package io.perfj.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DWARF that BTF cannot express is skipped with a warning, as pahole does, and the rest is encoded. */
class BtfEncodeSkipsTest {
    @Test
    void templateParametersAreSkippedWithAWarning() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("perfj-cxx");
        Path src = dir.resolve("t.cpp");
        Files.writeString(src, "template<typename T> struct Box { T v; };\nstruct P { int a; Box<long> b; };\nP g;\n"
                + "int main() { return g.a + (int)g.b.v; }\n");
        Path bin = dir.resolve("t");
        Process p;
        try {
            p = new ProcessBuilder("g++", "-g", "-O1", "-o", bin.toString(), src.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("g++ is not installed");
            return;
        }
        p.getInputStream().readAllBytes();
        Assumptions.assumeTrue(p.waitFor() == 0, "g++ failed");
        Path out = dir.resolve("t.btf");
        CliFixtures.Run r = CliFixtures.run("btf", "encode", bin.toString(), "-o", out.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains("tag not supported 0x2f (template_type_parameter)"), r.err());
        CliFixtures.Run d = CliFixtures.run("btf", "dump", out.toString());
        assertTrue(d.out().contains("STRUCT 'Box<long int>' size=8 vlen=1"), d.out());
    }
}
