package io.perfj.cli;

import picocli.CommandLine.Model.CommandSpec;

/** {@code perfj btf}: BTF tools in bpftool's and pahole's manner; one class per subcommand. */
public final class BtfCommand implements Runnable {
    final CommandSpec spec;

    /** With every subcommand (for help and listings). */
    BtfCommand() {
        this(null);
    }

    /**
     * With only subcommand {@code only} when it names one (as {@link Main} adds only the command
     * being run: each model costs milliseconds of a short run), else with every one.
     */
    BtfCommand(String only) {
        CommandModel m = CommandModel.command(this, "btf", "Inspect BTF (BPF Type Format) like bpftool btf and pahole.");
        spec = m.spec();
        boolean one = "dump".equals(only) || "encode".equals(only) || "layout".equals(only);
        if (!one || only.equals("dump")) {
            spec.addSubcommand("dump", new BtfDumpCommand().spec);
        }
        if (!one || only.equals("encode")) {
            spec.addSubcommand("encode", new BtfEncodeCommand().spec);
        }
        if (!one || only.equals("layout")) {
            spec.addSubcommand("layout", new BtfLayoutCommand().spec);
        }
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
