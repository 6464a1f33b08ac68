package io.perfj.symbols;

import io.perfj.elf.ElfFile;

import java.util.List;

/**
 * How a user object's symbols are collected and looked up: perfj's rules ({@link #PERFJ}: the
 * symbols of MiniDebugInfo, PLT entries as perf 7.2 names them, the innermost symbol with a size
 * of its own answering where symbols overlap) or another tool's (perf 6.1's, in
 * {@code io.perfj.compat}). Chosen once, when the symbol loader is made.
 */
public interface UserSymbolRules {
    /** perfj's rules. */
    UserSymbolRules PERFJ = new UserSymbolRules() {
    };

    /** Whether the symbols in {@code .gnu_debugdata} (MiniDebugInfo) are read. */
    default boolean readsMiniDebugInfo() {
        return true;
    }

    /** The PLT entries of {@code runtime}; null for perfj's ({@link PltSymbols}). */
    default List<Symbol> pltEntries(ElfFile runtime, Demangling names) {
        return null;
    }

    /**
     * The lookup table of an object's ELF symbols (in file order) and its PLT entries; null for
     * perfj's ({@link SymbolTable#ofInnermost}).
     */
    default SymbolTable table(List<Symbol> elf, List<Symbol> plt) {
        return null;
    }

    /** What tells this rule set's tables apart in the on-disk cache ("" for perfj's). */
    default String cacheKey() {
        return "";
    }
}
