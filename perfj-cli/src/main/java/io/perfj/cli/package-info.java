/**
 * The {@code perfj} command line: {@code Main} (the error policy and exit statuses; only the
 * subcommand named first is built), one class per command ({@code ReportCommand},
 * {@code ScriptCommand}, ...), each with its picocli model built in code by {@code CommandModel}
 * (no annotations, no reflection at start-up), and the option groups the commands share
 * ({@code InputOptions}, {@code SymbolCliOptions}, which turns the symbol options and
 * {@code --compat} into {@code SessionOptions}, {@code FilterCliOptions}, {@code ProfileCliOptions}).
 * {@code AotTraining} makes the launcher's start-up caches. Commands of other modules (perfj-fleet's
 * {@code fleet}) are {@link io.perfj.cli.Subcommand}s found with {@link java.util.ServiceLoader},
 * built with the public {@code CommandModel} and option groups.
 *
 * <p>Depends on every perfj-core package a command prints from, and on {@code io.perfj.serve}.
 * Used by the {@code ./perfj} launcher and perfj-fleet.
 */
package io.perfj.cli;
