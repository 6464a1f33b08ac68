package io.perfj.symbols;

import io.perfj.elf.ElfFile;
import io.perfj.elf.ElfSymbol;
import io.perfj.io.FormatException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compares the demangler with binutils' {@code c++filt -p} (no parameter lists, libiberty's
 * DMGL_VERBOSE) on mangled names from the shared libraries of this machine. Skipped without
 * c++filt or libraries.
 */
class DemanglerCxxFiltTest {
    static final int WANT = 20_000;

    @Test
    void matchesCxxFilt() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/c++filt")), "c++filt is not installed");
        Path lib = Path.of("/usr/lib/x86_64-linux-gnu");
        Assumptions.assumeTrue(Files.isDirectory(lib), "no " + lib);
        Set<String> names = new LinkedHashSet<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(lib)) {
            files = s.filter(p -> p.getFileName().toString().contains(".so")).filter(Files::isRegularFile).sorted().toList();
        }
        for (Path f : files) {
            if (names.size() >= WANT) {
                break;
            }
            if (!ElfFile.isElf(f)) {
                continue;
            }
            try (ElfFile elf = ElfFile.open(f)) {
                List<ElfSymbol> syms = new ArrayList<>(elf.dynsym());
                syms.addAll(elf.symtab());
                for (ElfSymbol s : syms) {
                    String n = s.name();
                    if (n.startsWith("_Z") && n.indexOf('@') < 0 && names.size() < WANT) {
                        names.add(n);
                    }
                }
            } catch (FormatException e) {
                // not our concern here
            }
        }
        Assumptions.assumeTrue(names.size() > 100, "too few mangled names on this machine");
        List<String> in = new ArrayList<>(names);
        List<String> want = cxxfilt(in);
        int match = 0;
        List<String> diffs = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            String d = Demangler.demangleOrNull(in.get(i), false, true);
            String got = d == null ? in.get(i) : d;
            if (got.equals(want.get(i))) {
                match++;
            } else if (diffs.size() < 10) {
                diffs.add(in.get(i) + "\n    c++filt: " + want.get(i) + "\n    ours:    " + got);
            }
        }
        double rate = 100.0 * match / in.size();
        System.out.printf("demangler vs c++filt -p: %d/%d names identical (%.3f%%)%n", match, in.size(), rate);
        diffs.forEach(d -> System.out.println("  " + d));
        assertTrue(rate > 99.0, "match rate " + rate);
    }

    private static List<String> cxxfilt(List<String> names) throws Exception {
        Process p = new ProcessBuilder("c++filt", "-p").start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try (OutputStream os = p.getOutputStream()) {
            os.write((String.join("\n", names) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        String text = out.get();
        p.waitFor();
        List<String> lines = text.lines().toList();
        if (lines.size() != names.size()) {
            throw new AssertionError("c++filt returned " + lines.size() + " lines for " + names.size() + " names");
        }
        return lines;
    }
}
