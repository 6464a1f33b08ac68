package io.perfj.session;

import io.perfj.symbols.Demangling;
import io.perfj.symbols.SymbolOptions;

import java.util.Objects;

/**
 * How a {@link Session} resolves what it reads: where symbols and binaries come from, and whether
 * perf 6.1's answers are reproduced where they are known to be wrong.
 *
 * @param symbols where binaries, debug files, kallsyms and perf maps are looked for
 * @param quirks  {@link Quirks#NONE} for the correct answers, perf 6.1's (from {@code io.perfj.compat})
 *                for perf's
 * @param names   how symbols are named ({@link Compat#demangling(boolean)})
 */
public record SessionOptions(SymbolOptions symbols, Quirks quirks, Demangling names) {
    public SessionOptions {
        Objects.requireNonNull(symbols, "symbols");
        Objects.requireNonNull(quirks, "quirks");
        Objects.requireNonNull(names, "names");
    }

    /** Symbols named as {@code quirks}' mode names them without {@code -v}. */
    public SessionOptions(SymbolOptions symbols, Quirks quirks) {
        this(symbols, quirks, quirks.mode().demangling());
    }

    /** This machine's files, perf's default places, correct answers. */
    public static SessionOptions defaults() {
        return new SessionOptions(SymbolOptions.defaults(), Quirks.NONE);
    }

    /** These symbol sources, correct answers. */
    public static SessionOptions of(SymbolOptions symbols) {
        return new SessionOptions(symbols, Quirks.NONE);
    }

    /** The compatibility mode of {@link #quirks}. */
    public Compat compat() {
        return quirks.mode();
    }

    /** The same sources with other quirks (their mode's names). */
    public SessionOptions withQuirks(Quirks q) {
        return new SessionOptions(symbols, q);
    }

    /** The same with symbols named as {@code n} says. */
    public SessionOptions withNames(Demangling n) {
        return new SessionOptions(symbols, quirks, n);
    }
}
