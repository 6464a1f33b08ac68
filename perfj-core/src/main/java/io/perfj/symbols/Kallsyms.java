package io.perfj.symbols;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
        // Columns, not objects: this runs over 100k+ lines before the JIT has compiled much, at
        // the start of every report, script and annotate that meets a kernel sample, and only a
        // few hundred of the names are ever looked up. A name is the bytes [nameAt, nameEnd);
        // module symbols ("name\t[module]") have their module's index, kernel ones -1.
        int cap = Math.max(16, data.length / 32);
        long[] addr = new long[cap];
        char[] binding = new char[cap];
        int[] nameAt = new int[cap];
        int[] nameEnd = new int[cap];
        int[] module = new int[cap];
        boolean[] bracket = new boolean[cap];
        List<String> moduleNames = new ArrayList<>();
        int lastModAt = -1;
        int lastModLen = 0;
        int lastModId = -1;
        int n = 0;
        long stext = 0;
        long text = 0;
        long etext = 0;
        int bad = 0;
        int firstBad = -1;
        int lineNo = 0;
        int pos = 0;
        while (pos < data.length) {
            int eol = pos;
            while (eol < data.length && data[eol] != '\n') {
                eol++;
            }
            lineNo++;
            int p = pos;
            long a = 0;
            while (p < eol) {
                int d = hexDigit(data[p]);
                if (d < 0) {
                    break;
                }
                a = (a << 4) | d;
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
                if (n == addr.length) {
                    int grown = n + (n >> 1);
                    addr = Arrays.copyOf(addr, grown);
                    binding = Arrays.copyOf(binding, grown);
                    nameAt = Arrays.copyOf(nameAt, grown);
                    nameEnd = Arrays.copyOf(nameEnd, grown);
                    module = Arrays.copyOf(module, grown);
                    bracket = Arrays.copyOf(bracket, grown);
                }
                int tab = -1;
                boolean br = false;
                for (int q = nameStart; q < eol; q++) {
                    byte c = data[q];
                    if (c == '\t' && tab < 0) {
                        tab = q;
                    } else if (c == '[') {
                        br = true;
                    }
                }
                addr[n] = a;
                binding[n] = type == 'W' ? 'W' : Character.isUpperCase(type) ? 'G' : 'L';
                nameAt[n] = nameStart;
                nameEnd[n] = tab < 0 ? eol : tab;
                bracket[n] = br;
                if (tab < 0) {
                    module[n] = -1;
                } else {
                    int ms = tab + 1;
                    int len = eol - ms;
                    // a module's lines come together: its name is made once per run of them
                    if (lastModAt < 0 || len != lastModLen
                            || !Arrays.equals(data, ms, eol, data, lastModAt, lastModAt + lastModLen)) {
                        String mod = new String(data, ms, len, StandardCharsets.UTF_8).trim();
                        int id = moduleNames.indexOf(mod);
                        if (id < 0) {
                            id = moduleNames.size();
                            moduleNames.add(mod);
                        }
                        lastModAt = ms;
                        lastModLen = len;
                        lastModId = id;
                    }
                    module[n] = lastModId;
                }
                if (data[nameStart] == '_' && tab < 0) {
                    if (is(data, nameStart, eol, "_stext")) {
                        stext = a;
                    } else if (is(data, nameStart, eol, "_text")) {
                        text = a;
                    } else if (is(data, nameStart, eol, "_etext")) {
                        etext = a;
                    }
                }
                n++;
            }
            pos = eol + 1;
        }
        // perf's clean-ups, with names (whole lines' names, module suffix included, as perf
        // compares them) made only to break ties
        long[] end = Arrays.copyOf(addr, n);
        final int[] from = nameAt;
        int[] kept = SymbolFixups.apply(addr, end, binding, n, bracket, i -> lineName(data, from[i]));
        int m = kept.length;
        // split off the modules, each keeping the address order
        int tables = moduleNames.size() + 1;
        int[] count = new int[tables];
        for (int k = 0; k < m; k++) {
            count[module[kept[k]] + 1]++;
        }
        int[][] members = new int[tables][];
        for (int t = 0; t < tables; t++) {
            members[t] = new int[count[t]];
        }
        int[] fill = new int[tables];
        int[] firstSeen = new int[tables];
        Arrays.fill(firstSeen, Integer.MAX_VALUE);
        for (int k = 0; k < m; k++) {
            int t = module[kept[k]] + 1;
            if (fill[t] == 0) {
                firstSeen[t] = k;
            }
            members[t][fill[t]++] = kept[k];
        }
        final long[] starts = addr;
        final char[] bindings = binding;
        final int[] at = nameAt;
        final int[] to = nameEnd;
        SymbolTable kernel = table(data, members[0], starts, end, bindings, at, to);
        // modules in the order of their first symbol by address, as the symbol list gave them
        Integer[] mods = new Integer[tables - 1];
        for (int t = 1; t < tables; t++) {
            mods[t - 1] = t;
        }
        Arrays.sort(mods, (x, y) -> Integer.compare(firstSeen[x], firstSeen[y]));
        Map<String, SymbolTable> modules = new LinkedHashMap<>();
        for (int t : mods) {
            if (count[t] > 0) {
                modules.put(moduleNames.get(t - 1), table(data, members[t], starts, end, bindings, at, to));
            }
        }
        String warning = bad == 0 ? null
                : name + ": skipped " + bad + " malformed line" + (bad == 1 ? "" : "s") + " (first: line " + firstBad + ")";
        return new Kallsyms(kernel, Collections.unmodifiableMap(modules),
                stext != 0 ? stext : text, etext, bad, warning);
    }

    /** One table over the lines at {@code members}, named from the file's bytes on demand. */
    private static SymbolTable table(byte[] data, int[] members, long[] addr, long[] end, char[] binding,
                                     int[] nameAt, int[] nameEnd) {
        int c = members.length;
        long[] s = new long[c];
        long[] e = new long[c];
        char[] b = new char[c];
        int[] from = new int[c];
        int[] to = new int[c];
        for (int k = 0; k < c; k++) {
            int i = members[k];
            s[k] = addr[i];
            e[k] = end[i];
            b[k] = binding[i];
            from[k] = nameAt[i];
            to[k] = nameEnd[i];
        }
        return SymbolTable.ofNamed(s, e, b, false, k -> new String(data, from[k], to[k] - from[k], StandardCharsets.UTF_8));
    }

    /** The name from {@code at} to the end of its line. */
    private static String lineName(byte[] data, int at) {
        int eol = at;
        while (eol < data.length && data[eol] != '\n') {
            eol++;
        }
        return new String(data, at, eol - at, StandardCharsets.UTF_8);
    }

    private static boolean is(byte[] data, int from, int eol, String word) {
        int len = word.length();
        if (eol - from != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (data[from + i] != word.charAt(i)) {
                return false;
            }
        }
        return true;
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
