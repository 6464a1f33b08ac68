package io.perfj.cli;

/** A request the recording cannot satisfy: printed as one line, exit status 1. */
final class CliError extends RuntimeException {
    CliError(String message) {
        super(message);
    }
}
