package io.perfj.dwarf;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;
import io.perfj.session.MachineResolver;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perfj's correct-mode DWARF unwinding ({@link UserStackUnwinder} without perf compatibility)
 * against an independent unwinder: hotspot's perfparser (elfutils libdw), on the committed
 * {@code --call-graph dwarf} recording and the objects of the committed build-id cache.
 *
 * <p>A frame is compared as {@code object+offset} (the DSO's short name and the file offset of
 * the looked-up address, i.e. the return address minus one for callers, as both unwinders look
 * them up), because perfparser reports a location by the absolute address of the first process
 * that reached it. {@code golden/bpf-dwarf.perfparser-stacks.txt} holds perfparser's user
 * stacks; {@link #goldenIsPerfparsersOutput()} remakes it when perfparser is installed
 * ({@code -Dgolden.update=true} rewrites it).
 */
class PerfparserCrossCheckTest {
    private static final String GOLDEN = "bpf-dwarf.perfparser-stacks.txt";
    private static final long KERNEL_START = 0xffff_8000_0000_0000L;
    /** Marks a frame perfparser guessed (see {@link PerfparserStream.Sample#guessed()}). */
    static final String GUESSED = "~";

    /** Where Debian's hotspot package installs perfparser, or the property perfj.perfparser. */
    static Path perfparser() {
        String p = System.getProperty("perfj.perfparser");
        if (p != null) {
            return Path.of(p);
        }
        for (String dir : List.of("/usr/lib/x86_64-linux-gnu/libexec", "/usr/libexec", "/usr/lib/libexec")) {
            Path f = Path.of(dir, "hotspot-perfparser");
            if (Files.isExecutable(f)) {
                return f;
            }
        }
        return null;
    }

    /** Each sample's user frames (canonical), keyed "TIME PID/TID" in recording order. */
    record Stacks(Map<String, List<String>> perfj, Map<String, List<String>> perfparser) {
    }

    /**
     * One pass over the recording: perfj's correct-mode frames of every sample, and, given
     * perfparser's stream, its frames, each location made canonical with the maps of the sample
     * that first refers to it (the one perfparser defined it for) at that sample's time.
     */
    static Stacks stacks(Path recording, SymbolOptions symbols, PerfparserStream.Stream pp) {
        Map<String, ArrayDeque<PerfparserStream.Sample>> ppByKey = new HashMap<>();
        if (pp != null) {
            for (PerfparserStream.Sample s : pp.samples()) {
                ppByKey.computeIfAbsent(key(s.time(), s.pid(), s.tid()), k -> new ArrayDeque<>()).add(s);
            }
        }
        Map<Integer, String> canonical = new HashMap<>();
        Map<String, List<String>> mine = new LinkedHashMap<>();
        Map<String, List<String>> theirs = new LinkedHashMap<>();
        PerfData data = PerfData.open(recording);
        MachineResolver r = new MachineResolver(data, symbols);
        RecordInput in = data.orderedRecords();
        for (RawRecord raw; (raw = in.next()) != null; ) {
            PerfRecord rec = RecordDecoder.decode(raw, data.evlist());
            if (!(rec instanceof Sample s)) {
                r.process(rec);
                continue;
            }
            String k = key(s.time(), s.pid(), s.tid());
            List<String> frames = new ArrayList<>();
            long[] user = r.unwindUser(s);
            if (user != null) {
                for (long ip : user) {
                    frames.add(frame(r, s, ip));
                }
            }
            mine.put(k, frames);
            ArrayDeque<PerfparserStream.Sample> q = ppByKey.get(k);
            PerfparserStream.Sample ps = q == null ? null : q.poll();
            if (ps != null) {
                List<String> f = new ArrayList<>();
                int[] ids = ps.frames();
                for (int i = 0; i < ids.length; i++) {
                    PerfparserStream.Location loc = pp.locations().get(ids[i]);
                    if (loc == null || Long.compareUnsigned(loc.address(), KERNEL_START) >= 0) {
                        continue;
                    }
                    String c = canonical.computeIfAbsent(ids[i], x -> frame(r, s, loc.address()));
                    f.add(i >= ids.length - ps.guessed() ? GUESSED + c : c);
                }
                theirs.put(k, f);
            }
        }
        return new Stacks(mine, theirs);
    }

    /** The committed cache's files and nothing of this machine. */
    static SymbolOptions cacheOnly(Path cache) {
        return SymbolOptions.builder().buildIdDir(cache).perfMapDir(null).noSystemFiles().build();
    }

    private static String key(long time, int pid, int tid) {
        return time + " " + pid + "/" + tid;
    }

    private static String frame(MachineResolver r, Sample s, long ip) {
        io.perfj.symbols.Map m = r.findMap(s.pid(), s.tid(), 2, ip);
        if (m == null || m.dso() == null) {
            return "?0x" + Long.toHexString(ip);
        }
        return m.dso().shortName() + "+0x" + Long.toHexString(m.mapIp(ip));
    }

    static String format(Map<String, List<String>> stacks) {
        StringBuilder sb = new StringBuilder();
        sb.append("# hotspot-perfparser (elfutils libdw) user stacks of bpf-dwarf.data, unwound with the objects of\n")
                .append("# archive/buildid-cache.tar.xz; frames as object+file offset of the looked-up address\n")
                .append("# (callers: return address - 1); ~ marks the frames perfparser flags as guessed.\n")
                .append("# Made by PerfparserCrossCheckTest (-Dgolden.update=true).\n");
        stacks.forEach((k, v) -> sb.append(k).append(':').append(v.isEmpty() ? "" : " " + String.join(" ", v)).append('\n'));
        return sb.toString();
    }

    static Map<String, List<String>> parse(String text) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            String rest = line.substring(colon + 1).trim();
            out.put(line.substring(0, colon), rest.isEmpty() ? List.of() : List.of(rest.split(" ")));
        }
        return out;
    }

    /** Runs perfparser on the recording with only the cache's objects and kallsyms visible. */
    static PerfparserStream.Stream runPerfparser(Path exe, Path recording, Path cache, Path work) throws Exception {
        Path root = work.resolve("sysroot");
        Path kallsyms = null;
        try (Stream<Path> files = Files.walk(cache)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path rel = cache.relativize(f);
                String name = f.getFileName().toString();
                if (rel.startsWith(".build-id") || rel.getNameCount() < 3) {
                    continue;
                }
                if (rel.getName(0).toString().equals("[kernel.kallsyms]") && name.equals("kallsyms")) {
                    kallsyms = f;
                } else if (name.equals("elf")) {
                    // <path>/<build-id>/elf -> sysroot/<path>
                    Path target = root.resolve(rel.getParent().getParent().toString());
                    Files.createDirectories(target.getParent());
                    Files.createSymbolicLink(target, f);
                }
            }
        }
        Path out = work.resolve("out.qperf");
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), "--input", recording.toString(),
                "--output", out.toString(), "--sysroot", root.toString(),
                "--debug", work.resolve("no-debug").toString(), "--max-frames", "-1"));
        if (kallsyms != null) {
            cmd.addAll(List.of("--kallsyms", kallsyms.toString()));
        }
        Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(work.resolve("log.txt").toFile()).start();
        int rc = p.waitFor();
        assertEquals(0, rc, "perfparser failed: " + Files.readString(work.resolve("log.txt")));
        return PerfparserStream.decode(Files.readAllBytes(out));
    }

    @Test
    void goldenIsPerfparsersOutput() throws Exception {
        Path exe = perfparser();
        Assumptions.assumeTrue(exe != null, "hotspot-perfparser is not installed (Debian: apt-get install hotspot)");
        Path recording = Fixtures.recording("bpf-dwarf");
        Path cache = BuildIdCacheFixture.dir();
        Path work = Files.createTempDirectory("perfj-perfparser");
        try {
            PerfparserStream.Stream pp = runPerfparser(exe, recording, cache, work);
            String made = format(stacks(recording, cacheOnly(cache), pp).perfparser());
            Path golden = Fixtures.dir().resolve("golden").resolve(GOLDEN);
            if (Boolean.getBoolean("golden.update")) {
                Files.writeString(golden, made, StandardCharsets.UTF_8);
            }
            assertEquals(Files.readString(golden, StandardCharsets.UTF_8), made);
        } finally {
            deleteTree(work);
        }
    }

    /**
     * perfparser's frames up to its first guessed one, which it flags one frame early: the
     * flag is set while the frame is being looked at (libdw unwinds it to tell whether it is a
     * signal frame), so that frame itself comes from the copied stack.
     */
    static List<String> certain(List<String> frames) {
        List<String> out = new ArrayList<>();
        for (String f : frames) {
            out.add(f.startsWith(GUESSED) ? f.substring(GUESSED.length()) : f);
            if (f.startsWith(GUESSED)) {
                break;
            }
        }
        return out;
    }

    /** All of perfparser's frames, guessed ones included, without the marks. */
    static List<String> allFrames(List<String> frames) {
        return frames.stream().map(f -> f.startsWith(GUESSED) ? f.substring(GUESSED.length()) : f).toList();
    }

    /** Objects bpf-dwarf's chains run through that the committed cache lacks (no samples of their own). */
    static final List<String> NOT_ARCHIVED = List.of("date", "perf");

    /**
     * Every sample's user stack is perfparser's, except where perfparser is wrong or guesses:
     * <ul>
     * <li>a forked child sampled before it mapped anything of its own (in execve): perfparser
     *     gives a new process an empty address space, so it has no frame at all; the child runs
     *     its parent's mappings until the exec, and perfj (like perf) keeps them, so its one
     *     frame is the sampled address in the parent's libc (its execve);</li>
     * <li>a chain that reaches an object the cache lacks (date, perf): perfj ends at that
     *     object's frame, where no call frame information is available; libdw goes on by frame
     *     pointers (its x86-64 fallback) and guesses more frames: one is a stack address (a
     *     garbage return address), the other plausible but not checked by anything.</li>
     * </ul>
     */
    @Test
    void correctModeStacksAgreeWithPerfparser() throws Exception {
        Path recording = Fixtures.recording("bpf-dwarf");
        Map<String, List<String>> golden = parse(Files.readString(
                Fixtures.dir().resolve("golden").resolve(GOLDEN), StandardCharsets.UTF_8));
        Map<String, List<String>> mine = stacks(recording, cacheOnly(BuildIdCacheFixture.dir()), null).perfj();
        assertEquals(golden.keySet(), mine.keySet(), "the same samples");
        int identical = 0;
        int emptyAddressSpace = 0;
        int guessed = 0;
        int alsoGuessed = 0;
        for (var e : golden.entrySet()) {
            List<String> theirs = certain(e.getValue());
            List<String> m = mine.get(e.getKey());
            if (theirs.equals(m)) {
                identical++;
            } else if (allFrames(e.getValue()).equals(m)) {
                alsoGuessed++;
            } else if (theirs.isEmpty() && m.size() == 1 && m.getFirst().startsWith("libc.so.6+")) {
                emptyAddressSpace++;
            } else if (m.size() < theirs.size() && theirs.subList(0, m.size()).equals(m) && !m.isEmpty()
                    && NOT_ARCHIVED.contains(m.getLast().substring(0, m.getLast().indexOf('+')))) {
                guessed++;
            } else {
                throw new AssertionError("sample " + e.getKey() + " differs:\n  perfparser: " + theirs
                        + "\n  perfj:      " + m);
            }
        }
        assertEquals(275, golden.size());
        assertEquals(5, emptyAddressSpace, "samples of children before their own mappings");
        assertEquals(2, guessed, "chains perfparser continued by frame pointers");
        assertEquals(268, identical, "identical stacks");
        assertEquals(0, alsoGuessed, "stacks that go on as far as perfparser guessed");
        // the stacks compared are deep enough to mean something
        assertTrue(golden.values().stream().mapToInt(List::size).sum() > 1500);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
