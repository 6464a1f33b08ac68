package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.io.FormatException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code .debug_line} reader against binutils' addr2line on the fixture program (gcc,
 * DWARF 5) and, where the compilers are installed, the same source built by gcc with DWARF 4 and
 * by clang with DWARF 5; and mutated line tables, which may only fail with a FormatException.
 */
class LineTableTest {
    private static final Path FIXTURES = Path.of(System.getProperty("perfj.fixtures", "../fixtures")).toAbsolutePath().normalize();

    @TestFactory
    Stream<DynamicTest> everyRowAddressResolvesAsAddr2lineDoes() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest("fixture hot (gcc, DWARF 5)", () -> compare(FIXTURES.resolve("bin/hot"))));
        for (String[] cc : new String[][] {{"gcc", "-gdwarf-4"}, {"clang", "-gdwarf-5"}, {"gcc", "-gdwarf-2"}}) {
            tests.add(DynamicTest.dynamicTest(cc[0] + " " + cc[1], () -> {
                Path dir = Files.createTempDirectory("perfj-lines");
                Path out = dir.resolve("hot");
                int rc = exec(dir, cc[0], cc[1], "-O2", "-o", out.toString(), FIXTURES.resolve("src/hot.c").toString());
                Assumptions.assumeTrue(rc == 0, cc[0] + " is not installed");
                compare(out);
            }));
        }
        return tests.stream();
    }

    private static void compare(Path elfPath) throws IOException, InterruptedException {
        LineTable t;
        try (ElfFile elf = ElfFile.open(elfPath)) {
            t = LineTable.of(elf);
        }
        assertTrue(t.size() > 10, "rows: " + t.size());
        TreeSet<Long> addrs = new TreeSet<>();
        for (LineTable.Row r : t.rows()) {
            if (!r.endSequence()) {
                addrs.add(r.address());
            }
        }
        List<String> cmd = new ArrayList<>(List.of("addr2line", "-e", elfPath.toString()));
        for (long a : addrs) {
            cmd.add(Long.toHexString(a));
        }
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("addr2line is not installed");
            return;
        }
        List<String> want = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        Assumptions.assumeTrue(p.waitFor() == 0, "addr2line failed");
        assertEquals(addrs.size(), want.size());
        int i = 0;
        int equal = 0;
        for (long a : addrs) {
            LineTable.Row r = t.find(a);
            String mine = r.file() + ":" + (r.line() == 0 ? "?" : Integer.toString(r.line())) + (r.discriminator() > 0 ? " (discriminator " + r.discriminator() + ")" : "");
            assertEquals(want.get(i), mine, "address 0x" + Long.toHexString(a));
            equal++;
            i++;
        }
        assertTrue(equal > 10);
    }

    private static int exec(Path dir, String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Truncated, bit-flipped and size-inflated line programs: typed errors or a table, never anything else. */
    @TestFactory
    Stream<DynamicTest> mutatedLineTablesFailOnlyWithFormatException() throws IOException {
        byte[] elf = Files.readAllBytes(FIXTURES.resolve("bin/hot"));
        long off;
        long size;
        try (ElfFile f = ElfFile.of(elf, "hot")) {
            var sh = f.section(".debug_line").orElseThrow();
            off = sh.offset();
            size = sh.size();
        }
        Random rnd = new Random(42);
        List<DynamicTest> tests = new ArrayList<>();
        for (int n = 0; n < 300; n++) {
            byte[] m = elf.clone();
            int kind = n % 3;
            if (kind == 0) {
                int at = (int) (off + rnd.nextInt((int) size));
                m[at] ^= (byte) (1 << rnd.nextInt(8));
            } else if (kind == 1) {
                // a length field made absurd
                int at = (int) (off + rnd.nextInt(Math.min(40, (int) size)));
                m[at] = (byte) 0xff;
            } else {
                // the section cut short: zero its tail
                int from = (int) (off + rnd.nextInt((int) size));
                for (int i = from; i < off + size; i++) {
                    m[i] = 0;
                }
            }
            int id = n;
            tests.add(DynamicTest.dynamicTest("mutation " + id, () -> {
                try (ElfFile f = ElfFile.of(m, "hot")) {
                    LineTable t = LineTable.of(f);
                    t.find(0x1182);
                } catch (FormatException e) {
                    assertTrue(e.getMessage().contains("hot"), e.getMessage());
                }
            }));
        }
        return tests.stream();
    }
}
