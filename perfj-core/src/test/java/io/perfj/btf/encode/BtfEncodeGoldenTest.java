package io.perfj.btf.encode;

import io.perfj.btf.Btf;
import io.perfj.btf.dump.BtfRawDumper;
import io.perfj.dwarf.info.BtfEncodeFixtures;
import io.perfj.elf.ElfFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * perfj's encoding of the test binaries against pahole 1.24's (-J, default options): the whole
 * type list as bpftool prints it raw (perfj's {@code btf dump}, itself checked against bpftool), and, when bpftool is installed,
 * bpftool's C dump of both. Also: the output does not depend on the thread count.
 */
class BtfEncodeGoldenTest {

    static byte[] encode(String name, EncodeOptions.Vars vars, int threads) throws IOException {
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin(name))) {
            return BtfEncoder.encode(elf, new EncodeOptions(vars, threads));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gcc-dwarf4", "gcc-dwarf5", "clang-dwarf4", "clang-dwarf5", "gcc-types.o", "crc7.ko"})
    void sameTypesAsPahole(String name) throws Exception {
        byte[] btf = encode(name, EncodeOptions.Vars.PERCPU, 2);
        String expected = Files.readString(BtfEncodeFixtures.golden(name + ".pahole.raw"));
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        BtfRawDumper.dump(Btf.parse(btf, name), raw);
        assertEquals(expected, raw.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gcc-dwarf4", "gcc-dwarf5", "clang-dwarf4", "clang-dwarf5", "gcc-types-section",
        "gcc-zlib", "crc7.ko"})
    void outputDoesNotDependOnThreads(String name) throws Exception {
        for (EncodeOptions.Vars v : EncodeOptions.Vars.values()) {
            byte[] one = encode(name, v, 1);
            assertArrayEquals(one, encode(name, v, 4), name + " --vars " + v);
            assertArrayEquals(one, encode(name, v, 3), name + " --vars " + v);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gcc-dwarf4", "gcc-dwarf5", "clang-dwarf4", "clang-dwarf5", "gcc-types.o", "crc7.ko"})
    void bpftoolCDumpMatchesPahole(String name) throws Exception {
        Path bpftool = Tools.find("bpftool");
        Assumptions.assumeTrue(bpftool != null, "bpftool is not installed");
        Path f = Files.createTempFile("perfj-btf-", ".btf");
        try {
            Files.write(f, encode(name, EncodeOptions.Vars.PERCPU, 2));
            String c = Tools.run(bpftool.toString(), "btf", "dump", "file", f.toString(), "format", "c");
            assertEquals(Files.readString(BtfEncodeFixtures.golden(name + ".pahole.c")), c);
        } finally {
            Files.deleteIfExists(f);
        }
    }

    /** Finding and running installed tools for live checks. */
    static final class Tools {
        static Path find(String tool) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                Path p = Path.of(dir, tool);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
            for (String dir : new String[] {"/usr/sbin", "/sbin", "/usr/local/sbin"}) {
                Path p = Path.of(dir, tool);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
            return null;
        }

        static String run(String... cmd) throws IOException, InterruptedException {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " timed out");
            }
            String s = new String(out, java.nio.charset.StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", cmd) + " failed: " + s);
            }
            return s;
        }
    }
}
