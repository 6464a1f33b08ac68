package io.perfj.symbols;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The symbol-file parsers the {@link DsoFinder} needs. Each method reads one file; a file that
 * cannot be parsed throws (an {@link IOException} or a {@link RuntimeException} such as
 * {@code io.perfj.io.FormatException}) and becomes one warning for its DSO.
 */
public interface SymbolLoader {
    /**
     * Symbols of an ELF file (executable, shared object, separate debug file, kernel module),
     * addressed the way {@link Symbol} documents: for user objects the addresses a sample's
     * {@code map_ip} gives (perf adjusts each symbol by its section's {@code sh_addr -
     * sh_offset}); {@code .symtab} when present, {@code .dynsym} otherwise.
     */
    SymbolTable loadElf(Path file, Dso dso) throws IOException;

    /** Whether the ELF file has a {@code .symtab} (perf prefers such a file over one with only .dynsym). */
    boolean hasSymtab(Path file) throws IOException;

    /** The GNU build-id note of an ELF file, or null when it has none. */
    byte[] elfBuildId(Path file) throws IOException;

    /** Kernel symbols from a kallsyms file (kernel proper only: lines with a [module] tag are left out). */
    SymbolTable loadKallsyms(Path file) throws IOException;

    /**
     * A kernel module's symbols from a kallsyms file (its lines tagged {@code [module]}), for a
     * module whose .ko file is not available; {@code module} is the bracketed name, e.g.
     * {@code [xfs]}. Empty when the file has none.
     */
    default SymbolTable loadKallsymsModule(Path file, String module) throws IOException {
        return SymbolTable.EMPTY;
    }

    /**
     * What identifies the table {@link #loadElf loadElf(file, dso)} gives, for sharing it between
     * the sessions of this JVM ({@link SharedSymbolTables}): every input of the load and how this
     * loader reads them; null (the default) when the load is not to be shared.
     */
    default String elfKey(Path file, Dso dso) {
        return null;
    }

    /**
     * What identifies the tables {@link #loadKallsyms} and {@link #loadKallsymsModule} read from
     * {@code file}, for sharing them ({@link SharedSymbolTables}); null (the default): not shared.
     */
    default String kallsymsKey(Path file) {
        return null;
    }

    /**
     * How the tables {@link #loadElf} gives name user objects' symbols, which names the functions
     * inlined into them too ({@link InlineFrames}); perf 7.2's by default.
     */
    default Demangling demangling() {
        return Demangling.CURRENT;
    }

    /** A JIT perf map ({@code /tmp/perf-PID.map}: "START SIZE NAME" lines, hex). */
    SymbolTable loadPerfMap(Path file) throws IOException;
}
