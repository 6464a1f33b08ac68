package io.perfj.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code perfj dump}: every record, like {@code perf report -D}; {@code --stats} like {@code perf report --stats}. */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Print every record with its offset, size, type and fields (like 'perf report -D').")
public final class DumpCommand implements Callable<Integer> {
    @Mixin
    InputOptions in;

    @Option(names = "--stats", description = "Print record counts per type, like 'perf report --stats'.")
    boolean stats;

    @Override
    public Integer call() {
        throw new UnsupportedOperationException("dump: not written yet");
    }
}
