package io.perfj.btf;

import io.perfj.btf.dump.BtfJsonDumper;
import io.perfj.btf.dump.BtfRawDumper;
import io.perfj.elf.ElfFile;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tukaani.xz.XZInputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Raw and JSON dumps byte-identical to bpftool 7.1's ({@code fixtures/btf/golden}, made by
 * {@code fixtures/btf/make-btf-fixtures.sh}).
 */
class BtfDumpGoldenTest {
    static Path btfDir() {
        return Fixtures.file("btf");
    }

    static byte[] read(Path p) {
        Fixtures.require(p);
        try {
            if (p.toString().endsWith(".xz")) {
                try (InputStream in = new XZInputStream(Files.newInputStream(p))) {
                    return in.readAllBytes();
                }
            }
            if (p.toString().endsWith(".gz")) {
                return BtfSamples.gunzip(p);
            }
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static byte[] raw(Btf btf) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BtfRawDumper.dump(btf, out);
        return out.toByteArray();
    }

    static byte[] json(Btf btf) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BtfJsonDumper.dump(btf, out);
        return out.toByteArray();
    }

    static void assertSameText(byte[] expected, byte[] actual, String what) {
        if (!java.util.Arrays.equals(expected, actual)) {
            String[] e = new String(expected).split("\n", -1);
            String[] a = new String(actual).split("\n", -1);
            for (int i = 0; i < Math.min(e.length, a.length); i++) {
                assertEquals(e[i], a[i], what + " line " + (i + 1));
            }
            assertEquals(e.length, a.length, what + ": line count");
        }
    }

    @Test
    void vmlinuxRaw() {
        Btf btf = Btf.parse(BtfSamples.vmlinux(), "vmlinux");
        assertSameText(read(btfDir().resolve("vmlinux.raw.txt.xz")), raw(btf), "vmlinux raw");
    }

    /** bpftool prints big-endian BTF exactly as the little-endian original; so must perfj. */
    @Test
    void vmlinuxBigEndianDumpsTheSame() {
        Btf le = Btf.parse(BtfSamples.vmlinux(), "vmlinux");
        Btf be = Btf.parse(BtfWriter.write(le, java.nio.ByteOrder.BIG_ENDIAN), "vmlinux.be");
        assertSameText(read(btfDir().resolve("vmlinux.raw.txt.xz")), raw(be), "big-endian vmlinux raw");
    }

    /** Every BTF the running kernel exposes parses (modules on their vmlinux base) and writes back. */
    @Test
    void sysKernelBtfCorpus() throws IOException {
        Path dir = Path.of("/sys/kernel/btf");
        Assumptions.assumeTrue(Files.isReadable(dir.resolve("vmlinux")), "no /sys/kernel/btf/vmlinux");
        Btf vmlinux = Btf.parse(Files.readAllBytes(dir.resolve("vmlinux")), "vmlinux");
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                byte[] raw = Files.readAllBytes(f);
                Btf btf = f.getFileName().toString().equals("vmlinux") ? vmlinux : Btf.parse(raw, f.toString(), vmlinux);
                assertArrayEquals(raw, BtfWriter.write(btf), f.toString());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"kinds.bpf", "kinds.linked", "maps.bpf"})
    void bpfObjects(String name) {
        Path obj = btfDir().resolve("obj/" + name + ".o");
        Fixtures.require(obj);
        Btf btf = BtfFiles.load(obj, null);
        assertSameText(read(btfDir().resolve("golden/" + name + ".raw.txt")), raw(btf), name + " raw");
        assertSameText(read(btfDir().resolve("golden/" + name + ".json")), json(btf), name + " json");
        try (ElfFile elf = ElfFile.open(obj)) {
            byte[] section = elf.sectionData(elf.section(".BTF").orElseThrow()).bytes(0,
                    elf.section(".BTF").orElseThrow().size());
            assertArrayEquals(section, BtfWriter.write(btf), name + " written back");
        }
    }

    static Btf debianBase() {
        return Btf.parse(read(btfDir().resolve("split/debian-6.1-base.btf.gz")), "debian-6.1-base");
    }

    @ParameterizedTest
    @ValueSource(strings = {"xt_string", "nf_conntrack_snmp"})
    void splitModuleBtf(String name) {
        Btf base = debianBase();
        Path mod = btfDir().resolve("split/" + name + ".btf");
        Btf btf = BtfFiles.load(mod, base);
        assertEquals(base.typeCount(), btf.startId());
        assertSameText(read(btfDir().resolve("golden/" + name + ".raw.txt")), raw(btf), name + " raw");
        assertSameText(read(btfDir().resolve("golden/" + name + ".json")), json(btf), name + " json");
        assertArrayEquals(read(mod), BtfWriter.write(btf), name + " written back");
    }

    @Test
    void debianBaseWritesBackByteForByte() {
        byte[] raw = read(btfDir().resolve("split/debian-6.1-base.btf.gz"));
        assertArrayEquals(raw, BtfWriter.write(Btf.parse(raw, "base")));
    }

    /** The running kernel against the installed bpftool; skipped without either. */
    @Test
    void liveVmlinuxAgainstBpftool() throws Exception {
        Path live = Path.of("/sys/kernel/btf/vmlinux");
        Assumptions.assumeTrue(Files.isReadable(live), "no " + live);
        Process p;
        try {
            p = new ProcessBuilder("bpftool", "btf", "dump", "file", live.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            Assumptions.abort("no bpftool: " + e.getMessage());
            return;
        }
        byte[] expected = p.getInputStream().readAllBytes();
        Assumptions.assumeTrue(p.waitFor() == 0, "bpftool failed");
        assertSameText(expected, raw(Btf.parse(Files.readAllBytes(live), live.toString())), "live vmlinux");
    }
}
