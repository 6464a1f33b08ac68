package io.perfj.elf;

import io.perfj.io.FormatException;
import io.perfj.symbols.ElfSymbols;
import io.perfj.symbols.SymbolTable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ELF files of this machine (/usr/lib/x86_64-linux-gnu, /usr/bin; about 300): every one
 * parses without error, and the defined function symbols of .dynsym equal what
 * {@code nm -D --defined-only} lists as T/t/W/w/i (when nm is installed).
 */
class ElfCorpusTest {

    static List<Path> corpus(int max) throws IOException {
        List<Path> out = new ArrayList<>();
        for (String dir : List.of("/usr/lib/x86_64-linux-gnu", "/usr/bin")) {
            Path d = Path.of(dir);
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> s = Files.list(d)) {
                s.sorted().filter(Files::isRegularFile).filter(ElfFile::isElf).limit(max / 2).forEach(out::add);
            }
        }
        return out;
    }

    @Test
    void parsesEveryFileAndMatchesNm() throws Exception {
        List<Path> files = corpus(300);
        Assumptions.assumeTrue(!files.isEmpty(), "no system ELF files");
        boolean haveNm = Files.isExecutable(Path.of("/usr/bin/nm"));
        int compared = 0;
        int symbols = 0;
        List<String> diffs = new ArrayList<>();
        for (Path f : files) {
            Set<String> ours = new TreeSet<>();
            try (ElfFile elf = ElfFile.open(f)) {
                elf.sections();
                elf.notes();
                elf.buildId();
                elf.debugLink();
                elf.symtab();
                // nm's T/t/W/w/i: defined symbols in executable sections (any type, as
                // assembler functions often have none) and GNU indirect functions
                List<SectionHeader> secs = elf.sections();
                for (ElfSymbol s : elf.dynsym()) {
                    if (!s.isDefined() || s.name().isEmpty() || s.shndx() >= secs.size()) {
                        continue;
                    }
                    boolean text = (secs.get(s.shndx()).flags() & Elf.SHF_EXECINSTR) != 0;
                    if (s.type() == Elf.STT_GNU_IFUNC || (text && s.type() != Elf.STT_OBJECT && s.type() != Elf.STT_TLS
                            && s.type() != Elf.STT_SECTION)) {
                        ours.add(Long.toHexString(s.value()) + " " + s.name());
                    }
                }
                SymbolTable table = ElfSymbols.loadUser(elf, f, List.of()).table();
                symbols += table.size();
            } catch (FormatException e) {
                throw new AssertionError(f + ": " + e.getMessage(), e);
            }
            if (haveNm && compared < 120) {
                Set<String> nm = nmDynamicFunctions(f);
                if (nm != null) {
                    compared++;
                    if (!nm.equals(ours)) {
                        diffs.add(f + ": nm " + nm.size() + " vs ours " + ours.size());
                    }
                }
            }
        }
        System.out.printf("ELF corpus: %d files parsed, %d symbols loaded, %d compared with nm -D, %d differ%n",
                files.size(), symbols, compared, diffs.size());
        diffs.stream().limit(10).forEach(d -> System.out.println("  " + d));
        assertEquals(List.of(), diffs);
        assertTrue(files.size() > 10 || !Files.isDirectory(Path.of("/usr/bin")));
    }

    private static Set<String> nmDynamicFunctions(Path f) throws Exception {
        Process p = new ProcessBuilder("nm", "-D", "--defined-only", f.toString()).redirectErrorStream(false).start();
        p.getErrorStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            return null;
        }
        Set<String> set = new TreeSet<>();
        for (String line : out.split("\n")) {
            String[] parts = line.trim().split(" ");
            if (parts.length < 3) {
                continue;
            }
            String type = parts[1];
            if (!(type.equals("T") || type.equals("t") || type.equals("W") || type.equals("w") || type.equals("i"))) {
                continue;
            }
            String name = parts[2];
            int at = name.indexOf('@');
            if (at > 0) {
                name = name.substring(0, at);
            }
            set.add(Long.toHexString(Long.parseUnsignedLong(parts[0], 16)) + " " + name);
        }
        return set;
    }
}
