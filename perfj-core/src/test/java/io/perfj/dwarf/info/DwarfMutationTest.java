package io.perfj.dwarf.info;

import io.perfj.btf.encode.BtfEncoder;
import io.perfj.btf.encode.EncodeException;
import io.perfj.btf.encode.EncodeOptions;
import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.io.FormatException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Damaged DWARF (flipped bytes, absurd lengths, truncated sections; in the relocatable objects also
 * damaged relocations) in the test binaries: reading
 * DIEs fails only with {@link FormatException}; encoding BTF from them only with that or
 * {@link EncodeException}.
 */
class DwarfMutationTest {
    private static final String[] SECTIONS = {".debug_info", ".debug_abbrev", ".debug_str_offsets", ".debug_addr",
        ".debug_types", ".rela.debug_info", ".rela.debug_str_offsets", ".rela.debug_addr"};

    /** Reads everything a DIE walk can read; returns normally or throws FormatException. */
    static void walk(ElfFile elf) {
        DwarfInfo d = DwarfInfo.of(elf);
        for (UnitHeader u : d.units()) {
            DieCursor c = d.cursor(u);
            int t;
            int n = 0;
            while ((t = c.next()) >= 0 && n++ < 1_000_000) {
                if (t == 0) {
                    continue;
                }
                for (int i = 0; i < c.attributeCount(); i++) {
                    c.string(i);
                    c.ref(i);
                    c.address(i);
                    c.udata(i);
                    if (c.isBlock(i)) {
                        c.staticAddress(i);
                        c.memberOffset(i);
                        c.block(i);
                    }
                }
                if (n % 7 == 0) {
                    c.skipChildren();
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gcc-dwarf5", "clang-dwarf5", "gcc-types-section", "clang-dwarf4", "gcc-types.o",
        "crc7.ko"})
    void damagedDwarfFailsWithTypedErrors(String name) throws Exception {
        byte[] orig = Files.readAllBytes(BtfEncodeFixtures.bin(name));
        Random rnd = new Random(name.hashCode());
        int trials = 0;
        for (String sec : SECTIONS) {
            SectionHeader sh;
            try (ElfFile elf = ElfFile.of(orig, name)) {
                sh = elf.section(sec).orElse(null);
            }
            if (sh == null || sh.size() == 0) {
                continue;
            }
            for (int k = 0; k < 60; k++) {
                byte[] img = orig.clone();
                int at = (int) (sh.offset() + rnd.nextInt((int) sh.size()));
                switch (k % 4) {
                    case 0 -> img[at] ^= (byte) (1 << rnd.nextInt(8));
                    case 1 -> img[at] = (byte) 0xff;
                    case 2 -> {
                        for (int i = 0; i < 4 && at + i < img.length; i++) {
                            img[at + i] = (byte) 0xff;
                        }
                    }
                    default -> {
                        // cut the section short by shrinking its size in the section header
                        img = truncateSection(orig, sh, rnd.nextInt((int) sh.size()));
                    }
                }
                check(img, name + " " + sec + " mutation " + k);
                trials++;
            }
        }
        if (trials == 0) {
            fail("no DWARF sections to damage in " + name);
        }
    }

    private static byte[] truncateSection(byte[] orig, SectionHeader sh, long newSize) {
        byte[] img = orig.clone();
        try (ElfFile elf = ElfFile.of(orig, "x")) {
            long shoff = elf.header().shoff();
            int pos = (int) (shoff + (long) sh.index() * 64 + 32);
            for (int i = 0; i < 8; i++) {
                img[pos + i] = (byte) (newSize >>> (8 * i));
            }
        }
        return img;
    }

    private static void check(byte[] img, String what) {
        try (ElfFile elf = ElfFile.of(img, what)) {
            try {
                walk(elf);
            } catch (FormatException e) {
                // expected
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError(what + ": reader threw " + e, e);
            }
            try {
                BtfEncoder.encode(elf, new EncodeOptions(EncodeOptions.Vars.ALL, 1));
            } catch (FormatException | EncodeException e) {
                // expected
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError(what + ": encoder threw " + e, e);
            }
        } catch (FormatException e) {
            // the ELF itself no longer opens
        }
    }
}
