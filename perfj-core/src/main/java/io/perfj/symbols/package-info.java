/**
 * The process model perf keeps while it reads a recording, and symbol tables:
 * {@link io.perfj.symbols.Machine} (threads, their maps, the kernel's maps, updated by FORK, COMM,
 * EXIT, MMAP, KSYMBOL and BPF records as perf's {@code machine__process_*} do),
 * {@link io.perfj.symbols.Dso} and {@link io.perfj.symbols.SymbolTable} (symbols from ELF objects,
 * separate debug files, build-id caches, kallsyms, perf-PID.map files and BPF programs, loaded
 * lazily), {@link io.perfj.symbols.DsoFinder} (where an object's file is found) and
 * {@link io.perfj.symbols.Location}, where an address landed. Names are demangled in perf's form
 * (C++, Rust legacy and v0, OCaml) by {@link io.perfj.symbols.Demangler}, C++ names with their
 * parameter lists or without as the session's {@link io.perfj.symbols.Demangling} says.
 */
package io.perfj.symbols;
