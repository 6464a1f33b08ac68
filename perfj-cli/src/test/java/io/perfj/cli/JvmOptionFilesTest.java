package io.perfj.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checked-in JVM option files the launcher passes as {@code java @argfiles}: one per command,
 * each accepted by the JVM, none capping the heap, each with training lines that run.
 */
class JvmOptionFilesTest {
    /** The option files a command line can pick (as ./perfj names them), besides common. */
    static List<String> expected() {
        List<String> names = new ArrayList<>(List.of("default", "btf-dump-c"));
        for (String c : Main.SUBCOMMANDS.keySet()) {
            if (!c.equals("btf")) {
                names.add(c);
            }
        }
        new BtfCommand().spec.subcommands().keySet().forEach(s -> names.add("btf-" + s));
        return names;
    }

    static List<Path> commandFiles() throws IOException {
        try (Stream<Path> s = Files.list(ChildJvm.optionDir())) {
            return s.filter(p -> p.toString().endsWith(".options") && !p.getFileName().toString().equals("common.options"))
                    .sorted().toList();
        }
    }

    @Test
    void everyCommandHasItsFile() {
        for (String name : expected()) {
            assertTrue(Files.isRegularFile(ChildJvm.optionDir().resolve(name + ".options")), "no " + name + ".options");
        }
        assertTrue(Files.isRegularFile(ChildJvm.optionDir().resolve("common.options")));
    }

    @Test
    void noFileCapsTheHeap() throws IOException {
        try (Stream<Path> s = Files.list(ChildJvm.optionDir())) {
            for (Path f : s.filter(p -> p.toString().endsWith(".options")).toList()) {
                for (String line : Files.readAllLines(f)) {
                    String opts = line.replaceFirst("#.*", "");
                    for (String o : opts.trim().split("\\s+")) {
                        assertFalse(o.startsWith("-Xmx") || o.startsWith("-XX:MaxHeapSize") || o.startsWith("-XX:MaxRAM"),
                                f + ": " + o + " (memory bounds are tests, e.g. StreamingMemoryBoundTest)");
                    }
                }
            }
        }
    }

    /**
     * The commands that read every sample of a recording into a young generation of 192 MB back
     * the heap with transparent huge pages: first touches of 4 KB heap pages were a good part of
     * their CPU time.
     */
    @Test
    void readingCommandsBackTheHeapWithHugePages() throws IOException {
        for (String name : List.of("report", "script")) {
            List<String> opts = new ArrayList<>();
            for (String line : Files.readAllLines(ChildJvm.optionDir().resolve(name + ".options"))) {
                String o = line.replaceFirst("#.*", "").trim();
                if (!o.isEmpty()) {
                    opts.addAll(List.of(o.split("\\s+")));
                }
            }
            assertTrue(opts.contains("-XX:+UseTransparentHugePages"), name + ".options: " + opts);
        }
    }

    /**
     * The JVM's own messages never land in a command's output: unified logging writes them on
     * standard output by default (huge pages off in the kernel, an AOT cache that cannot be
     * mapped), common.options sends them to standard error.
     */
    @Test
    void jvmWarningsGoToStandardError(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path missing = tmp.resolve("no-such.aot");
        ChildJvm.Result r = ChildJvm.run("report", List.of("-XX:AOTCache=" + missing), true, "-version");
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.out(), "the JVM wrote on standard output");
        assertTrue(r.err().contains("[aot]"), r.err());
    }

    @Test
    void theJvmAcceptsEveryFile() throws Exception {
        for (Path f : commandFiles()) {
            String name = f.getFileName().toString().replace(".options", "");
            // "-version" in the main class's place: the JVM starts with the options, prints, exits
            ChildJvm.Result r = ChildJvm.run(name, List.of(), true, "-version");
            assertEquals(0, r.rc(), f + ": " + r.err());
        }
    }

    @Test
    void everyTrainingLineRuns() throws IOException {
        Path root = ChildJvm.root();
        for (Path f : commandFiles()) {
            List<String[]> runs = AotTraining.commandLines(f);
            assertFalse(runs.isEmpty(), f + " has no '" + AotTraining.TRAIN + "' line");
            for (String[] run : runs) {
                // training runs from the repository root; this JVM's working directory is the module's
                String[] args = run.clone();
                for (int i = 0; i < args.length; i++) {
                    // inputs, and outputs in a directory of the repository (record -o)
                    if (!args[i].startsWith("-") && (Files.exists(root.resolve(args[i]))
                            || args[i].contains("/") && Files.isDirectory(root.resolve(args[i]).getParent()))) {
                        args[i] = root.resolve(args[i]).toString();
                    }
                }
                java.io.StringWriter err = new java.io.StringWriter();
                int rc = AotTraining.run(args, root, java.io.OutputStream.nullOutputStream(), new java.io.PrintWriter(err));
                assertEquals(0, rc, f + ": " + String.join(" ", run) + "\n" + err);
            }
        }
    }
}
