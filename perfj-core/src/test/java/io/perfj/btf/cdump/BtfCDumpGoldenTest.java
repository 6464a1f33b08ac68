package io.perfj.btf.cdump;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfFiles;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The C dump against {@code bpftool btf dump file FILE format c}, byte for byte: every object of
 * the type corpus (fixtures/btf-c), the kernel's vmlinux BTF (fixtures/btf) and a split BTF on
 * top of it.
 */
class BtfCDumpGoldenTest {
    static Path corpusDir() {
        return Fixtures.file("btf-c");
    }

    static Stream<String> corpus() throws IOException {
        try (Stream<Path> s = Files.list(corpusDir().resolve("obj"))) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".bpf.o") || n.endsWith(".host.btf"))
                    .sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void corpusObjectMatchesBpftool(String name) throws IOException {
        Path golden = corpusDir().resolve("golden").resolve(name + ".c.txt");
        byte[] mine = BtfCDumper.dump(RawTypes.load(corpusDir().resolve("obj").resolve(name), null));
        assertSameText(name, Files.readString(golden, StandardCharsets.UTF_8), new String(mine, StandardCharsets.UTF_8));
    }

    /** The same through the object model ({@code dump(Btf, ...)}), as perf.data entries are dumped. */
    @ParameterizedTest
    @MethodSource("corpus")
    void corpusThroughTheModel(String name) throws IOException {
        Path obj = corpusDir().resolve("obj").resolve(name);
        String golden = Files.readString(corpusDir().resolve("golden").resolve(name + ".c.txt"), StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BtfCDumper.dump(BtfFiles.load(obj, null), bytes);
        assertSameText(name, golden, bytes.toString(StandardCharsets.UTF_8));
        StringBuilder chars = new StringBuilder();
        BtfCDumper.dump(BtfFiles.load(obj, null), chars);
        assertSameText(name, golden, chars.toString());
    }

    @Test
    void splitThroughTheModel() throws IOException {
        String golden = vmlinuxGolden();
        Btf base = Btf.parse(gunzip(vmlinuxBtf()), "vmlinux.btf");
        Btf split = BtfFiles.load(corpusDir().resolve("obj").resolve("kmod.split.btf"), base);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BtfCDumper.dump(split, bytes);
        String mine = bytes.toString(StandardCharsets.UTF_8);
        String tail = Files.readString(corpusDir().resolve("golden").resolve("kmod.split.btf.c.tail.txt"));
        assertSameText("kmod.split (model)", golden.substring(0, golden.length() - trailerLength(golden)) + tail, mine);
    }

    @Test
    void corpusIsComplete() throws IOException {
        List<String> names = corpus().toList();
        assertTrue(names.size() >= 18, "corpus objects: " + names);
    }

    static Path vmlinuxBtf() {
        Path f = Fixtures.file("btf/vmlinux.btf.gz");
        return Fixtures.require(f);
    }

    static String vmlinuxGolden() {
        Path f = Fixtures.file("btf/vmlinux.c.txt.gz");
        Fixtures.require(f);
        return new String(gunzip(f), StandardCharsets.UTF_8);
    }

    static byte[] gunzip(Path f) {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(f))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static TypeTable vmlinux() {
        return RawTypes.parse(gunzip(vmlinuxBtf()), null, "vmlinux.btf");
    }

    @Test
    void vmlinuxMatchesBpftool() {
        String golden = vmlinuxGolden();
        String mine = new String(BtfCDumper.dump(vmlinux()), StandardCharsets.UTF_8);
        assertSameText("vmlinux", golden, mine);
        System.out.println("vmlinux format c: " + mine.length() + " bytes identical");
    }

    /** Live: the running kernel's BTF against the installed bpftool (skipped without either). */
    @Test
    void runningKernelMatchesInstalledBpftool() throws Exception {
        Path sys = Path.of("/sys/kernel/btf/vmlinux");
        Assumptions.assumeTrue(Files.isReadable(sys), "no " + sys);
        Assumptions.assumeTrue(BtfCDumpDifferentialTest.bpftoolAvailable(), "bpftool 7.1 is not installed");
        Process p = new ProcessBuilder("bpftool", "btf", "dump", "file", sys.toString(), "format", "c")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String expected = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor());
        ByteArrayOutputStream mine = new ByteArrayOutputStream();
        BtfCDumper.dumpFile(sys, null, mine);
        assertSameText("running kernel", expected, mine.toString(StandardCharsets.UTF_8));
    }

    /** The same BTF written big-endian reads the same and dumps the same C. */
    @Test
    void bigEndianVmlinuxDumpsTheSame() {
        Btf le = Btf.parse(gunzip(vmlinuxBtf()), "vmlinux.btf");
        byte[] be = io.perfj.btf.BtfWriter.write(le, java.nio.ByteOrder.BIG_ENDIAN);
        String mine = new String(BtfCDumper.dump(RawTypes.parse(be, null, "vmlinux.be.btf")), StandardCharsets.UTF_8);
        assertSameText("vmlinux big-endian", vmlinuxGolden(), mine);
    }

    /** bpftool -B vmlinux: the base's types first, exactly as alone, then the split ones. */
    @Test
    void splitBtfMatchesBpftool() throws IOException {
        String golden = vmlinuxGolden();
        String tail = Files.readString(corpusDir().resolve("golden").resolve("kmod.split.btf.c.tail.txt"));
        TypeTable split = RawTypes.load(corpusDir().resolve("obj").resolve("kmod.split.btf"), vmlinux());
        String mine = new String(BtfCDumper.dump(split), StandardCharsets.UTF_8);
        String body = golden.substring(0, golden.length() - trailerLength(golden));
        assertTrue(mine.startsWith(body), "split dump does not start with the base's dump");
        assertSameText("kmod.split", tail, mine.substring(body.length()));
    }

    /** Length of bpftool's last five lines (the pragma pop and the include guard's end). */
    static int trailerLength(String text) {
        int at = text.length();
        for (int i = 0; i < 6; i++) {
            at = text.lastIndexOf('\n', at - 1);
        }
        return text.length() - at - 1;
    }

    static void assertSameText(String what, String expected, String actual) {
        if (expected.equals(actual)) {
            return;
        }
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.min(e.length, a.length); i++) {
            if (!e[i].equals(a[i])) {
                fail(what + ": first difference at line " + (i + 1) + "\n  bpftool: " + e[i] + "\n  perfj:   " + a[i]);
            }
        }
        assertEquals(e.length, a.length, what + ": line count");
    }
}
