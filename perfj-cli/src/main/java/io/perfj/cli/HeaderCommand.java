package io.perfj.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code perfj header}: what {@code perf report --header-only} prints. */
@Command(name = "header", mixinStandardHelpOptions = true,
        description = "Print the recording's header and features like 'perf report --header-only'.")
public final class HeaderCommand implements Callable<Integer> {
    @Mixin
    InputOptions in;

    @Option(names = {"-I", "--show-info"}, description = "Also print the detailed header information (CPU/NUMA topology, PMU capabilities, ...).")
    boolean showInfo;

    @Override
    public Integer call() {
        throw new UnsupportedOperationException("header: not written yet");
    }
}
