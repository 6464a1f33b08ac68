package io.perfj.session;

import io.perfj.symbols.Demangling;
import io.perfj.symbols.SymbolOptions;

import java.util.Objects;

/**
 * How a {@link Session} resolves what it reads: where symbols and binaries come from, and whether
 * perf 6.1's answers are reproduced where they are known to be wrong.
 *
 * @param symbols where binaries, debug files, kallsyms and perf maps are looked for
 * @param compat  {@link Compat#NONE} for the correct answers, {@link Compat#PERF_6_1} for perf's
 * @param names   how symbols are named ({@link Compat#demangling(boolean)})
 */
public record SessionOptions(SymbolOptions symbols, Compat compat, Demangling names) {
    public SessionOptions {
        Objects.requireNonNull(symbols, "symbols");
        Objects.requireNonNull(compat, "compat");
        Objects.requireNonNull(names, "names");
    }

    /** Symbols named as {@code compat} names them without {@code -v}. */
    public SessionOptions(SymbolOptions symbols, Compat compat) {
        this(symbols, compat, compat.demangling());
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

    /** The same with symbols named as {@code n} says. */
    public SessionOptions withNames(Demangling n) {
        return new SessionOptions(symbols, compat, n);
    }
}
