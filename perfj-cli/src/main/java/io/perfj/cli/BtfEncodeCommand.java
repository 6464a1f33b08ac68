package io.perfj.cli;

import io.perfj.btf.encode.BtfEncoder;
import io.perfj.btf.encode.ElfBtfSection;
import io.perfj.btf.encode.EncodeOptions;
import io.perfj.btf.encode.SplitBase;
import io.perfj.elf.ElfFile;
import io.perfj.io.FormatException;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * {@code perfj btf encode ELF... -o OUT [--base BTF] [--vars none|percpu|all] [--into-elf] [-j N]}:
 * BTF from the ELF file's DWARF, like {@code pahole -J} (1.24) does; with {@code --base}, split
 * BTF on that base, like {@code pahole --btf_base}. Several files (or directories, for the
 * {@code .ko} files under them) are encoded at once, each on one thread, into the directory OUT,
 * one file per module named as the kernel names the module ({@code /sys/kernel/btf/NAME}).
 */
public final class BtfEncodeCommand implements Callable<Integer> {
    List<Path> elves = List.of();
    Path output;
    Path base;
    String vars;
    boolean intoElf;
    Integer jobs;
    boolean debug;
    final CommandLine.Model.CommandSpec spec;

    BtfEncodeCommand() {
        CommandModel m = CommandModel.command(this, "encode", "Encode BTF from an ELF file's DWARF, like 'pahole -J'.",
                "Writes raw BTF to OUT, or with --into-elf a copy of ELF with a .BTF section (ELF itself is "
                        + "never changed). With several ELF files, or a directory (its .ko files, at any depth), "
                        + "OUT is a directory and each module's BTF goes to OUT/NAME, NAME being the module's "
                        + "name as in /sys/kernel/btf/ (the file name without .ko or .o, '-' as '_'); with "
                        + "--into-elf, to OUT/FILE-NAME. They are encoded in parallel, the largest first.");
        m.positional("0..*", "ELF").arity("1..*")
                .describe("ELF files with DWARF (.debug_info), or directories of kernel modules.")
                .list(Path.class, v -> elves = v);
        m.option("-o", "--output").required().label("OUT").describe("Where to write (a directory for several files).")
                .value(Path.class, v -> output = v);
        m.option("-B", "--base").label("BTF")
                .describe("Encode split BTF on this base, e.g. vmlinux's BTF for a module (raw BTF, or an ELF "
                        + "file's BTF section), like pahole --btf_base: types the base has are not repeated, ids "
                        + "and string offsets continue after the base's.")
                .value(Path.class, v -> base = v);
        m.option("--vars").label("none|percpu|all").defaultValue("percpu")
                .describe("Variables to encode: none; percpu (default, as pahole -J: per-CPU variables in a "
                        + ".data..percpu DATASEC); all (every global variable with a static address, one DATASEC "
                        + "per ELF section, as pahole 1.28's global_var).")
                .value(String.class, v -> vars = v);
        m.option("--into-elf").describe("Write a copy of ELF with the BTF as its .BTF section.").flag(v -> intoElf = v);
        m.option("-j", "--jobs").label("N")
                .describe("Threads (default: the number of CPUs): compile units of one file, or files at once; "
                        + "the output is the same for every N.")
                .value(Integer.class, v -> jobs = v);
        m.option("--debug").describe("Print stack traces for errors.").flag(v -> debug = v);
        spec = m.spec();
    }

    /** One file to encode and where its BTF goes. */
    record Job(Path elf, Path out) {
    }

    @Override
    public Integer call() throws Exception {
        EncodeOptions.Vars mode = switch (vars) {
            case "none" -> EncodeOptions.Vars.NONE;
            case "percpu" -> EncodeOptions.Vars.PERCPU;
            case "all" -> EncodeOptions.Vars.ALL;
            default -> throw new CommandLine.ParameterException(spec.commandLine(),
                    "--vars must be none, percpu or all, not '" + vars + "'");
        };
        int n = jobs == null ? Runtime.getRuntime().availableProcessors() : jobs;
        if (n < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-j must be at least 1");
        }
        List<Job> todo = jobs();
        PrintWriter err = spec.commandLine().getErr();
        if (todo.size() == 1) {
            // the base is read on its own thread while the module's DWARF is loaded
            SplitBase splitBase = base == null ? null : SplitBase.deferred(base);
            List<String> skipped = encode(todo.get(0), new EncodeOptions(mode, n), splitBase);
            warn(err, skipped);
            io.perfj.btf.encode.BtfEncoder.mark("written");
            return 0;
        }
        // read once, before any module: a bad base is one error, not one per module
        SplitBase splitBase = base == null ? null : SplitBase.load(base);
        return encodeAll(todo, new EncodeOptions(mode, 1), splitBase, n, err);
    }

    /** The files to encode and their outputs: OUT itself for one file, else names in the directory OUT. */
    private List<Job> jobs() throws IOException {
        List<Path> files = new ArrayList<>();
        boolean tree = false;
        for (Path p : elves) {
            if (Files.isDirectory(p)) {
                tree = true;
                try (Stream<Path> s = Files.walk(p)) {
                    s.filter(f -> f.getFileName().toString().endsWith(".ko") && Files.isRegularFile(f)).sorted()
                            .forEach(files::add);
                }
            } else {
                files.add(p);
            }
        }
        if (files.isEmpty()) {
            throw new CliError(elves.get(0) + ": no .ko files in this directory");
        }
        if (files.size() == 1 && !tree && !Files.isDirectory(output)) {
            return List.of(new Job(files.get(0), output));
        }
        Files.createDirectories(output);
        Map<String, Path> byName = new HashMap<>();
        List<Job> out = new ArrayList<>();
        for (Path f : files) {
            String name = intoElf ? f.getFileName().toString() : moduleName(f);
            Path other = byName.putIfAbsent(name, f);
            if (other != null) {
                throw new CliError(f + " and " + other + " would both be written to " + output.resolve(name));
            }
            out.add(new Job(f, output.resolve(name)));
        }
        return out;
    }

    /** The kernel's name for a module file ({@code KBUILD_MODNAME}): no {@code .ko}/{@code .o}, '-' as '_'. */
    static String moduleName(Path file) {
        String n = file.getFileName().toString();
        if (n.endsWith(".ko")) {
            n = n.substring(0, n.length() - 3);
        } else if (n.endsWith(".o")) {
            n = n.substring(0, n.length() - 2);
        }
        return n.replace('-', '_');
    }

    /** Encodes one file and writes its output; returns the DWARF skipped, with the file named. */
    private List<String> encode(Job job, EncodeOptions options, SplitBase splitBase) throws IOException {
        List<String> skipped = new ArrayList<>();
        try (ElfFile file = ElfFile.open(job.elf())) {
            byte[] btf = BtfEncoder.encode(file, options, skipped::add, splitBase);
            if (intoElf) {
                ElfBtfSection.write(file, job.elf(), btf, job.out());
            } else {
                Files.write(job.out(), btf);
            }
        }
        return skipped;
    }

    private static void warn(PrintWriter err, List<String> skipped) {
        for (int i = 0; i < skipped.size() && i < 20; i++) {
            err.println("perfj: warning: " + skipped.get(i));
        }
        if (skipped.size() > 20) {
            err.println("perfj: warning: ... and " + (skipped.size() - 20) + " more DWARF entries skipped");
        }
        err.flush();
    }

    /**
     * Encodes every file, {@code threads} at once, the largest first (so that a big module does not
     * start last); warnings and errors are printed in the order of the files. A file that fails is
     * reported on one line and the others are still encoded; the exit status is then non-zero.
     */
    private int encodeAll(List<Job> todo, EncodeOptions options, SplitBase splitBase, int threads, PrintWriter err)
            throws InterruptedException {
        List<Integer> order = new ArrayList<>();
        long[] size = new long[todo.size()];
        for (int i = 0; i < todo.size(); i++) {
            order.add(i);
            try {
                size[i] = Files.size(todo.get(i).elf());
            } catch (IOException e) {
                size[i] = 0; // reported when it is opened
            }
        }
        order.sort((a, b) -> size[a] != size[b] ? Long.compare(size[b], size[a]) : Integer.compare(a, b));
        ExecutorService ex = Executors.newFixedThreadPool(Math.min(threads, todo.size()), r -> {
            Thread t = new Thread(r, "btf-module");
            t.setDaemon(true);
            return t;
        });
        List<Future<List<String>>> results = new ArrayList<>(java.util.Collections.nCopies(todo.size(), null));
        for (int i : order) {
            Job job = todo.get(i);
            results.set(i, ex.submit(() -> encode(job, options, splitBase)));
        }
        ex.shutdown();
        int rc = 0;
        for (int i = 0; i < todo.size(); i++) {
            try {
                warn(err, results.get(i).get());
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (debug) {
                    cause.printStackTrace(err);
                }
                String what = Main.describe(cause);
                String file = todo.get(i).elf().toString();
                err.println("perfj: " + (what.contains(file) ? what : file + ": " + what));
                err.flush();
                rc = Math.max(rc, cause instanceof FormatException ? 2 : 1);
            }
        }
        return rc;
    }
}
