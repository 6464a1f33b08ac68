package io.perfj.session;

import io.perfj.symbols.SymbolOptions;

import java.util.Objects;

/**
 * How a {@link Session} resolves what it reads: where symbols and binaries come from, and whether
 * perf 6.1's answers are reproduced where they are known to be wrong.
 *
 * @param symbols where binaries, debug files, kallsyms and perf maps are looked for
 * @param compat  {@link Compat#NONE} for the correct answers, {@link Compat#PERF_6_1} for perf's
 */
public record SessionOptions(SymbolOptions symbols, Compat compat) {
    public SessionOptions {
        Objects.requireNonNull(symbols, "symbols");
        Objects.requireNonNull(compat, "compat");
    }

    /** This machine's files, perf's default places, correct answers. */
    public static SessionOptions defaults() {
        return new SessionOptions(SymbolOptions.defaults(), Compat.NONE);
    }

    /** These symbol sources, correct answers. */
    public static SessionOptions of(SymbolOptions symbols) {
        return new SessionOptions(symbols, Compat.NONE);
    }

    /** The same sources with another compatibility mode. */
    public SessionOptions withCompat(Compat c) {
        return new SessionOptions(symbols, c);
    }
}
