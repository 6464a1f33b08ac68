package io.perfj.symbols;

/** Placeholder: replaced by the Itanium/Rust demangler. */
public final class Demangler {
    private Demangler() {
    }

    public static String demangle(String name) {
        return name;
    }
}
