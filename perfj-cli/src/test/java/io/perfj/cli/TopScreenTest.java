package io.perfj.cli;

import io.perfj.record.Recorder;
import io.perfj.report.SortKey;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import io.perfj.top.LiveProfile;
import io.perfj.top.TopView;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code perfj top}'s full-screen view end to end: keys typed into a jline terminal over
 * streams (an xterm as jline knows it, 100x30) while {@code hot-20k} is replayed through a
 * {@link LiveProfile}, the screen's bytes read back; and, under tmux, the real command on a
 * pseudo-terminal profiling {@code bin/hot} live (skipped without tmux or perf_event_open).
 */
class TopScreenTest {
    private static final long WAIT_MS = 20_000;

    private static void waitFor(VtScreen screen, Predicate<String> p, String what) throws InterruptedException {
        long until = System.currentTimeMillis() + WAIT_MS;
        while (System.currentTimeMillis() < until) {
            if (p.test(screen.text())) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no " + what + " on the screen:\n" + screen.text());
    }

    @Test
    void keysDriveTheViewOverAReplayedRecording() throws Exception {
        PipedOutputStream keys = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(keys);
        VtScreen out = new VtScreen(30, 100);
        try (Terminal t = terminal(in, out); Session s = Session.open(Fixtures.recording("hot-20k"), OPTIONS);
             LiveProfile p = new LiveProfile(s).start()) {
            TopView view = new TopView(List.of(SortKey.DSO, SortKey.SYM));
            List<Throwable> failed = new ArrayList<>();
            Thread screen = start(new TopScreen(t, p, view, () -> "cpu-clock", 100, TopCommand.pages(p)), failed);
            p.awaitEnd();
            LiveProfile.Snapshot end = p.snapshot(view.keys());
            waitFor(out, x -> x.contains("PerfTop: " + end.samples() + " samples"), "every sample");
            String all = out.text();
            // the rows are the stdio snapshot's, under report's column titles
            List<String> rows = TopView.rowLines(end, end.rows(), view.keys(), true);
            assertTrue(all.contains(rows.get(0) + "\n" + rows.get(1) + "\n" + rows.get(2) + "\n"), all);
            assertTrue(rows.get(1).endsWith("[.] compute_a"), rows.toString());
            assertTrue(all.contains("event: cpu-clock"), all);
            // the alternate screen and raw keypad mode were entered
            assertTrue(out.written().contains("\u001b[?1049h"), "alternate screen");
            type(keys, "d");
            waitFor(out, x -> x.contains("object: hot"), "zoom into hot");
            type(keys, "d");
            waitFor(out, x -> x.contains("[k] ") || x.contains("libc"), "the unzoomed rows again");
            type(keys, "s");
            waitFor(out, x -> x.contains("ordered by dso"), "the next order");
            type(keys, "\u001b[B\u001b[6~\u001b[H");
            type(keys, "h");
            waitFor(out, x -> x.contains("zoom into the selected row's object"), "help");
            type(keys, "\u001b");
            Thread.sleep(200);
            type(keys, "t");
            waitFor(out, x -> x.contains("Command"), "the command column");
            type(keys, "t");
            waitFor(out, x -> x.contains("command: hot"), "zoom into the command");
            // back to the overhead order, the hottest row selected
            type(keys, "sss\u001b[H");
            waitFor(out, x -> x.contains("ordered by overhead"), "the overhead order");
            // a (perf top's annotate key): the selected row's annotation, perfj annotate --stdio's lines
            type(keys, "a");
            waitFor(out, x -> x.contains("annotate [.] compute_a"), "the annotate page");
            List<String> page = TopView.expandTabs(io.perfj.top.LiveAnnotate.page(p, view.selected()));
            assertTrue(page.getFirst().contains("Source code & Disassembly of hot for cpu-clock"), page.toString());
            waitFor(out, x -> x.contains(cut(page.get(0)) + "\n" + cut(page.get(1)) + "\n"), "the annotation's lines");
            waitFor(out, x -> x.contains("(q, ESC: back; 1-" + Math.min(26, page.size()) + " of " + page.size() + ")"),
                    "the page's extent");
            assertTrue(out.text().contains(cut(page.get(Math.min(26, page.size()) - 1)) + "\n"), out.text());
            type(keys, "q");
            waitFor(out, x -> x.contains("Overhead"), "the list again");
            type(keys, "\r");
            waitFor(out, x -> x.contains("annotate [.] compute_a"), "Enter annotates");
            // the page follows the live sums: after a reset, no samples in it
            p.reset();
            waitFor(out, x -> x.contains("no samples in compute_a yet"), "the refreshed page");
            type(keys, "\u001b");
            waitFor(out, x -> x.contains("Overhead"), "ESC: the list again");
            type(keys, "z");
            waitFor(out, x -> x.contains("PerfTop: 0 samples"), "counts reset");
            type(keys, "q");
            screen.join(WAIT_MS);
            assertTrue(!screen.isAlive(), "q quits");
            assertEquals(List.of(), failed);
            assertTrue(out.written().endsWith("\u001b[?1049l")
                    || out.written().contains("\u001b[?1049l"), "the screen is restored");
        }
    }

    /**
     * top -g's view over a replayed recording with callchains: report's entries with the Children
     * column, ordered by it, and {@code e} on the selected row shows the callchain tree report
     * prints under that entry.
     */
    @Test
    void withCallchainsTheRowsHaveChildrenAndExpandShowsTheTree() throws Exception {
        PipedOutputStream keys = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(keys);
        VtScreen out = new VtScreen(30, 100);
        java.util.function.Function<List<SortKey>, io.perfj.report.ReportOptions> children =
                k -> new io.perfj.report.ReportOptions(k, false, true, io.perfj.report.CallchainMode.GRAPH, true, 0.5, 0,
                        127, null, null, null, null, null, null);
        List<SortKey> k = List.of(SortKey.DSO, SortKey.SYM);
        try (Terminal t = terminal(in, out); Session s = Session.open(Fixtures.recording("c-fp"), OPTIONS);
             LiveProfile p = new LiveProfile(s, true).start()) {
            TopView view = new TopView(k);
            List<Throwable> failed = new ArrayList<>();
            Thread screen = start(new TopScreen(t, p, view, () -> "cpu-clock", 100, TopCommand.pages(p), children), failed);
            p.awaitEnd();
            LiveProfile.Entries end = p.entries(children.apply(k), null, null, "cpu-clock");
            waitFor(out, x -> x.contains("PerfTop: " + end.snapshot().samples() + " samples"), "every sample");
            waitFor(out, x -> x.contains("  Children      Self  Shared Object"), "the Children column");
            // the first row is the hottest by children: a caller of everything, with no self time
            String first = out.text().lines().skip(TopView.HEADER_LINES).findFirst().orElseThrow();
            assertTrue(first.matches(" +(9[0-9]|100)\\.[0-9]{2}% +0\\.00%  \\S+ +\\[\\.\\] \\S+"), out.text());
            LiveProfile.Row selected = view.selected();
            List<String> tree = end.callchains(end.snapshot().rows().stream()
                    .filter(r -> r.symbol().equals(selected.symbol())).findFirst().orElseThrow());
            assertTrue(tree.size() >= 2, tree.toString());
            type(keys, "e");
            waitFor(out, x -> x.contains("callchains of " + selected.symbol()), "the callchain page");
            String page = out.text();
            for (String line : tree.subList(0, Math.min(tree.size(), 20))) {
                String shown = line.length() > 99 ? line.substring(0, 99) : line;
                assertTrue(page.contains(shown.stripTrailing()), "'" + shown + "' in\n" + page);
            }
            type(keys, "q");
            waitFor(out, x -> x.contains("Children      Self"), "the list again");
            type(keys, "q");
            screen.join(WAIT_MS);
            assertTrue(!screen.isAlive(), "q quits");
            assertEquals(List.of(), failed);
        }
    }

    private static final SessionOptions OPTIONS = SessionOptions.of(SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Path.of("/nonexistent-perfj-maps")).noSystemFiles().build());

    /** jline's terminal over streams: an xterm of 100x30 reading {@code in}, writing to {@code out}. */
    private static Terminal terminal(PipedInputStream in, VtScreen out) throws IOException {
        return TerminalBuilder.builder().system(false).streams(in, out).type("xterm").size(new Size(100, 30)).build();
    }

    /** Runs the screen on a thread of its own; what it throws goes to {@code failed}. */
    private static Thread start(TopScreen screen, List<Throwable> failed) {
        Thread t = new Thread(() -> {
            try {
                screen.run();
            } catch (IOException | RuntimeException e) {
                failed.add(e);
            }
        });
        t.start();
        return t;
    }

    /** A page line as the 100-column screen shows it (the last column left free). */
    private static String cut(String line) {
        return (line.length() > 99 ? line.substring(0, 99) : line).stripTrailing();
    }

    private static void type(PipedOutputStream keys, String s) throws IOException {
        keys.write(s.getBytes(StandardCharsets.UTF_8));
        keys.flush();
    }

    /** tmux on its own socket: the test's server only. */
    private static String tmux(String socket, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return s;
    }

    private static boolean onPath(String exe) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, exe))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void liveUnderTmuxShowsHotsLoopsAndQuitsOnQ() throws Exception {
        Assumptions.assumeTrue(Recorder.supported(), "perf_event_open is called on Linux x86-64/aarch64 only");
        Assumptions.assumeTrue(onPath("tmux"), "tmux is not installed");
        Process hot = new ProcessBuilder(Fixtures.file("bin/hot").toString(), "20")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String socket = "perfj-top-test-" + ProcessHandle.current().pid();
        try {
            String java = ProcessHandle.current().info().command().orElse("java");
            String cmd = String.join(" ", List.of(quote(java), "--enable-native-access=ALL-UNNAMED", "-cp",
                    quote(System.getProperty("java.class.path")), "io.perfj.cli.Main", "top", "-p",
                    Long.toString(hot.pid()), "-e", "cpu-clock", "-F", "999", "-d", "0.5"));
            tmux(socket, "new-session", "-d", "-s", "top", "-x", "110", "-y", "30",
                    "sh -c '" + cmd.replace("'", "'\\''") + "; echo perfj-exit=$?; sleep 60'");
            String pane = pane(socket, WAIT_MS, "PerfTop: ", "perfj-exit=");
            Assumptions.assumeFalse(pane.contains("perf_event_paranoid"),
                    "perf_event_open is not permitted here: " + pane.strip());
            // samples show within seconds of the first frame: the rings are drained every 100 ms,
            // not only at their watermark (half of 512 KiB: over 10 s of one process at 999 Hz)
            pane = pane(socket, 7_000, "leaf_mix", "perfj-exit=");
            assertTrue(pane.contains("PerfTop: ") && pane.contains("[.] compute_a") && pane.contains("[.] leaf_mix"), pane);
            assertTrue(pane.contains("event: cpu-clock"), pane);
            tmux(socket, "send-keys", "-t", "top", "d");
            pane = pane(socket, "object: hot");
            assertTrue(pane.contains("object: hot"), pane);
            // the hottest row of hot annotated from the live sums, its code read from the binary
            tmux(socket, "send-keys", "-t", "top", "a");
            pane = pane(socket, "Source code & Disassembly of hot");
            assertTrue(pane.contains("Source code & Disassembly of hot for cpu-clock") && pane.contains("annotate [.] "),
                    pane);
            tmux(socket, "send-keys", "-t", "top", "q");
            pane = pane(socket, "Overhead");
            assertTrue(pane.contains("Overhead"), pane);
            tmux(socket, "send-keys", "-t", "top", "q");
            pane = pane(socket, "perfj-exit=");
            assertTrue(pane.contains("perfj-exit=0"), pane);
        } finally {
            tmux(socket, "kill-server");
            hot.destroy();
            hot.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** The pane once it shows one of {@code texts}, or after the wait. */
    private static String pane(String socket, String... texts) throws Exception {
        return pane(socket, WAIT_MS, texts);
    }

    /** The pane once it shows one of {@code texts}, or after {@code waitMs}. */
    private static String pane(String socket, long waitMs, String... texts) throws Exception {
        long until = System.currentTimeMillis() + waitMs;
        String pane;
        do {
            pane = tmux(socket, "capture-pane", "-p", "-t", "top");
            for (String t : texts) {
                if (pane.contains(t)) {
                    return pane;
                }
            }
            Thread.sleep(100);
        } while (System.currentTimeMillis() < until);
        return pane;
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
