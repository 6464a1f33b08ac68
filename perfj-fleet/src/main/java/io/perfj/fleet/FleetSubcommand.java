package io.perfj.fleet;

import io.perfj.cli.Subcommand;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code perfj fleet}, found by perfj's command line through {@link java.util.ServiceLoader}
 * (META-INF/services/io.perfj.cli.Subcommand) when perfj-fleet's jar is on its path: only the
 * launcher's {@code perfj fleet} puts it (and Spark) there.
 */
public final class FleetSubcommand implements Subcommand {
    @Override
    public String name() {
        return "fleet";
    }

    @Override
    public CommandSpec spec() {
        return new FleetCommand().spec;
    }
}
