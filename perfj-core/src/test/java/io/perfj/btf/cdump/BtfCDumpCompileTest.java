package io.perfj.btf.cdump;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Live check with clang (skipped when it is not installed): the header of every corpus object
 * and of vmlinux compiles for the target it came from.
 *
 * <p>It does not always lay types out as the BTF says, and neither does bpftool 7.1's: enums of
 * 1, 2 or 8 bytes come out as plain 4-byte enums (no {@code mode} attribute in that version) and
 * over-aligned types lose their {@code aligned} attribute (e.g. {@code struct inode} and the
 * corpus's {@code with_enums} and {@code pk_all}), so no layout assertions are made.
 */
class BtfCDumpCompileTest {
    static Stream<String> corpus() throws IOException {
        return BtfCDumpGoldenTest.corpus();
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void corpusHeaderCompilesWithTheSameLayout(String name) throws Exception {
        Path obj = Fixtures.file("btf-c/obj").resolve(name);
        TypeTable t = RawTypes.load(obj, null);
        compile(t, name.endsWith(".bpf.o") ? "bpf" : "x86_64-linux-gnu", name);
    }

    @Test
    void vmlinuxHeaderCompilesWithTheSameLayout() throws Exception {
        compile(BtfCDumpGoldenTest.vmlinux(), "bpf", "vmlinux");
    }

    static void compile(TypeTable t, String target, String what) throws Exception {
        Assumptions.assumeTrue(clangAvailable(), "clang is not installed");
        String src = new String(BtfCDumper.dump(t), StandardCharsets.UTF_8);
        Path f = Files.createTempFile("perfj-btf-c-", ".c");
        try {
            Files.writeString(f, src);
            Process p = new ProcessBuilder("clang", "-target", target, "-fsyntax-only", "-Wno-everything", f.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("clang timed out on " + what);
            }
            assertEquals(0, p.exitValue(), what + ":\n"
                    + out.substring(0, Math.min(out.length(), 4000)));
        } finally {
            Files.deleteIfExists(f);
        }
    }

    static boolean clangAvailable() {
        try {
            Process p = new ProcessBuilder("clang", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
