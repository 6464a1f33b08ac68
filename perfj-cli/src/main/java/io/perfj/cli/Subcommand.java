package io.perfj.cli;

import picocli.CommandLine.Model.CommandSpec;

/**
 * A subcommand that lives outside perfj-cli (perfj-fleet's {@code fleet}), found with
 * {@link java.util.ServiceLoader} when the command line names it or lists every command. Its
 * jar on the class path (or its module on the module path) is all it takes.
 */
public interface Subcommand {
    /** The word that runs it ({@code perfj NAME ...}). */
    String name();

    /** Its picocli model, made when it is run or listed. */
    CommandSpec spec();
}
