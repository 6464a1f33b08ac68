package io.perfj.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code perfj btf}: BTF tools in bpftool's and pahole's manner; one class per subcommand. */
@Command(name = "btf", mixinStandardHelpOptions = true,
        description = "Inspect BTF (BPF Type Format) like bpftool btf and pahole.",
        subcommands = {BtfDumpCommand.class, BtfEncodeCommand.class, BtfLayoutCommand.class})
public final class BtfCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
