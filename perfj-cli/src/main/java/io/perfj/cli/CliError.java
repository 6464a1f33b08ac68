package io.perfj.cli;

/** A request the recording cannot satisfy: printed as one line, exit status 1. */
public final class CliError extends RuntimeException {
    public CliError(String message) {
        super(message);
    }
}
