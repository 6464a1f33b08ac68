package io.perfj.report;

import io.perfj.annotate.SourceLocator;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Location;
import io.perfj.symbols.Symbol;
import io.perfj.util.LongIntMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The values of the srcline and srcfile sort keys: the source position of an address as perf
 * prints it, looked up once per distinct address of an object.
 *
 * <p>{@code file:line} of the object's line table row at the address, the file without its
 * directories (for inlined code the row's file is the inlined function's). An address the
 * object's line table does not cover is {@code ??:0} (its srcfile {@code ??}) inside a function
 * of the ELF symbol table that has a size; outside one, or without a line table (no debug info,
 * no file), it is the symbol and the offset into it, {@code name+123}
 * (decimal), or without a symbol the object's short name and the address,
 * {@code libc.so.6[166f00]}; an address in no object is {@code ??:0}. The srcfile value is the
 * file of a line found, empty otherwise.
 *
 * <p>Values are numbered by their text (the srcline's when it is a key, else the srcfile's), so
 * samples of equal texts share a row. A sample's values (its own address's and, for
 * --children, each callchain address's) and its trace text id make one number ({@link #key})
 * that separates rows.
 */
public final class SourceLines {
    /** One value: the srcline and the srcfile texts. */
    public record Text(String line, String file) {
    }

    /** The value of an address in no object (perf has no map to look in). */
    private static final Text NO_OBJECT = new Text("??:0", "");

    private final SourceLocator locator;
    private final boolean byLine;
    /** The value of an address its object's line table does not cover. */
    private final Text noRow;
    /** The value of a callchain address where it is not the address's own (perf 6.1), else null. */
    private final Function<Location, Text> chainValue;
    /** The value of an address in an object without a line table where it is not the fallback (perf 6.1), else null. */
    private final Function<Dso, Text> noTableValue;
    private final Map<Dso, LongIntMap> byAddress = new IdentityHashMap<>();
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<Text> texts = new ArrayList<>();
    /** {@link #key}'s values: the trace id, then the value numbers of the sample and its callchain. */
    private final Map<IntsKey, Integer> keys = new HashMap<>();
    private final List<int[]> byKey = new ArrayList<>();

    /** An int array compared by its contents. */
    private record IntsKey(int[] ints) {
        @Override
        public boolean equals(Object o) {
            return o instanceof IntsKey k && Arrays.equals(ints, k.ints);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ints);
        }
    }

    /**
     * @param byLine     whether srcline is a sort key (texts are then told apart by the line),
     *                   else only srcfile is
     * @param noRowFile  the srcfile text of an address the line table does not cover: {@code ??},
     *                   or perf 6.1's ({@link io.perfj.compat.PerfSrclines#NO_ROW_FILE})
     * @param chainValue the value of a callchain address where it is not its own, null where it
     *                   is ({@link io.perfj.compat.PerfSrclines#chainValue}); null for perfj's
     * @param noTableValue the value of an address in an object that has no line table, where it
     *                   is not the symbol and offset ({@link io.perfj.compat.PerfSrclines#noTableValue}:
     *                   perf 6.1's JIT code); null for perfj's
     */
    public SourceLines(SourceLocator locator, boolean byLine, String noRowFile, Function<Location, Text> chainValue,
                       Function<Dso, Text> noTableValue) {
        this.locator = locator;
        this.byLine = byLine;
        this.noRow = new Text("??:0", noRowFile);
        this.chainValue = chainValue;
        this.noTableValue = noTableValue;
    }

    /** The value number of an address. */
    public int id(Location loc) {
        Dso dso = loc.dso();
        if (dso == null) {
            return intern(NO_OBJECT);
        }
        LongIntMap m = byAddress.computeIfAbsent(dso, d -> new LongIntMap(64));
        int id = m.get(loc.mapIp());
        if (id < 0) {
            id = intern(value(dso, loc.symbol(), loc.mapIp()));
            m.put(loc.mapIp(), id);
        }
        return id;
    }

    /**
     * The value at {@code mapIp} in {@code dso} (not cached), its fallback without a line table
     * naming {@code sym} (null: the object and the address, as perf script prints it).
     */
    public Text value(Dso dso, Symbol sym, long mapIp) {
        SourceLocator.Place p = locator.at(dso, mapIp);
        Text noTable = p == null && noTableValue != null ? noTableValue.apply(dso) : null;
        if (noTable != null) {
            return noTable;
        }
        return p == SourceLocator.NO_ROW && locator.inSizedFunction(dso, mapIp) ? noRow
                : p != null && p != SourceLocator.NO_ROW ? found(p)
                : fallback(dso, sym, sym != null ? mapIp : locator.objdumpAddress(dso, mapIp));
    }

    /**
     * The source line perf prints after a callchain frame's symbol with {@code -g address} or
     * {@code -g srcline}: that of its level of an inline chain ({@link Location#srcline}), else
     * the line table's {@code file:line}, {@code ??:0} where it has no row
     * in a function ({@link SourceLocator#inSizedFunction}); elsewhere the offset into the symbol
     * ({@code +81}) when {@code offsets}, else (or without a symbol) {@code ??:0}.
     */
    public static String chainLine(SourceLocator locator, Location loc, boolean offsets) {
        if (loc.srcline() != null) {
            return loc.srcline();
        }
        SourceLocator.Place p = locator.at(loc.dso(), loc.mapIp());
        if (p != null && p != SourceLocator.NO_ROW) {
            return p.srcline();
        }
        Symbol sym = loc.symbol();
        boolean found = p == SourceLocator.NO_ROW && locator.inSizedFunction(loc.dso(), loc.mapIp());
        return !found && offsets && sym != null ? "+" + Long.toUnsignedString(loc.mapIp() - sym.start()) : "??:0";
    }

    /** The value number of a callchain address (its entry's with --children). */
    public int chainId(Location loc) {
        Text t = chainValue == null ? null : chainValue.apply(loc);
        return t == null ? id(loc) : intern(t);
    }

    /**
     * The value number of a level of an inline chain in a callchain, its line as addr2line names
     * it ({@link Location#srcline}: the call site for the outer levels), as perf 7.2 gives the
     * entries of those levels; -1 where a callchain address's value is not its own
     * ({@link #chainValue}: perf 6.1's).
     */
    public int levelId(String srcline) {
        if (chainValue != null) {
            return -1;
        }
        int colon = srcline.lastIndexOf(':');
        return intern(new Text(srcline, colon < 0 ? srcline : srcline.substring(0, colon)));
    }

    /** The texts of a line found: the file without its directories. */
    static Text found(SourceLocator.Place p) {
        String line = p.srcline();
        return new Text(line, line.substring(0, line.lastIndexOf(':')));
    }

    /**
     * perf's texts for an address of an object without a line table: the symbol and the offset
     * into it (decimal), or the object's short name and the address (hex; objdump's, in
     * {@link #value}); no file.
     */
    public static Text fallback(Dso dso, Symbol sym, long addr) {
        if (sym != null) {
            return new Text(sym.name() + "+" + Long.toUnsignedString(addr - sym.start()), "");
        }
        return new Text(dso.shortName() + "[" + Long.toHexString(addr) + "]", "");
    }

    private int intern(Text t) {
        return ids.computeIfAbsent(byLine ? t.line() : t.file(), k -> {
            texts.add(t);
            return texts.size() - 1;
        });
    }

    /**
     * One number for a trace text id (-1 when none), the value number of the sample's own
     * address and those of the first {@code n} callchain addresses ({@code chain}, in the
     * order of the chain's frames).
     */
    int key(int trace, int self, int[] chain, int n) {
        int[] k = new int[n + 2];
        k[0] = trace;
        k[1] = self;
        System.arraycopy(chain, 0, k, 2, n);
        return keys.computeIfAbsent(new IntsKey(k), x -> {
            byKey.add(k);
            return byKey.size() - 1;
        });
    }

    /** The trace text id of a {@link #key}. */
    int trace(int key) {
        return byKey.get(key)[0];
    }

    /** The value number of a {@link #key}'s own address ({@code at} -1) or of its callchain frame {@code at}. */
    int id(int key, int at) {
        return byKey.get(key)[at + 2];
    }

    /** The value numbered {@code id}. */
    Text text(int id) {
        return texts.get(id);
    }
}
