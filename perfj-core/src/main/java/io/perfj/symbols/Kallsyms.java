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
        return read(file, KallsymsCache.forFile(file));
    }

    /** {@link #read(Path)} through the given cache entry (null: parse). */
    static Kallsyms read(Path file, KallsymsCache cache) {
        if (cache != null && !cache.needsBytes()) {
            Kallsyms kept = cache.load(null);
            if (kept != null) {
                return kept; // the file itself is not read
            }
        }
        byte[] data = TextFiles.read(file);
        if (cache != null && cache.needsBytes()) {
            Kallsyms kept = cache.load(data);
            if (kept != null) {
                return kept;
            }
        }
        Tables t = tables(data, file.toString(), data.length > SPLIT ? data.length / 2 : 0);
        if (cache != null) {
            cache.store(data, t);
        }
        return t.kallsyms(names(data));
    }

    /** Where a table's names are: {@code [from, to)} of some bytes, as UTF-8. */
    interface Names {
        String name(int from, int to);
    }

    /** Names in a kallsyms file's bytes. */
    static Names names(byte[] data) {
        return (from, to) -> new String(data, from, to - from, StandardCharsets.UTF_8);
    }

    /** Names in a buffer (a cache entry's mapping), copied out one at a time as they are asked for. */
    static Names names(java.nio.ByteBuffer data) {
        return (from, to) -> {
            byte[] b = new byte[to - from];
            data.get(from, b);
            return new String(b, StandardCharsets.UTF_8);
        };
    }

    /**
     * What a parse of a kallsyms file makes, as columns over the names' bytes (the file's, or
     * a cache entry's): the kernel's table first (module ""), then each module's, in perf's
     * order; {@link KallsymsCache} keeps them for the next run over the same file.
     */
    record Tables(long textStart, long textEnd, int badLines, String warning, List<Table> tables) {
        Kallsyms kallsyms(Names names) {
            SymbolTable kernel = SymbolTable.EMPTY;
            Map<String, SymbolTable> modules = new LinkedHashMap<>();
            for (Table t : tables) {
                if (t.module().isEmpty()) {
                    kernel = t.symbols(names);
                } else {
                    modules.put(t.module(), t.symbols(names));
                }
            }
            return new Kallsyms(kernel, Collections.unmodifiableMap(modules), textStart, textEnd, badLines, warning);
        }
    }

    /** One table's columns: start, end, binding and where the name is ({@code [from, to)}) of each symbol. */
    record Table(String module, long[] starts, long[] ends, char[] bindings, int[] nameFrom, int[] nameTo) {
        SymbolTable symbols(Names names) {
            int[] from = nameFrom;
            int[] to = nameTo;
            return SymbolTable.ofNamed(starts, ends, bindings, false, null, k -> names.name(from[k], to[k]));
        }
    }

    /** perf's {@code symbol_type__filter}. */
    public static boolean keepsType(char type) {
        char t = Character.toUpperCase(type);
        return t == 'T' || t == 'W' || t == 'D' || t == 'B';
    }

    /** Files above this size are scanned in two halves at once. */
    private static final int SPLIT = 1 << 20;

    public static Kallsyms parse(byte[] data, String name) {
        return parse(data, name, data.length > SPLIT ? data.length / 2 : 0);
    }

    /**
     * {@link #parse(byte[], String)}, scanning the lines from the first one starting at or
     * after {@code cut} on another thread (0 or the file's length: one scan).
     */
    static Kallsyms parse(byte[] data, String name, int cut) {
        return tables(data, name, cut).kallsyms(names(data));
    }

    private static Tables tables(byte[] data, String name, int cut) {
        // Columns, not objects: this runs over 100k+ lines before the JIT has compiled much, at
        // the start of every report, script and annotate that meets a kernel sample (which
        // waits for it), and only a few hundred of the names are ever looked up. A large file
        // is scanned in two halves, the second on a thread of its own.
        Scan scan;
        if (cut > 0 && cut < data.length) {
            int mid = cut;
            while (mid < data.length && data[mid - 1] != '\n') {
                mid++;
            }
            Scan first = new Scan(data, 0, mid);
            Scan second = new Scan(data, mid, data.length);
            java.lang.Thread helper = new java.lang.Thread(second::run, "perfj-kallsyms");
            helper.setDaemon(true);
            helper.start();
            first.run();
            try {
                helper.join();
            } catch (InterruptedException e) {
                java.lang.Thread.currentThread().interrupt();
                second.run(); // not finished: do it here (a scan has no side effects)
            }
            if (second.failure != null) {
                throw second.failure;
            }
            scan = first.append(second);
        } else {
            scan = new Scan(data, 0, data.length);
            scan.run();
        }
        int n = scan.n;
        long[] addr = scan.addr;
        char[] binding = scan.binding;
        int[] nameAt = scan.nameAt;
        int[] nameEnd = scan.nameEnd;
        int[] module = scan.module;
        List<String> moduleNames = scan.moduleNames;
        int bad = scan.bad;
        int firstBad = scan.firstBad;
        long stext = scan.stext;
        long text = scan.text;
        long etext = scan.etext;
        // perf's clean-ups, with names (whole lines' names, module suffix included, as perf
        // compares them) made only to break ties
        long[] end = Arrays.copyOf(addr, n);
        final int[] from = nameAt;
        int[] kept = SymbolFixups.apply(addr, end, binding, n, scan.bracket, i -> lineName(data, from[i]));
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
        List<Table> out = new ArrayList<>();
        out.add(table("", members[0], starts, end, bindings, at, to));
        // modules in the order of their first symbol by address, as the symbol list gave them
        Integer[] mods = new Integer[tables - 1];
        for (int t = 1; t < tables; t++) {
            mods[t - 1] = t;
        }
        Arrays.sort(mods, (x, y) -> Integer.compare(firstSeen[x], firstSeen[y]));
        for (int t : mods) {
            if (count[t] > 0) {
                out.add(table(moduleNames.get(t - 1), members[t], starts, end, bindings, at, to));
            }
        }
        String warning = bad == 0 ? null
                : name + ": skipped " + bad + " malformed line" + (bad == 1 ? "" : "s") + " (first: line " + firstBad + ")";
        return new Tables(stext != 0 ? stext : text, etext, bad, warning, List.copyOf(out));
    }

    /** One table over the lines at {@code members}, named from the file's bytes on demand. */
    private static Table table(String module, int[] members, long[] addr, long[] end, char[] binding,
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
        return new Table(module, s, e, b, from, to);
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

    /**
     * The kept lines of {@code data[from, to)} as columns: a name is the bytes
     * {@code [nameAt, nameEnd)}; module symbols ("name\t[module]") have their module's index in
     * {@link #moduleNames}, kernel ones -1; {@code bracket}: the line's name holds "[".
     */
    private static final class Scan implements Runnable {
        final byte[] data;
        final int from;
        final int to;
        long[] addr;
        char[] binding;
        int[] nameAt;
        int[] nameEnd;
        int[] module;
        boolean[] bracket;
        final List<String> moduleNames = new ArrayList<>();
        int n;
        long stext;
        long text;
        long etext;
        int bad;
        /** Line number (from 1, in this range) of the first malformed line, or -1. */
        int firstBad = -1;
        int lines;
        RuntimeException failure;

        Scan(byte[] data, int from, int to) {
            this.data = data;
            this.from = from;
            this.to = to;
            int cap = Math.max(16, (to - from) / 32);
            addr = new long[cap];
            binding = new char[cap];
            nameAt = new int[cap];
            nameEnd = new int[cap];
            module = new int[cap];
            bracket = new boolean[cap];
        }

        @Override
        public void run() {
            try {
                scan();
            } catch (RuntimeException e) {
                failure = e;
            }
        }

        private void scan() {
            byte[] d = data;
            int lastModAt = -1;
            int lastModLen = 0;
            int lastModId = -1;
            int pos = from;
            while (pos < to) {
                lines++;
                int p = pos;
                long a = 0;
                int v;
                while (p < to && (v = hexDigit(d[p])) >= 0) {
                    a = (a << 4) | v;
                    p++;
                }
                int digits = p - pos;
                // "ADDR T NAME": the spaces and the type must be on this line
                if (digits == 0 || digits > 16 || p + 2 >= to || d[p] != ' ' || d[p + 1] == '\n'
                        || d[p + 2] != ' ') {
                    int eol = p;
                    while (eol < to && d[eol] != '\n') {
                        eol++;
                    }
                    if (eol > pos) {
                        bad++;
                        if (firstBad < 0) {
                            firstBad = lines;
                        }
                    }
                    pos = eol + 1;
                    continue;
                }
                char type = (char) (d[p + 1] & 0xff);
                int nameStart = p + 3;
                // one pass over the name: its end, its first tab, whether it holds '['
                int tab = -1;
                boolean br = false;
                int eol = nameStart;
                for (; eol < to; eol++) {
                    byte c = d[eol];
                    if (c == '\n') {
                        break;
                    }
                    if (c == '\t') {
                        if (tab < 0) {
                            tab = eol;
                        }
                    } else if (c == '[') {
                        br = true;
                    }
                }
                if (keepsType(type) && nameStart < eol && d[nameStart] != '$') {
                    if (n == addr.length) {
                        grow();
                    }
                    addr[n] = a;
                    binding[n] = type == 'W' ? 'W' : Character.isUpperCase(type) ? 'G' : 'L';
                    nameAt[n] = nameStart;
                    nameEnd[n] = tab < 0 ? eol : tab;
                    bracket[n] = br;
                    if (tab < 0) {
                        module[n] = -1;
                        if (d[nameStart] == '_') {
                            if (is(d, nameStart, eol, "_stext")) {
                                stext = a;
                            } else if (is(d, nameStart, eol, "_text")) {
                                text = a;
                            } else if (is(d, nameStart, eol, "_etext")) {
                                etext = a;
                            }
                        }
                    } else {
                        int ms = tab + 1;
                        int len = eol - ms;
                        // a module's lines come together: its name is made once per run of them
                        if (lastModAt < 0 || len != lastModLen
                                || !Arrays.equals(d, ms, eol, d, lastModAt, lastModAt + lastModLen)) {
                            lastModId = moduleId(new String(d, ms, len, StandardCharsets.UTF_8).trim());
                            lastModAt = ms;
                            lastModLen = len;
                        }
                        module[n] = lastModId;
                    }
                    n++;
                }
                pos = eol + 1;
            }
        }

        private int moduleId(String mod) {
            int id = moduleNames.indexOf(mod);
            if (id < 0) {
                id = moduleNames.size();
                moduleNames.add(mod);
            }
            return id;
        }

        private void grow() {
            int grown = n + (n >> 1) + 16;
            addr = Arrays.copyOf(addr, grown);
            binding = Arrays.copyOf(binding, grown);
            nameAt = Arrays.copyOf(nameAt, grown);
            nameEnd = Arrays.copyOf(nameEnd, grown);
            module = Arrays.copyOf(module, grown);
            bracket = Arrays.copyOf(bracket, grown);
        }

        /** This range followed by the next one, as one scan (its module indexes renumbered). */
        Scan append(Scan next) {
            int total = n + next.n;
            addr = Arrays.copyOf(addr, total);
            binding = Arrays.copyOf(binding, total);
            nameAt = Arrays.copyOf(nameAt, total);
            nameEnd = Arrays.copyOf(nameEnd, total);
            module = Arrays.copyOf(module, total);
            bracket = Arrays.copyOf(bracket, total);
            System.arraycopy(next.addr, 0, addr, n, next.n);
            System.arraycopy(next.binding, 0, binding, n, next.n);
            System.arraycopy(next.nameAt, 0, nameAt, n, next.n);
            System.arraycopy(next.nameEnd, 0, nameEnd, n, next.n);
            System.arraycopy(next.bracket, 0, bracket, n, next.n);
            int[] renumber = new int[next.moduleNames.size()];
            for (int i = 0; i < renumber.length; i++) {
                renumber[i] = moduleId(next.moduleNames.get(i));
            }
            for (int i = 0; i < next.n; i++) {
                int m = next.module[i];
                module[n + i] = m < 0 ? -1 : renumber[m];
            }
            n = total;
            if (next.stext != 0) {
                stext = next.stext;
            }
            if (next.text != 0) {
                text = next.text;
            }
            if (next.etext != 0) {
                etext = next.etext;
            }
            if (firstBad < 0 && next.firstBad >= 0) {
                firstBad = lines + next.firstBad;
            }
            bad += next.bad;
            lines += next.lines;
            return this;
        }
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
