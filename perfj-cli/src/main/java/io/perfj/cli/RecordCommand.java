package io.perfj.cli;

import io.perfj.record.EventSpec;
import io.perfj.record.RecordOptions;
import io.perfj.record.Recorder;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code perfj record}: what {@code perf record} does, through perf_event_open(2). */
public final class RecordCommand implements Callable<Integer> {
    boolean all;
    int pid = -1;
    Long frequency;
    Long count;
    String events;
    boolean g;
    String callGraph;
    Integer pages;
    String clockid;
    boolean debug;
    Path output = Path.of("perf.data");
    List<String> command = List.of();
    final CommandSpec spec;

    RecordCommand() {
        CommandModel m = CommandModel.command(this, "record",
                "Record a profile into a perf.data file like 'perf record', through perf_event_open(2).",
                "The file is read by perfj's commands and by perf.");
        m.option("-a", "--all-cpus").describe("Record every CPU and every task (needs root or CAP_PERFMON).")
                .flag(v -> all = v);
        m.option("-p", "--pid").label("PID").describe("Record the threads of an existing process.")
                .value(Integer.class, v -> pid = v);
        m.option("-F", "--freq").label("HZ").describe("Sample this many times a second (default 4000).")
                .value(Long.class, v -> frequency = v);
        m.option("-c", "--count").label("N").describe("Sample every N events instead of at a frequency.")
                .value(Long.class, v -> count = v);
        m.option("-e", "--event").label("EVENT[,EVENT...]")
                .describe("Events to sample: cpu-clock, task-clock, page-faults, context-switches, cycles, "
                        + "instructions, ... with :u, :k or :p modifiers (default cycles, cpu-clock without a PMU).")
                .value(String.class, v -> events = events == null ? v : events + "," + v);
        m.option("-g").describe("Record call chains by frame pointers (--call-graph fp).").flag(v -> g = v);
        m.option("--call-graph").label("fp|dwarf[,SIZE]")
                .describe("Record call chains by frame pointers or as register and stack copies (SIZE bytes, default 8192).")
                .value(String.class, v -> callGraph = v);
        m.option("-m", "--mmap-pages").label("PAGES").describe("Data pages of each CPU's ring buffer (a power of two; by default 8 MiB per CPU for root where"
                        + " the kernel permits the locked memory, less on many CPUs, else perf's 128).")
                .value(Integer.class, v -> pages = v);
        m.option("-k", "--clockid").label("CLOCK")
                .describe("Time samples by this clock (monotonic, monotonic_raw, realtime, boottime, tai or a number),"
                        + " recorded with its reference time in the CLOCKID and CLOCK_DATA features.")
                .value(String.class, v -> clockid = v);
        m.option("--debug").describe("Also print where the recording's time went (each phase's wall and CPU time).")
                .flag(v -> debug = v);
        m.option("-o", "--output").label("FILE").describe("The file to write (default perf.data); - writes perf's pipe mode to standard output.")
                .value(Path.class, v -> output = v);
        m.positional(null, "CMD").arity("0..*").describe("The command to run and record, with its arguments.")
                .list(String.class, v -> command = v);
        spec = m.spec();
        spec.parser().stopAtPositional(true);
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        RecordOptions o = options();
        if (!Recorder.supported()) {
            throw new CliError("record needs Linux on x86-64 or aarch64 (perf_event_open)");
        }
        Recorder r = new Recorder(o, new Main.Version().getVersion()[0].replaceFirst(" \\(.*", ""));
        if (debug) {
            r.timePhases();
        }
        // Ctrl-C, kill, a closed terminal: the recording stops and its file is finished
        try (StopSignals signals = StopSignals.install(sig -> r.requestStop())) {
            boolean pipe = o.output().toString().equals("-");
            // -o -: perf's pipe mode on standard output (the stream's end is the process's)
            Recorder.Summary s = pipe ? r.stream(unclosed(Main.stdout(spec))) : r.record();
            for (String w : r.warnings()) {
                err.println("Warning: " + w);
            }
            if (debug) {
                for (String p : r.phases()) {
                    err.println("perfj record: " + p);
                }
            }
            err.println("[ perfj record: Woken up " + s.wakeups() + " times to write data ]");
            if (s.lost() > 0) {
                err.println("Warning: " + s.lost() + " events were lost (LOST records in the file); try a larger -m or a lower -F");
            }
            err.printf(Locale.ROOT, "[ perfj record: Captured and wrote %.3f MB %s (%d samples) ]%n",
                    (pipe ? s.bytes() : Files.size(o.output())) / 1048576.0, pipe ? "(pipe)" : o.output(), s.samples());
            err.flush();
            // stopped by a signal: the status a death by it gives, as perf ends by raising it again
            if (signals.received() != 0) {
                return 128 + signals.received();
            }
        }
        return 0;
    }

    /** {@code out}, which a close only flushes. */
    private static java.io.OutputStream unclosed(java.io.OutputStream out) {
        return new java.io.FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws java.io.IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws java.io.IOException {
                out.flush();
            }
        };
    }

    RecordOptions options() {
        if (frequency != null && count != null) {
            throw new CliError("-F and -c are exclusive: sample at a frequency or every N events");
        }
        if (frequency != null && frequency <= 0 || count != null && count <= 0) {
            throw new CliError("-F and -c need a positive number");
        }
        RecordOptions.CallGraph cg = g ? RecordOptions.CallGraph.FP : RecordOptions.CallGraph.NONE;
        int stack = RecordOptions.DEFAULT_STACK;
        if (callGraph != null) {
            String[] parts = callGraph.split(",", 2);
            switch (parts[0]) {
                case "fp" -> cg = RecordOptions.CallGraph.FP;
                case "dwarf" -> cg = RecordOptions.CallGraph.DWARF;
                case "no", "none" -> cg = RecordOptions.CallGraph.NONE;
                default -> throw new CliError("--call-graph " + callGraph + ": the modes are fp and dwarf[,SIZE]");
            }
            if (parts.length > 1) {
                try {
                    stack = Integer.parseInt(parts[1]);
                } catch (NumberFormatException e) {
                    throw new CliError("--call-graph " + callGraph + ": SIZE is a number of bytes");
                }
                stack = (stack + 7) & ~7;
            }
        }
        List<EventSpec> ev;
        try {
            ev = events == null ? List.of() : EventSpec.parseList(events);
        } catch (IllegalArgumentException e) {
            throw new CliError(e.getMessage());
        }
        List<String> cmdline = new ArrayList<>();
        cmdline.add("perfj");
        cmdline.add("record");
        cmdline.addAll(spec.commandLine().getParseResult() == null ? List.of()
                : spec.commandLine().getParseResult().originalArgs().subList(1, spec.commandLine().getParseResult().originalArgs().size()));
        try {
            int clock = clockid == null ? -1 : RecordOptions.parseClockid(clockid);
            return new RecordOptions(ev, all, pid, count != null ? 0 : frequency != null ? frequency : RecordOptions.DEFAULT_FREQUENCY,
                    count != null ? count : 0, cg, stack, pages != null ? pages : RecordOptions.AUTO_PAGES, output,
                    command, cmdline, clock);
        } catch (IllegalArgumentException e) {
            throw new CliError(e.getMessage());
        }
    }
}
