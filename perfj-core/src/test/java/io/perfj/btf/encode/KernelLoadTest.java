package io.perfj.btf.encode;

import io.perfj.record.KernelBtfLoad;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every BTF perfj writes for the test binaries, with each --vars mode, loads into the running
 * kernel with bpf(BPF_BTF_LOAD); on failure the kernel's verifier log is printed. Runs as root
 * only; also loads the vmlinux encoding when {@code -Dperfj.vmlinux=PATH} names a kernel image.
 */
class KernelLoadTest {

    @ParameterizedTest
    @ValueSource(strings = {"gcc-dwarf4", "gcc-dwarf5", "clang-dwarf4", "clang-dwarf5", "gcc-types-section",
        "gcc-zlib"})
    void kernelAcceptsEncodings(String name) throws Exception {
        Assumptions.assumeTrue(KernelBtfLoad.available(), "needs root on x86-64 Linux");
        for (EncodeOptions.Vars v : EncodeOptions.Vars.values()) {
            byte[] btf = BtfEncodeGoldenTest.encode(name, v, 2);
            KernelBtfLoad.Result r = KernelBtfLoad.load(btf);
            assertTrue(r.loaded(), name + " --vars " + v + ": errno " + r.errno() + ", verifier log:\n" + r.log());
        }
    }

    @Test
    void kernelRejectsBrokenBtfWithALog() {
        Assumptions.assumeTrue(KernelBtfLoad.available(), "needs root on x86-64 Linux");
        // a PTR to type 5 in a BTF with one type
        byte[] bad = {(byte) 0x9f, (byte) 0xeb, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0, 12, 0, 0, 0, 12, 0, 0, 0, 1, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 2, 5, 0, 0, 0, 0};
        KernelBtfLoad.Result r = KernelBtfLoad.load(bad);
        assertTrue(!r.loaded() && r.errno() != 0);
        assertTrue(!r.log().isEmpty(), "the kernel explains");
    }

    @Test
    void vmlinuxAllModes() throws Exception {
        String p = System.getProperty("perfj.vmlinux");
        Assumptions.assumeTrue(p != null && Files.isRegularFile(Path.of(p)), "no vmlinux with DWARF named (-Dperfj.vmlinux=PATH)");
        Assumptions.assumeTrue(KernelBtfLoad.available(), "needs root on x86-64 Linux");
        for (EncodeOptions.Vars v : EncodeOptions.Vars.values()) {
            byte[] btf;
            try (io.perfj.elf.ElfFile elf = io.perfj.elf.ElfFile.open(Path.of(p))) {
                btf = BtfEncoder.encode(elf, new EncodeOptions(v, 2));
            }
            KernelBtfLoad.Result r = KernelBtfLoad.load(btf);
            assertTrue(r.loaded(), "vmlinux --vars " + v + ": errno " + r.errno() + ", verifier log:\n" + r.log());
        }
    }
}
