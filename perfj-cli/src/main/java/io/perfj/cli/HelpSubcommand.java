package io.perfj.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code perfj help [COMMAND]}: the usage of perfj or of one of its commands. It says what
 * picocli's own {@code HelpCommand} says, but its model is built without reading that class's
 * annotations (a dynamic proxy class per annotation type, generated at every start).
 */
final class HelpSubcommand implements CommandLine.IHelpCommandInitializable2, Callable<Integer> {
    private CommandLine self;
    private CommandLine.Help.ColorScheme colors;
    private PrintWriter out;
    private String command;
    final CommandSpec spec;

    HelpSubcommand() {
        spec = CommandSpec.wrapWithoutInspection(this);
        spec.name("help");
        spec.helpCommand(true);
        spec.usageMessage().header("Display help information about the specified command.")
                .synopsisHeading("%nUsage: ")
                .description("%nWhen no COMMAND is given, the usage help for the main command is displayed.",
                        "If a COMMAND is specified, the help for that command is shown.%n");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).descriptionKey("helpCommand.help")
                .description("Show usage help for the help command and exit.").build());
        CommandModel.Binding<String> to = new CommandModel.Binding<>(v -> command = v);
        spec.addPositional(PositionalParamSpec.builder().paramLabel("COMMAND").arity("0..1")
                .descriptionKey("helpCommand.command").description("The COMMAND to display the usage help message for.")
                .type(String.class).getter(to).setter(to).build());
    }

    @Override
    public void init(CommandLine helpCommandLine, CommandLine.Help.ColorScheme colorScheme, PrintWriter out,
                     PrintWriter err) {
        this.self = helpCommandLine;
        this.colors = colorScheme;
        this.out = out;
    }

    @Override
    public Integer call() {
        CommandLine parent = self == null ? null : self.getParent();
        if (parent == null) {
            return CommandLine.ExitCode.OK;
        }
        CommandLine shown = parent;
        if (command != null) {
            shown = parent.getSubcommands().get(command);
            if (shown == null) {
                throw new CommandLine.ParameterException(parent, "Unknown subcommand '" + command + "'.", null, command);
            }
        }
        shown.usage(out, colors);
        return shown.getCommandSpec().exitCodeOnUsageHelp();
    }
}
