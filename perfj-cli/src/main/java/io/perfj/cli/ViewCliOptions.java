package io.perfj.cli;

import java.util.Locale;

/** What a report's rows show: {@code -n}, {@code --show-total-period}, {@code -q}, {@code --percentage}. */
public final class ViewCliOptions {
    public boolean nrSamples;
    public boolean totalPeriod;
    public boolean quiet;
    String percentage;

    /** Adds these options to a command's model. */
    public void declare(CommandModel m) {
        m.option("-n", "--show-nr-samples").describe("Add a column of each entry's own number of samples.")
                .flag(v -> nrSamples = v);
        m.option("--show-total-period").describe("Add a column of each entry's own period.")
                .flag(v -> totalPeriod = v);
        m.option("-q", "--quiet").describe("Print the rows only, without the comment lines.").flag(v -> quiet = v);
        m.option("--percentage").label("relative|absolute")
                .describe("Percentages of all samples (absolute, the default) or of those the filters keep (relative).")
                .value(String.class, v -> percentage = v);
    }

    /** Whether any of them was given. */
    boolean given() {
        return nrSamples || totalPeriod || quiet || percentage != null;
    }

    /** {@code --percentage relative}; a value that is neither is a usage error. */
    public boolean relative(picocli.CommandLine.Model.CommandSpec spec) {
        if (percentage == null) {
            return false;
        }
        return switch (percentage.toLowerCase(Locale.ROOT)) {
            case "relative" -> true;
            case "absolute" -> false;
            default -> throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--percentage: '" + percentage + "' is neither relative nor absolute");
        };
    }
}
