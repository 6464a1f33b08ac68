package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code perfj annotate} against what {@code perf annotate} printed for the committed recordings
 * (fixtures/make-annotate-golden.sh), disassembling the files of the committed build-id cache
 * with the system's objdump, as perf did.
 */
class AnnotateGoldenTest {
    /**
     * Where objdump looks for the separate debug file of the recorded libc (by its build-id, from
     * the committed cache), to print libc's source lines as perf's objdump did: libc6-dbg of the
     * recorded build. objdump has no option to look elsewhere, so this stays a machine check.
     */
    private static final Path LIBC_DEBUG = libcDebug();

    private static Path libcDebug() {
        String id = BuildIdCacheFixture.object("libc.so.6", "elf").getParent().getFileName().toString();
        return Path.of("/usr/lib/debug/.build-id", id.substring(0, 2), id.substring(2) + ".debug");
    }

    static void assumeObjdump() {
        io.perfj.testing.Objdump.assume();
    }

    static CliFixtures.Run annotate(String name, String... extra) {
        assumeObjdump();
        List<String> args = new ArrayList<>(List.of("annotate", "-i", Fixtures.recording(name).toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        args.addAll(Arrays.asList(extra));
        return CliFixtures.runPerf(args.toArray(new String[0]));
    }

    @TestFactory
    Stream<DynamicTest> cFpVariantsEqualPerf() {
        String[][] cases = {
            {"stdio2"}, {"stdio", "--stdio"}, {"compute_a", "compute_a"}, {"stdio-compute_a", "--stdio", "compute_a"},
            {"global-period", "--percent-type", "global-period"},
            {"local-hits", "--percent-type", "local-hits", "compute_b"}, {"nr-samples", "-n"},
            {"total-period", "--show-total-period"}, {"asm-raw", "--asm-raw", "leaf_mix"},
            {"stdio-full-paths", "--stdio", "-P", "leaf_mix"}, {"intel", "-M", "intel", "compute_b"},
            {"hide-src", "--hide-src"}, {"offsets", "--show-offsets"},
        };
        return Arrays.stream(cases).map(c -> DynamicTest.dynamicTest(c[0], () -> {
            assumeLibcDebug();
            CliFixtures.Run r = annotate("c-fp", Arrays.copyOfRange(c, 1, c.length));
            assertEquals(Fixtures.golden("c-fp", "annotate-" + c[0]), r.out(), r.err());
        }));
    }

    /**
     * With a symbol asked for, perf deletes every other symbol a sample hits from its DSO's table,
     * so calls into those keep objdump's demangled name with parameters: StringTable::create_table
     * calls AllocateHeap (which has samples) and TableRateStatistics's constructor (which has none).
     */
    @Test
    void callsIntoSymbolsWithSamplesKeepObjdumpsNameWhenASymbolIsAskedFor() {
        CliFixtures.Run r = annotate("java", "StringTable::create_table");
        String want = Fixtures.golden("java", "annotate-create_table");
        assertTrue(want.contains("→ call   AllocateHeap(unsigned long, MemTag, AllocFailStrategy::AllocFailEnum)\n"));
        assertTrue(want.contains("→ call   TableRateStatistics::TableRateStatistics\n"));
        assertEquals(want, r.out(), r.err());
    }

    /**
     * Without {@code --compat perf-6.1} nothing is deleted from the symbol tables, C++ names
     * carry their parameter lists and the layout is perf 7.2's: the whole annotation is perf
     * 7.2's ({@code → call   Mutex::Mutex(Mutex::Rank, char const*, bool)}), whether the symbol
     * is asked for by that name or without its parameter list.
     */
    @ParameterizedTest
    @ValueSource(strings = {"StringTable::create_table()", "StringTable::create_table"})
    void annotationIsPerf72sByDefault(String asked) {
        assumeObjdump();
        CliFixtures.Run r = CliFixtures.run("annotate", "-i", Fixtures.recording("java").toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString(), asked);
        String perf72 = Fixtures.golden("java", "annotate-create_table.perf72");
        assertTrue(perf72.contains("→ call   Mutex::Mutex(Mutex::Rank, char const*, bool)"), perf72);
        assertEquals(perf72, r.out(), r.err());
    }

    /**
     * perf 6.1 prints an empty column for --percent-type global-hits (it divides by a count its
     * annotate never fills in): with --compat perf-6.1 perfj prints that, line for line. By
     * default it prints the real share, hits over all samples, in the lines local hits have.
     */
    @Test
    void globalHitsAreHitsOverAllSamples() {
        assumeLibcDebug();
        String[] perf = Fixtures.golden("c-fp", "annotate-global-hits").split("\n");
        // the golden annotates every symbol; compare compute_a's block
        List<String> perfBlock = blocks(String.join("\n", perf) + "\n").get(0).lines();
        String[] compat = annotate("c-fp", "--percent-type", "global-hits", "compute_a").out().split("\n");
        assertEquals(perfBlock.size(), compat.length);
        for (int i = 2; i < compat.length; i++) {
            assertEquals(perfBlock.get(i), compat[i]);
        }
        List<String> args = new ArrayList<>(List.of("annotate", "-i", Fixtures.recording("c-fp").toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString(),
                "--percent-type", "global-hits", "compute_a"));
        String[] mine = CliFixtures.run(args.toArray(new String[0])).out().split("\n");
        args.add("-n");
        String[] counts = CliFixtures.run(args.toArray(new String[0])).out().split("\n");
        // only compute_a's samples count when it is asked for: 303
        assertTrue(mine[0].startsWith("Samples: 303 "), mine[0]);
        int checked = 0;
        for (int i = 2; i < mine.length; i++) {
            String c = counts[i].substring(0, 7).trim();
            if (!c.isEmpty() && !c.equals("Samples") && !c.equals("Percent")) {
                double want = 100.0 * Long.parseLong(c) / 303;
                assertEquals(want, Double.parseDouble(mine[i].substring(0, 7).trim()), 0.006, mine[i]);
                checked++;
            }
        }
        assertTrue(checked >= 7, "instructions with samples: " + checked);
        // the lines are those of local hits (perf's, with the compat switch, in c-fp.annotate-local-hits)
        args.remove("-n");
        args.set(args.indexOf("global-hits"), "local-hits");
        String[] local = CliFixtures.run(args.toArray(new String[0])).out().split("\n");
        assertEquals(local.length, mine.length);
        for (int i = 2; i < mine.length; i++) {
            assertEquals(mask(local[i]), mask(mine[i]));
        }
    }

    private static String mask(String line) {
        return line.length() < 7 ? line : "       " + line.substring(7);
    }

    @TestFactory
    Stream<DynamicTest> recordingsAnnotateAsPerfDid() {
        return Stream.of("c-fp", "pipe", "zstd", "two-events", "bpf-sys")
                .flatMap(name -> Stream.of("stdio2", "stdio").map(layout -> DynamicTest.dynamicTest(name + " " + layout, () -> {
                    boolean libc = Files.isRegularFile(LIBC_DEBUG);
                    CliFixtures.Run r = layout.equals("stdio") ? annotate(name, "--stdio") : annotate(name);
                    List<Block> want = blocks(Fixtures.golden(name, "annotate-" + layout));
                    List<Block> got = new ArrayList<>(blocks(r.out()));
                    // perf 6.1 without libbfd cannot annotate BPF programs; perfj can
                    got.removeIf(b -> b.header().contains("bpf_prog_"));
                    if (!libc) {
                        want.removeIf(b -> !ownBinary(b.header()));
                        got.removeIf(b -> !ownBinary(b.header()));
                        // a recording of system code alone (bpf-sys) has nothing left to compare
                        Assumptions.assumeFalse(want.isEmpty(), "objdump needs libc6-dbg of the recorded libc build ("
                                + LIBC_DEBUG + ") for libc's source lines");
                    }
                    assertFalse(want.isEmpty());
                    // same annotations; equal sample counts may come in another order (perf's rbtree)
                    assertEquals(sorted(want), sorted(got), r.err());
                    if (libc) {
                        assertEquals(want.get(0), got.get(0), "the hottest symbol comes first");
                    }
                })));
    }

    /** A block of the fixtures' own program, whose line info needs no system debug file. */
    private static boolean ownBinary(String header) {
        return header.contains("fixtures/bin/") || header.contains("Disassembly of hot ");
    }

    record Block(String header, List<String> lines) {
    }

    /**
     * With plain or qualified names asked for, objects that cannot hold them are not loaded and
     * kernel samples are dropped unless the kernel may name one; a name the probe cannot look for
     * ("no::such()") turns that off. Both ways give the same output, with user and kernel symbols
     * asked for, and C++ names in the java fixture.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"c-fp:compute_a", "c-fp:compute_a,pvm_irq_enable",
            "c-fp:__lruvec_stat_mod_folio", "c-fp:no_such_symbol", "c-fp:compute_b,leaf_mix",
            "java:SharedDataRelocationTask::work", "java:StringTable::create_table,Assembler::andq",
            "java:No::such_thing"})
    void loadingOnlyWhatMayHoldTheNamesChangesNothing(String fixtureAndNames) {
        String fixture = fixtureAndNames.substring(0, fixtureAndNames.indexOf(':'));
        List<String> asked = new ArrayList<>(List.of("--stdio2"));
        asked.addAll(List.of(fixtureAndNames.substring(fixture.length() + 1).split(",")));
        CliFixtures.Run probed = annotate(fixture, asked.toArray(new String[0]));
        asked.add("no::such()");
        CliFixtures.Run full = annotate(fixture, asked.toArray(new String[0]));
        assertEquals(full.rc(), probed.rc());
        assertEquals(full.out(), probed.out());
        assertEquals(full.err().replace(", no::such()", ""), probed.err());
    }

    /** A recording cut inside a record: what was read is annotated, with perf's kind of warning. */
    @Test
    void aCutRecordingWarnsAndAnnotatesWhatWasRead(@org.junit.jupiter.api.io.TempDir Path tmp) throws java.io.IOException {
        byte[] all = java.nio.file.Files.readAllBytes(Fixtures.recording("c-fp"));
        Path cut = tmp.resolve("cut.data");
        java.nio.file.Files.write(cut, Arrays.copyOf(all, 30001));
        CliFixtures.Run r = annotateFile(cut, "compute_a");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains("perfj: warning: " + cut + ": record SAMPLE at offset 0x"), r.err());
        assertTrue(r.err().contains("the recording was cut short"), r.err());
        assertTrue(r.out().startsWith("Samples: "), r.out());
    }

    /** Splits an annotate output into one block per symbol. */
    static List<Block> blocks(String text) {
        List<Block> out = new ArrayList<>();
        List<String> cur = null;
        for (String l : text.split("\n", -1)) {
            boolean start = l.startsWith("Samples: ") || l.startsWith(" Percent |") || l.startsWith(" Samples |")
                    || l.startsWith(" Period  ");
            if (start) {
                cur = new ArrayList<>();
                out.add(new Block(l.startsWith("Samples: ") ? "" : l, cur));
            }
            if (cur != null && !(l.isEmpty() && cur.isEmpty())) {
                cur.add(l);
            }
        }
        List<Block> fixed = new ArrayList<>();
        for (Block b : out) {
            List<String> ls = new ArrayList<>(b.lines());
            while (!ls.isEmpty() && ls.get(ls.size() - 1).isEmpty()) {
                ls.remove(ls.size() - 1);
            }
            String header = b.header().isEmpty() && ls.size() > 1 ? ls.get(1) : b.header();
            fixed.add(new Block(header, ls));
        }
        return fixed;
    }

    private static List<String> sorted(List<Block> bs) {
        List<String> out = new ArrayList<>();
        for (Block b : bs) {
            out.add(String.join("\n", b.lines()));
        }
        out.sort(null);
        return out;
    }

    static void assumeLibcDebug() {
        Assumptions.assumeTrue(Files.isRegularFile(LIBC_DEBUG), "objdump needs libc6-dbg of the recorded libc build (" + LIBC_DEBUG + ") for libc's source lines");
    }

    // ------------------------------------------------------------------ BPF

    private static final Pattern STDIO_INSN = Pattern.compile("^ +[0-9.]+ : +([0-9a-f]+):(.*)$");

    /** The JIT instructions perfj shows for each BPF sub-program are objdump's for the same bytes. */
    @Test
    void bpfJitInstructionsEqualObjdumpsDisassembly() throws IOException {
        CliFixtures.Run r = annotate("bpf-sys", "--stdio");
        Map<Long, String> objdump = new HashMap<>();
        for (String l : Files.readAllLines(Fixtures.file("golden/bpf-sys.jited-att.txt"))) {
            if (l.startsWith("func ")) {
                continue;
            }
            int c = l.indexOf(':');
            objdump.put(Long.parseUnsignedLong(l.substring(0, c).trim(), 16), l.substring(c + 1).strip().replace('\t', ' '));
        }
        int n = 0;
        for (Block b : blocks(r.out())) {
            if (!b.header().contains("bpf_prog_")) {
                continue;
            }
            for (String l : b.lines()) {
                Matcher m = STDIO_INSN.matcher(l);
                if (m.matches()) {
                    long addr = Long.parseUnsignedLong(m.group(1), 16);
                    String want = objdump.get(addr);
                    assertEquals(want == null ? null : want.replaceAll(" +", " "), m.group(2).strip().replaceAll(" +", " "),
                            "instruction at " + m.group(1));
                    n++;
                }
            }
        }
        assertTrue(n >= 40, "BPF instructions compared: " + n);
    }

    /** Each BPF annotation has source lines from BTF and percentages adding up to 100. */
    @Test
    void bpfAnnotationsCarrySourceLinesAndAddUp() {
        CliFixtures.Run r = annotate("bpf-sys");
        int progs = 0;
        for (Block b : blocks(r.out())) {
            if (!b.header().contains("bpf_prog_")) {
                continue;
            }
            progs++;
            double sum = 0;
            boolean src = false;
            for (String l : b.lines().subList(2, b.lines().size())) {
                String p = l.substring(0, 7).trim();
                if (!p.isEmpty() && !p.equals("Percent")) {
                    sum += Double.parseDouble(p);
                }
                if (l.contains("for (i = 0; i < ROUNDS; i++)")) {
                    src = true;
                }
            }
            assertEquals(100.0, sum, 0.5, b.header());
            assertTrue(src, "source line from BTF line info in " + b.header());
        }
        assertEquals(2, progs, "perfj_mix and perfj_fold have samples");
    }

    /** Every backend finds the same instructions and gives them the same percentages. */
    @TestFactory
    Stream<DynamicTest> backendsAgreeWithObjdump() {
        return Stream.of("llvm-objdump", "capstone").map(d -> DynamicTest.dynamicTest(d, () -> {
            Map<Long, String> want = percents(annotate("c-fp", "--stdio", "compute_b").out());
            CliFixtures.Run r = annotate("c-fp", "--stdio", "--disassembler", d, "compute_b");
            Assumptions.assumeFalse(r.rc() != 0 && r.err().contains("not found"), d + " is not installed");
            assertEquals(want, percents(r.out()), r.err());
            assertTrue(r.out().contains("./src/hot.c:29 (discriminator 3)"), "line markers from .debug_line");
        }));
    }

    private static Map<Long, String> percents(String stdio) {
        Map<Long, String> out = new HashMap<>();
        for (String l : stdio.split("\n")) {
            Matcher m = STDIO_INSN.matcher(l);
            if (m.matches()) {
                out.put(Long.parseLong(m.group(1), 16), l.substring(0, l.indexOf(':')).trim());
            }
        }
        return out;
    }

    /**
     * --bpf-view xlated: each sub-program's bytecode with function header and source lines equals
     * bpftool's 'prog dump xlated linum' of the program, and its percentages add up to 100.
     */
    @Test
    void bpfXlatedViewEqualsBpftoolLinum() throws IOException {
        Path bin = Fixtures.file("bpf-xlated/golden/bpf-sys.xlated.bin");
        CliFixtures.Run r = annotate("bpf-sys", "--bpf-view", "xlated", "--xlated-file", bin.toString());
        List<String> golden = Files.readAllLines(Fixtures.file("golden/bpf-sys.xlated-linum.txt"));
        int progs = 0;
        for (Block b : blocks(r.out())) {
            if (!b.header().contains("bpf_prog_")) {
                continue;
            }
            progs++;
            List<String> body = b.lines().subList(3, b.lines().size()); // title, name, method line
            List<String> mine = new ArrayList<>();
            double sum = 0;
            for (String l : body) {
                String p = l.substring(0, 7).trim();
                if (!p.isEmpty()) {
                    sum += Double.parseDouble(p);
                }
                mine.add(l.substring(7).strip());
            }
            int from = golden.indexOf(mine.get(0));
            assertTrue(from >= 0, "function header " + mine.get(0) + " in bpftool's dump");
            List<String> want = new ArrayList<>();
            for (int i = from; i < golden.size() && (i == from || !golden.get(i).endsWith("):")); i++) {
                want.add(golden.get(i).strip());
            }
            assertEquals(want, mine, b.header());
            assertEquals(100.0, sum, 0.5, b.header());
        }
        assertEquals(2, progs);
    }

    @Test
    void bpfXlatedViewNeedsTheTranslatedInstructions() {
        CliFixtures.Run r = annotate("bpf-sys", "--bpf-view", "xlated", "bpf_prog_b5ae9f831328185a_perfj_mix");
        assertEquals(1, r.rc());
        assertTrue(r.err().contains("perf does not record them); pass --xlated-file FILE made by 'bpftool prog dump xlated id 138"),
                r.err());
    }

    /** A copy of bpf-sys.data with the given header feature bits cleared. */
    private static Path withoutFeatures(int... bits) throws IOException {
        byte[] d = Files.readAllBytes(Fixtures.recording("bpf-sys"));
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(d).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long f = b.getLong(0x48);
        for (int bit : bits) {
            f &= ~(1L << bit);
        }
        b.putLong(0x48, f);
        Path p = Files.createTempFile("perfj-nofeat", ".data");
        Files.write(p, d);
        p.toFile().deleteOnExit();
        return p;
    }

    private static CliFixtures.Run annotateFile(Path file, String... extra) {
        assumeObjdump();
        List<String> args = new ArrayList<>(List.of("annotate", "-i", file.toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files"));
        args.addAll(Arrays.asList(extra));
        return CliFixtures.runPerf(args.toArray(new String[0]));
    }

    @Test
    void withoutBpfProgramInfoBpfSymbolsSayWhatIsMissing() throws IOException {
        CliFixtures.Run r = annotateFile(withoutFeatures(25), "bpf_prog_b5ae9f831328185a_perfj_mix");
        assertEquals(1, r.rc());
        assertTrue(r.err().contains("cannot annotate bpf_prog_b5ae9f831328185a_perfj_mix: the recording has no BPF program info"),
                r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void withoutBtfBpfSymbolsShowInstructionsOnly() throws IOException {
        CliFixtures.Run r = annotateFile(withoutFeatures(26), "bpf_prog_b5ae9f831328185a_perfj_mix");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains("is not in the recording (BPF_BTF feature); showing instructions only"), r.err());
        assertFalse(r.out().contains("ROUNDS"), "no source lines without BTF");
        assertTrue(r.out().contains("\u2191 jne"), r.out());
    }

    /** --json: one object per annotated symbol, hottest first, with the instructions' counts and percentages. */
    @Test
    void jsonCarriesTheSameNumbers() {
        assumeLibcDebug();
        CliFixtures.Run r = annotate("c-fp", "--json", "-n");
        String out = r.out();
        assertTrue(out.startsWith("[\n{\"symbol\":\"compute_a\",\"dso\":"), out.substring(0, 80));
        assertTrue(out.endsWith("]}\n]\n"));
        List<Block> text = blocks(Fixtures.golden("c-fp", "annotate-nr-samples"));
        String[] objects = out.split("\n\\{\"symbol\":");
        assertEquals(text.size() + 1, objects.length);
        Pattern insn = Pattern.compile("\\{\"offset\":(\\d+),\"text\":\"[^\n]*\",\"samples\":(\\d+),\"period\":(\\d+),\"percent\":([0-9.]+)\\}");
        for (int i = 1; i < objects.length; i++) {
            long samples = 0;
            double pct = 0;
            Matcher m = insn.matcher(objects[i]);
            List<Long> counts = new ArrayList<>();
            while (m.find()) {
                samples += Long.parseLong(m.group(2));
                pct += Double.parseDouble(m.group(4));
                if (!m.group(2).equals("0")) {
                    counts.add(Long.parseLong(m.group(2)));
                }
            }
            assertEquals(100.0, pct, 0.01, objects[i].substring(0, 40));
            List<Long> want = new ArrayList<>();
            for (String l : text.get(i - 1).lines().subList(2, text.get(i - 1).lines().size())) {
                String c = l.substring(0, 7).trim();
                if (!c.isEmpty() && !c.equals("Samples")) {
                    want.add(Long.parseLong(c));
                }
            }
            assertEquals(want, counts, "per-instruction samples as in perf's -n output");
            assertTrue(objects[i].contains("\"samples\":" + samples + ","), "symbol total");
        }
    }

    @Test
    void outputFileHoldsWhatStdoutWouldShow() throws IOException {
        assumeLibcDebug();
        Path out = Files.createTempFile("perfj-annotate", ".txt");
        CliFixtures.Run r = annotate("c-fp", "-o", out.toString(), "compute_a");
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.out());
        assertEquals(Fixtures.golden("c-fp", "annotate-compute_a"), Files.readString(out));
        Files.delete(out);
    }

    @Test
    void missingDisassemblerIsOneLine() {
        CliFixtures.Run r = annotate("c-fp", "--objdump", "/nonexistent/objdump", "compute_a");
        assertEquals(1, r.rc());
        assertTrue(r.err().startsWith("perfj: /nonexistent/objdump not found: install binutils"), r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
    }
}
