package io.perfj.cli;

import io.perfj.testing.Fixtures;
import io.perfj.btf.Btf;
import io.perfj.btf.BtfFiles;
import io.perfj.btf.BtfType;
import io.perfj.btf.layout.BtfLayout;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code perfj btf layout}: pahole 1.24's {@code -C TYPE} output, byte for byte. */
class BtfLayoutCommandTest {
    @TempDir
    static Path tmp;

    static Path vmlinux;

    record Run(int rc, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = Main.execute(args, out, new PrintWriter(err));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    @BeforeAll
    static void unpack() throws IOException {
        Path gz = Fixtures.file("btf/vmlinux.btf.gz");
        vmlinux = tmp.resolve("vmlinux.btf");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            Files.write(vmlinux, in.readAllBytes());
        }
    }

    static Path goldenDir() {
        return Fixtures.file("btf-layout/golden");
    }

    static Path object(String base) {
        for (String dir : new String[] {"btf/obj", "btf-c/obj"}) {
            Path p = Fixtures.dir().resolve(dir + "/" + base + ".o");
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new AssertionError("no object " + base);
    }

    @TestFactory
    Stream<DynamicTest> goldens() throws IOException {
        Btf kernel = BtfFiles.load(vmlinux, null);
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.list(goldenDir())) {
            for (Path g : files.sorted().toList()) {
                String f = g.getFileName().toString();
                String stem = f.substring(0, f.length() - ".txt".length());
                int dot = stem.lastIndexOf('.');
                String file = stem.substring(0, dot);
                String type = stem.substring(dot + 1);
                tests.add(DynamicTest.dynamicTest(stem, () -> {
                    Btf btf = switch (file) {
                        case "vmlinux" -> kernel;
                        case "kmod.split" -> BtfFiles.load(Fixtures.file("btf-c/obj/kmod.split.btf"), kernel);
                        default -> BtfFiles.load(object(file), null);
                    };
                    String expected = Files.readString(g, StandardCharsets.UTF_8);
                    assertEquals(expected, BtfLayout.layout(btf, BtfLayout.find(btf, type)));
                }));
            }
        }
        assertTrue(tests.size() >= 20, "goldens: " + tests.size());
        return tests.stream();
    }

    @Test
    void commandPrintsTheGolden() throws IOException {
        Run r = run("btf", "layout", vmlinux.toString(), "sk_buff");
        assertEquals(0, r.rc(), r.err());
        assertEquals(Files.readString(goldenDir().resolve("vmlinux.sk_buff.txt")), r.out());
        Run o = run("btf", "layout", object("packed.bpf").toString(), "pk_outer");
        assertEquals(0, o.rc(), o.err());
        assertEquals(Files.readString(goldenDir().resolve("packed.bpf.pk_outer.txt")), o.out());
    }

    @Test
    void splitBtfWithBase() throws IOException {
        Run r = run("btf", "layout", Fixtures.file("btf-c/obj/kmod.split.btf").toString(), "kmod_state",
                "--base", vmlinux.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(Files.readString(goldenDir().resolve("kmod.split.kmod_state.txt")), r.out());
    }

    @Test
    void unknownTypeIsOneLineAndExit1() {
        Run r = run("btf", "layout", object("packed.bpf").toString(), "no_such_struct");
        assertEquals(1, r.rc());
        assertEquals("perfj: type 'no_such_struct' not found\n", r.err());
        assertEquals("", r.out());
    }

    @Test
    void notAStructIsOneLineAndExit1() {
        Run r = run("btf", "layout", object("kinds.bpf").toString(), "int");
        assertEquals(1, r.rc());
        assertEquals("perfj: type 'int' is a INT, not a struct or union\n", r.err());
    }

    @Test
    void missingFileIsOneLine() {
        Run r = run("btf", "layout", tmp.resolve("absent").toString(), "x");
        assertTrue(r.rc() != 0);
        assertEquals(1, r.err().lines().count(), r.err());
    }

    /** More vmlinux structs than the goldens hold, against the installed pahole (skipped without it). */
    @Test
    void matchesInstalledPahole() throws Exception {
        Assumptions.assumeTrue(paholeVersion().startsWith("v1.24"), "pahole 1.24 is not installed");
        Btf btf = BtfFiles.load(vmlinux, null);
        TreeSet<String> names = new TreeSet<>();
        for (int id = 1; id < btf.typeCount() + btf.startId(); id++) {
            if (btf.hasType(id) && btf.type(id) instanceof BtfType.Composite c && !c.anonymous()) {
                names.add(c.name());
            }
        }
        List<String> all = new ArrayList<>(names);
        List<String> failed = new ArrayList<>();
        int checked = 0;
        for (int i = 0; i < all.size(); i += Math.max(1, all.size() / 80)) {
            String t = all.get(i);
            Process p = new ProcessBuilder("pahole", "-F", "btf", "-C", t, vmlinux.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String expected = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(60, TimeUnit.SECONDS);
            if (expected.isEmpty()) {
                continue;
            }
            checked++;
            if (!expected.equals(BtfLayout.layout(btf, BtfLayout.find(btf, t)))) {
                failed.add(t);
            }
        }
        assertTrue(checked > 50, "checked " + checked);
        assertEquals(List.of(), failed);
    }

    static String paholeVersion() {
        try {
            Process p = new ProcessBuilder("pahole", "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor(10, TimeUnit.SECONDS);
            return v;
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }
}
