package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every FDE row of {@code readelf --debug-dump=frames-interp} against {@link CallFrameInfo}: the
 * CFA rule and the rules of rax-r15 and the return address at each row's address.
 */
class CfiReadelfGoldenTest {
    private static final Pattern FDE = Pattern.compile(
            "^([0-9a-f]+) [0-9a-f]+ [0-9a-f]+ FDE cie=[0-9a-f]+ pc=([0-9a-f]+)\\.\\.([0-9a-f]+)");
    private static final String[] NAMES = {"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
            "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rip"};
    private static final List<String> CHECKED = List.of("rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp",
            "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "ra");

    /** One readelf row: address, CFA text and the cells of the checked columns. */
    record Row(long loc, String cfa, Map<String, String> cells) {
    }

    record ReadelfFde(long offset, long begin, long end, List<Row> rows) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"bin/hot", "libc.so.6", "bash", "libz.so.1.2.13", "libjvm.so"})
    void matchesReadelf(String file) throws Exception {
        // the fixture program, or an object of the committed build-id cache (libjvm: C++, large)
        Path path = file.contains("/") ? Fixtures.file(file) : BuildIdCacheFixture.object(file, "elf");
        compare(path, ".eh_frame");
    }

    /** .debug_frame written by gcc (CIE version 1) and clang (version 4), built for the test. */
    @ParameterizedTest
    @ValueSource(strings = {"gcc -O2 -gdwarf-5", "clang -O1 -gdwarf-4 -fno-unwind-tables"})
    void debugFrameMatchesReadelf(String compiler, @TempDir Path dir) throws Exception {
        Path src = dir.resolve("t.c");
        Files.writeString(src, """
                #include <stdio.h>
                #include <alloca.h>
                __attribute__((noinline)) long f(long a, long b, long c) {
                    long v[64];
                    for (int i = 0; i < 64; i++) v[i] = a * i + b;
                    return v[c & 63] + (long) alloca(a) % 7;
                }
                int main(int argc, char **argv) { printf("%ld\\n", f(argc, 2, 3)); return 0; }
                """);
        Path out = dir.resolve("t");
        List<String> cmd = new ArrayList<>(List.of(compiler.split(" ")));
        cmd.addAll(List.of("-g", "-fno-asynchronous-unwind-tables", "-o", out.toString(), src.toString()));
        int rc;
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            rc = p.waitFor();
        } catch (IOException e) {
            rc = -1;
        }
        Assumptions.assumeTrue(rc == 0, compiler + " is not usable");
        compare(out, ".debug_frame");
    }

    private static void compare(Path path, String section) throws Exception {
        List<ReadelfFde> expected = readelf(path, section);
        int fdes = 0;
        int rows = 0;
        try (ElfFile elf = ElfFile.open(path)) {
            boolean eh = section.equals(".eh_frame");
            CallFrameInfo cfi = CallFrameInfo.parse(elf, eh, !eh);
            for (ReadelfFde e : expected) {
                Optional<Fde> found = cfi.find(e.begin());
                assertTrue(found.isPresent(), () -> "no FDE for 0x" + Long.toHexString(e.begin()));
                Fde fde = found.get();
                assertEquals(e.offset(), fde.offset(), "FDE offset");
                assertEquals(e.end(), fde.pcEnd(), "FDE end");
                fdes++;
                Map<Long, Row> byLoc = new LinkedHashMap<>();
                for (Row r : e.rows()) {
                    byLoc.put(r.loc(), r); // the last row printed for an address wins
                }
                for (Row r : byLoc.values()) {
                    if (Long.compareUnsigned(r.loc(), e.end()) >= 0) {
                        continue;
                    }
                    UnwindRow row = cfi.rowFor(fde, r.loc());
                    String where = path.getFileName() + " FDE@" + Long.toHexString(e.offset()) + " pc=0x"
                            + Long.toHexString(r.loc());
                    assertNotNull(row, where + ": no row");
                    assertEquals(r.cfa(), cfa(row.cfa()), where + " CFA");
                    for (var cell : r.cells().entrySet()) {
                        int reg = cell.getKey().equals("ra") ? row.returnAddressRegister() : regNumber(cell.getKey());
                        String ours = rule(row.rule(reg));
                        String theirs = cell.getValue();
                        if (theirs.startsWith("r") && !theirs.startsWith("ra")) {
                            theirs = "r" + regNumber(theirs);
                        }
                        assertEquals(theirs, ours, where + " " + cell.getKey());
                    }
                    rows++;
                }
            }
            // the same FDEs through the index as through a walk of the section
            assertEquals(cfi.fdes().size(), expected.size(), "FDE count");
        }
        System.out.printf("readelf frames-interp %s %s: %d FDEs, %d rows match%n", path, section, fdes, rows);
        assertTrue(rows > 0 || expected.isEmpty());
    }

    static String cfa(CfaRule r) {
        return switch (r) {
            case CfaRule.Expression e -> "exp";
            case CfaRule.RegisterOffset ro -> NAMES[ro.register()] + (ro.offset() < 0 ? "" : "+") + ro.offset();
        };
    }

    static String rule(RegisterRule r) {
        return switch (r) {
            case RegisterRule.Undefined u -> "u";
            case RegisterRule.SameValue s -> "s";
            case RegisterRule.Offset o -> "c" + (o.offset() < 0 ? "" : "+") + o.offset();
            case RegisterRule.ValOffset o -> "v" + (o.offset() < 0 ? "" : "+") + o.offset();
            case RegisterRule.Register g -> "r" + g.register();
            case RegisterRule.Expression e -> "exp";
            case RegisterRule.ValExpression e -> "vexp";
        };
    }

    static int regNumber(String name) {
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(name)) {
                return i;
            }
        }
        if (name.matches("r\\d+")) {
            return Integer.parseInt(name.substring(1));
        }
        throw new IllegalArgumentException("register " + name);
    }

    static List<ReadelfFde> readelf(Path file, String section) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("readelf", "--debug-dump=frames-interp", file.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            Assumptions.abort("readelf is not available: " + e.getMessage());
            return List.of();
        }
        List<ReadelfFde> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            ReadelfFde cur = null;
            String[] cols = null;
            boolean inEh = false;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("Contents of the ")) {
                    inEh = line.contains(section + " section");
                    cur = null;
                    continue;
                }
                if (!inEh) {
                    continue;
                }
                Matcher m = FDE.matcher(line);
                if (m.find()) {
                    cur = new ReadelfFde(Long.parseLong(m.group(1), 16), Long.parseUnsignedLong(m.group(2), 16),
                            Long.parseUnsignedLong(m.group(3), 16), new ArrayList<>());
                    out.add(cur);
                    cols = null;
                    continue;
                }
                if (line.contains(" CIE ") || line.contains("ZERO terminator")) {
                    cur = null;
                    continue;
                }
                if (cur == null) {
                    continue;
                }
                String t = line.trim();
                if (t.startsWith("LOC")) {
                    cols = t.split("\\s+");
                    continue;
                }
                if (cols == null || t.isEmpty() || !t.matches("[0-9a-f]{8,16} .*")) {
                    continue;
                }
                String[] cells = t.replaceAll("(r\\d+) \\([^)]*\\)", "$1").split("\\s+");
                Map<String, String> checked = new LinkedHashMap<>();
                for (int i = 2; i < cols.length && i < cells.length; i++) {
                    if (CHECKED.contains(cols[i])) {
                        checked.put(cols[i], cells[i]);
                    }
                }
                cur.rows().add(new Row(Long.parseUnsignedLong(cells[0], 16), cells[1], checked));
            }
        }
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }
}
