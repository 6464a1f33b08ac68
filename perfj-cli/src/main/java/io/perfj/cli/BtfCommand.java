package io.perfj.cli;

import picocli.CommandLine.Model.CommandSpec;

/** {@code perfj btf}: BTF tools in bpftool's and pahole's manner; one class per subcommand. */
public final class BtfCommand implements Runnable {
    final CommandSpec spec;

    BtfCommand() {
        CommandModel m = CommandModel.command(this, "btf", "Inspect BTF (BPF Type Format) like bpftool btf and pahole.");
        spec = m.spec();
        spec.addSubcommand("dump", new BtfDumpCommand().spec);
        spec.addSubcommand("encode", new BtfEncodeCommand().spec);
        spec.addSubcommand("layout", new BtfLayoutCommand().spec);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
