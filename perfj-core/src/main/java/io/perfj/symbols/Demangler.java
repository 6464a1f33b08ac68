package io.perfj.symbols;

import io.perfj.symbols.demangle.CxxDemangler;
import io.perfj.symbols.demangle.RustDemangler;
import io.perfj.symbols.demangle.RustV0Demangler;

/**
 * Symbol names as perf prints them ({@code demangle_sym} in symbol-elf.c): C++ Itanium names
 * demangled with or without parameter lists ({@link Demangling} chooses, per session), legacy
 * Rust names without their hash, OCaml names with "." for "__"; anything else is returned
 * unchanged.
 */
public final class Demangler {
    private Demangler() {
    }

    /** perf 6.1's rendering without {@code -v}: C++ names without parameter lists ({@link Demangling#PERF_6_1}). */
    public static String demangle(String name) {
        String d = demangleOrNull(name, false, false);
        return d != null ? d : name;
    }

    /**
     * Demangles with libiberty's options: {@code params} prints parameter lists (DMGL_PARAMS),
     * {@code verbose} prints std::string & co. in full and keeps Rust hashes (DMGL_VERBOSE).
     * {@code c++filt -p} is params=false, verbose=true. For Rust v0 names {@code verbose} prints
     * crate hashes and integer constant types (perf never does). Returns null when not mangled.
     */
    public static String demangleOrNull(String name, boolean params, boolean verbose) {
        if (name == null || name.length() < 3) {
            return null;
        }
        char c0 = name.charAt(0);
        char c1 = name.charAt(1);
        if (c0 == 'R' || (c0 == '_' && (c1 == 'R' || (c1 == '_' && name.charAt(2) == 'R')))) {
            // perf tries Rust first and accepts v0 names with any of these prefixes
            String r = RustV0Demangler.demangle(name, verbose);
            if (r != null) {
                return r;
            }
        }
        if (c0 == '_' && c1 == 'Z') {
            // libiberty tries Rust first: legacy Rust names are also valid C++ manglings.
            String r = RustDemangler.demangleLegacy(name, verbose);
            if (r != null) {
                return r;
            }
            return CxxDemangler.demangle(name, params, verbose);
        }
        if (c0 == '_' && name.startsWith("_GLOBAL_")) {
            return CxxDemangler.demangle(name, params, verbose);
        }
        if (c0 == 'c' && name.startsWith("caml") && name.length() > 4 && Character.isUpperCase(name.charAt(4))) {
            return ocaml(name);
        }
        return null;
    }

    /** perf's ocaml_demangle_sym: drop "caml", "__" becomes ".", "$xx" is a hex-coded byte. */
    static String ocaml(String sym) {
        StringBuilder out = new StringBuilder(sym.length());
        int i = 4;
        while (i < sym.length()) {
            char c = sym.charAt(i);
            if (c == '_' && i + 1 < sym.length() && sym.charAt(i + 1) == '_') {
                out.append('.');
                i += 2;
            } else if (c == '$' && i + 2 < sym.length() && Character.digit(sym.charAt(i + 1), 16) >= 0
                    && Character.digit(sym.charAt(i + 2), 16) >= 0) {
                out.append((char) Integer.parseInt(sym.substring(i + 1, i + 3), 16));
                i += 3;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
