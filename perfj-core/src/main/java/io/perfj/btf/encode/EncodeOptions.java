package io.perfj.btf.encode;

/**
 * What to encode besides types and functions.
 *
 * @param vars    which variables become VAR/DATASEC entries
 * @param threads compile units encoded at once (the output does not depend on it)
 */
public record EncodeOptions(Vars vars, int threads) {
    /** Variable modes of {@code perfj btf encode --vars}. */
    public enum Vars {
        /** No variables. */
        NONE,
        /** Per-CPU variables in a {@code .data..percpu} DATASEC, as {@code pahole -J} (1.24) does. */
        PERCPU,
        /** Every global variable with a static address, one DATASEC per ELF section (pahole 1.28's global_var). */
        ALL
    }

    public EncodeOptions {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1");
        }
    }

    public static EncodeOptions defaults() {
        return new EncodeOptions(Vars.PERCPU, Math.max(1, Runtime.getRuntime().availableProcessors()));
    }
}
