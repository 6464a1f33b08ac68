package io.perfj.cli;

import io.perfj.io.FormatException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.io.UncheckedIOException;
import java.util.Arrays;

/** The {@code perfj} command line. */
public final class Main implements Runnable {
    /**
     * The subcommands' models, in the order help lists them, before those found as
     * {@link Subcommand}s. Only the one named first on the command line is built, all of them
     * when the first word names none.
     */
    static final java.util.Map<String, java.util.function.Supplier<CommandSpec>> SUBCOMMANDS;

    static {
        java.util.LinkedHashMap<String, java.util.function.Supplier<CommandSpec>> m = new java.util.LinkedHashMap<>();
        m.put("record", () -> new RecordCommand().spec);
        m.put("top", () -> new TopCommand().spec);
        m.put("header", () -> new HeaderCommand().spec);
        m.put("dump", () -> new DumpCommand().spec);
        m.put("report", () -> new ReportCommand().spec);
        m.put("script", () -> new ScriptCommand().spec);
        m.put("annotate", () -> new AnnotateCommand().spec);
        m.put("export", () -> new ExportCommand().spec);
        m.put("flamegraph", () -> new FlamegraphCommand().spec);
        m.put("serve", () -> new ServeCommand().spec);
        m.put("bpf", () -> new BpfCommand().spec);
        m.put("btf", () -> new BtfCommand().spec);
        SUBCOMMANDS = java.util.Collections.unmodifiableMap(m);
    }

    static void addSubcommands(CommandLine cl, String[] args) {
        java.util.function.Supplier<CommandSpec> only = args.length == 0 ? null : SUBCOMMANDS.get(args[0]);
        if (only != null) {
            cl.addSubcommand(args[0], args[0].equals("btf") && args.length > 1 ? new BtfCommand(args[1]).spec : only.get());
            return;
        }
        java.util.List<Subcommand> found = new java.util.ArrayList<>();
        java.util.ServiceLoader.load(Subcommand.class).forEach(found::add);
        for (Subcommand s : found) {
            if (args.length > 0 && s.name().equals(args[0])) {
                cl.addSubcommand(s.name(), s.spec());
                return;
            }
        }
        SUBCOMMANDS.forEach((name, make) -> cl.addSubcommand(name, make.get()));
        found.forEach(s -> cl.addSubcommand(s.name(), s.spec()));
        cl.addSubcommand("help", new HelpSubcommand().spec);
    }

    private static final String CONVERTER_EXCLUDES = "picocli.converters.excludes";

    private final CommandSpec spec;

    private Main() {
        CommandModel m = CommandModel.command(this, "perfj", "Reads Linux perf.data recordings and BTF without perf.");
        spec = m.spec();
        spec.versionProvider(new Version());
    }

    /** Standard output as bytes, for commands that write large outputs without a Writer. */
    private OutputStream stdout = System.out;

    OutputStream stdout() {
        return stdout;
    }

    /** The byte output of the running command line, found from any subcommand's spec. */
    static OutputStream stdout(CommandSpec sub) {
        CommandSpec s = sub;
        while (s.parent() != null) {
            s = s.parent();
        }
        return s.userObject() instanceof Main m ? m.stdout : System.out;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        FileOutputStream fd1 = new FileOutputStream(FileDescriptor.out);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        unusedCacheNote(args, err);
        int rc = execute(args, fd1, err);
        // Success ends by returning, unless a thread would keep the JVM up: Runtime.exit looks up
        // a System.Logger to log the call, which starts the logging framework and its service
        // lookup (10-15 ms of a 0.15 s run). Shutdown hooks run either way.
        if (rc != 0 || otherThreadsAlive()) {
            System.exit(rc);
        }
    }

    /**
     * Under --debug or PERFJ_DEBUG=1, one line when the start-up cache the launcher passed
     * ({@code -XX:AOTCache} with {@code -Dperfj.aot}) is not in use: the JVM then runs without
     * it and, its messages turned off, says nothing. A JVM that maps an AOT cache reports
     * "sharing" in java.vm.info; one that cannot map it uses no class-data archive at all.
     */
    static void unusedCacheNote(String[] args, PrintWriter err) {
        String aot = System.getProperty("perfj.aot");
        if (aot != null && !System.getProperty("java.vm.info", "").contains("sharing")
                && (Arrays.asList(args).contains("--debug") || "1".equals(System.getenv("PERFJ_DEBUG")))) {
            err.println("perfj: start-up cache " + aot + " not used: the JVM could not map it (damaged, made by another"
                    + " JDK, or other JVM options); deleting it has it made again");
        }
    }

    /** Whether a non-daemon thread besides this one is alive in this thread's group. */
    private static boolean otherThreadsAlive() {
        Thread[] threads = new Thread[Thread.activeCount() + 8];
        int n = Thread.currentThread().getThreadGroup().enumerate(threads, true);
        for (int i = 0; i < n; i++) {
            if (threads[i] != Thread.currentThread() && !threads[i].isDaemon() && threads[i].isAlive()) {
                return true;
            }
        }
        return n == threads.length;
    }

    /**
     * Runs the command line writing to {@code stdout}; returns the exit code. Text and byte
     * output both end up in {@code stdout}, in order.
     */
    public static int execute(String[] args, OutputStream stdout, PrintWriter err) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), false);
        return execute(args, stdout, out, err);
    }

    private static int execute(String[] args, OutputStream stdout, PrintWriter out, PrintWriter err) {
        // picocli registers converters for java.sql and java.time types (and Path, which
        // CommandModel converts itself) through Class.forName and reflection whenever a command line
        // is made: initialising java.time's formatters alone is ~8 ms of a 0.15 s run. No option
        // has such a type.
        if (System.getProperty(CONVERTER_EXCLUDES) == null) {
            System.setProperty(CONVERTER_EXCLUDES, "java[.](sql|time|nio)[.].*");
        }
        boolean debug = Arrays.asList(args).contains("--debug");
        Main main = new Main();
        main.stdout = stdout;
        CommandLine cl = new CommandLine(main.spec);
        addSubcommands(cl, args);
        // as perf's option parser: an option given again overrides the earlier one
        cl.setOverwrittenOptionsAllowed(true);
        // as perf's getopt: an option that needs a value takes the next word whatever it looks
        // like (script -F -ip, a field taken from the defaults)
        cl.setAllowOptionsAsOptionParameters(true);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (isBrokenPipe(ex)) {
                // The reader went away (e.g. `| head`): stop quietly, as a SIGPIPE would.
                return 141;
            }
            out.flush();
            if (debug) {
                ex.printStackTrace(err);
            }
            err.println("perfj: " + describe(ex));
            err.flush();
            return ex instanceof FormatException ? 2 : 1;
        });
        int rc = cl.execute(args);
        out.flush();
        try {
            stdout.flush();
        } catch (java.io.IOException e) {
            // Nothing more can be said on a closed standard output.
        }
        err.flush();
        return rc;
    }

    static boolean isBrokenPipe(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof java.io.IOException && t.getMessage() != null && t.getMessage().contains("Broken pipe")) {
                return true;
            }
        }
        return false;
    }

    static String describe(Throwable ex) {
        if (ex instanceof FormatException || ex instanceof CliError || ex instanceof io.perfj.io.MissingLibraryException || ex instanceof io.perfj.annotate.Disassembler.MissingException
                || ex instanceof io.perfj.btf.encode.EncodeException || ex instanceof io.perfj.record.RecordException) {
            return ex.getMessage();
        }
        if (ex instanceof UncheckedIOException u) {
            return u.getCause() != null && u.getCause().getMessage() != null
                    && u.getCause().getMessage().startsWith("failed to open") ? u.getCause().getMessage() : u.getMessage();
        }
        if (ex instanceof java.nio.file.NoSuchFileException nf) {
            return nf.getFile() + ": no such file";
        }
        if (ex instanceof OutOfMemoryError) {
            return "out of memory: " + ex.getMessage();
        }
        String m = ex.getMessage();
        return ex.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"perfj " + (v == null ? "0.1.0-SNAPSHOT" : v)
                    + " (Java " + Runtime.version() + ")"};
        }
    }
}
