package io.perfj.annotate;

import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.testing.BuildIdCacheFixture;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Between the file offsets symbols are kept in and the addresses objdump and the line tables use. */
class CodeAddressesTest {
    /**
     * LLD (rustc's default linker) puts .text a page above its file offset; the address of a
     * file offset comes from the PT_LOAD segment that holds it, not from offset == address.
     */
    @Test
    void aFileOffsetsAddressFollowsTheSegmentInAnLldBinary() {
        Path elf = BuildIdCacheFixture.unpacked("rust-lld.buildid-cache")
                .resolve("work/wt-rust/fixtures/bin/rustlld/1c46f5f4748e891f05fed16fb83b9bf568969a74/elf");
        try (ElfFile f = ElfFile.open(elf)) {
            Annotate.CodeAddresses addresses = Annotate.CodeAddresses.of(f, true);
            SectionHeader text = f.section(".text").orElseThrow();
            assertEquals(0x12810L, text.addr());
            assertEquals(0x11810L, text.offset());
            assertEquals(text.addr(), addresses.vaddr(text.offset()));
            // reserve_rehash.llvm.N: symbol 0x21ac0, kept by perf (and perfj) as file offset 0x20ac0
            assertEquals(0x21ac0L, addresses.vaddr(0x20ac0L));
            // the first segment (ELF header, .rodata) has address == offset
            assertEquals(0x40L, addresses.vaddr(0x40L));
            // past every segment's file bytes: unchanged
            assertEquals(0x7fff_0000L, addresses.vaddr(0x7fff_0000L));
        }
    }
}
