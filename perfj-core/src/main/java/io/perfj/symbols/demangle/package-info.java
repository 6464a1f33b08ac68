/**
 * Symbol demanglers as perf prints their output: C++ Itanium ({@code CxxDemangler}, with or
 * without parameter lists), Rust legacy ({@code RustDemangler}) and v0 ({@code RustV0Demangler},
 * rustc-demangle's forms with punycode).
 *
 * <p>Depends on nothing of perfj. Used by {@code symbols.Demangler} (which also decodes OCaml
 * names), through which the rest of perfj demangles. Internal: not exported.
 */
package io.perfj.symbols.demangle;
