package io.perfj.symbols;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code /proc/kallsyms} copy read as perf 6.1 reads it ({@code kallsyms__parse},
 * {@code map__process_kallsym_symbol}, {@code dso__load_kallsyms}): lines
 * {@code ADDR TYPE NAME[\t[MODULE]]}; perf keeps types T, W, D and B in either case
 * ({@code symbol_type__filter}) and drops names starting with '$'; every symbol starts zero-sized
 * and gets its end from {@link SymbolFixups} with the kernel/module boundary rule (a symbol
 * before the switch from kernel to module symbols, or back, ends at the next page boundary past
 * its start); same-address duplicates are reduced as in ELF files. Module symbols are then split
 * off by their {@code [MODULE]} suffix. Addresses stay absolute.
 *
 * @param kernel    the kernel's own symbols
 * @param modules   module name (with brackets, e.g. {@code [bpf]}) to its symbols, in file order
 * @param textStart address of {@code _stext} (else {@code _text}), or 0
 * @param textEnd   address of {@code _etext}, or 0
 * @param badLines  lines that could not be parsed (skipped)
 * @param warning   one message about skipped lines, or null
 */
public record Kallsyms(SymbolTable kernel, Map<String, SymbolTable> modules, long textStart, long textEnd,
                       int badLines, String warning) {

    public static Kallsyms read(Path file) {
        return parse(TextFiles.read(file), file.toString());
    }

    /** perf's {@code symbol_type__filter}. */
    public static boolean keepsType(char type) {
        char t = Character.toUpperCase(type);
        return t == 'T' || t == 'W' || t == 'D' || t == 'B';
    }

    public static Kallsyms parse(byte[] data, String name) {
        List<Symbol> all = new ArrayList<>();
        long stext = 0;
        long text = 0;
        long etext = 0;
        int bad = 0;
        int firstBad = -1;
        int lineNo = 0;
        int pos = 0;
        // Plain byte arithmetic, and a String only for the lines kept: this runs over 100k+
        // lines before the JIT has compiled anything, at every start of report, script, dump.
        while (pos < data.length) {
            int eol = pos;
            while (eol < data.length && data[eol] != '\n') {
                eol++;
            }
            lineNo++;
            int p = pos;
            long addr = 0;
            while (p < eol) {
                int d = hexDigit(data[p]);
                if (d < 0) {
                    break;
                }
                addr = (addr << 4) | d;
                p++;
            }
            int digits = p - pos;
            if (digits == 0 || digits > 16 || p + 2 >= eol || data[p] != ' ' || data[p + 2] != ' ') {
                if (eol > pos) {
                    bad++;
                    if (firstBad < 0) {
                        firstBad = lineNo;
                    }
                }
                pos = eol + 1;
                continue;
            }
            char type = (char) (data[p + 1] & 0xff);
            int nameStart = p + 3;
            if (keepsType(type) && nameStart < eol && data[nameStart] != '$') {
                String sym = new String(data, nameStart, eol - nameStart, StandardCharsets.UTF_8);
                char binding = type == 'W' ? 'W' : Character.isUpperCase(type) ? 'G' : 'L';
                all.add(new Symbol(addr, addr, sym, binding));
                if (data[nameStart] == '_') {
                    switch (sym) {
                        case "_stext" -> stext = addr;
                        case "_text" -> text = addr;
                        case "_etext" -> etext = addr;
                        default -> {
                        }
                    }
                }
            }
            pos = eol + 1;
        }
        List<Symbol> fixed = SymbolFixups.apply(all, true);
        List<Symbol> kernel = new ArrayList<>();
        Map<String, List<Symbol>> mods = new LinkedHashMap<>();
        for (Symbol s : fixed) {
            int tab = s.name().indexOf('\t');
            if (tab < 0) {
                kernel.add(s);
                continue;
            }
            String mod = s.name().substring(tab + 1).trim();
            String base = s.name().substring(0, tab);
            mods.computeIfAbsent(mod, k -> new ArrayList<>()).add(new Symbol(s.start(), s.end(), base, s.binding()));
        }
        Map<String, SymbolTable> modules = new LinkedHashMap<>();
        mods.forEach((k, v) -> modules.put(k, SymbolTable.ofSorted(v)));
        String warning = bad == 0 ? null
                : name + ": skipped " + bad + " malformed line" + (bad == 1 ? "" : "s") + " (first: line " + firstBad + ")";
        return new Kallsyms(SymbolTable.ofSorted(kernel), Collections.unmodifiableMap(modules),
                stext != 0 ? stext : text, etext, bad, warning);
    }

    private static int hexDigit(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    /** Module names, e.g. {@code [bpf]}. */
    public List<String> moduleNames() {
        return List.copyOf(modules.keySet());
    }
}
