package io.perfj.annotate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A function's annotation: the disassembler's listing as lines (instructions and text), samples
 * per instruction and the column widths perf derives from them. Built the way perf's annotate
 * builds it from objdump's output: lines naming an absolute source file and line are consumed,
 * addresses outside the function make text lines, tabs expand to 8 columns.
 */
public final class Annotation {
    private static final Pattern FILE_LINENO = Pattern.compile("^/[^:]+:([0-9]+)");

    private final String symbol;
    private final long start;
    private final long size;
    private final List<AnnotationLine> lines;
    private long symSamples;
    private long symPeriod;
    private long totalSamples;
    private long totalPeriod;
    int maxInsName;
    int addrWidth;
    int targetWidth;
    int jumpsWidth;
    private int events = 1;

    private Annotation(String symbol, long start, long size, List<AnnotationLine> lines) {
        this.symbol = symbol;
        this.start = start;
        this.size = size;
        this.lines = lines;
    }

    public String symbol() {
        return symbol;
    }

    public long start() {
        return start;
    }

    public long size() {
        return size;
    }

    public List<AnnotationLine> lines() {
        return Collections.unmodifiableList(lines);
    }

    public long symbolSamples() {
        return symSamples;
    }

    public long symbolPeriod() {
        return symPeriod;
    }

    /**
     * Reads a listing in objdump's format for the function [start, end) named {@code symbol}.
     *
     * @param skipName lines containing this name followed by ':' are skipped (objdump's "file
     *                 format" line), or null
     * @param symbolAt the name of the symbol containing an address, or null (call and jump targets)
     */
    public static Annotation fromListing(List<String> listing, String symbol, long start, long end, String skipName,
                                         LongFunction<String> symbolAt) {
        Instruction.Context ctx = new Instruction.Context(start, end, symbol, symbolAt);
        List<AnnotationLine> out = new ArrayList<>();
        int lineNr = 0;
        for (String raw : listing) {
            if (skipName != null) {
                int at = raw.indexOf(skipName);
                if (at >= 0 && at + skipName.length() < raw.length() && raw.charAt(at + skipName.length()) == ':') {
                    continue;
                }
            }
            String line = expandTabs(strim(raw));
            Matcher m = FILE_LINENO.matcher(line);
            if (m.find()) {
                lineNr = parseLeadingInt(m.group(1));
                continue;
            }
            long offset = -1;
            long[] endAt = new long[1];
            long ip = Instruction.parseHex(line, 0, endAt);
            int e = (int) endAt[0];
            String text = line;
            if (e > 0 && e + 1 < line.length() && line.charAt(e) == ':' && startsWithHexDigit(line)) {
                offset = ip - start;
                if (Long.compareUnsigned(ip, start) < 0 || Long.compareUnsigned(ip, end) >= 0) {
                    offset = -1;
                } else {
                    text = line.substring(e + 1);
                }
            }
            AnnotationLine al = new AnnotationLine(offset, text, lineNr);
            lineNr++;
            if (offset != -1) {
                Instruction.parse(al, ctx);
                if (al.name == null) {
                    continue; // perf drops an address with no instruction text
                }
                Instruction.finish(al, ctx);
            }
            out.add(al);
        }
        return new Annotation(symbol, start, end - start, out);
    }

    /** A line of text (offset -1) or an instruction at {@code offset}, for listings built in code. */
    public record Entry(long offset, String text) {
    }

    /** From lines built in code (BPF JIT images): instruction texts hold only the instruction. */
    public static Annotation fromEntries(List<Entry> entries, String symbol, long start, long end,
                                         LongFunction<String> symbolAt, boolean verbatim) {
        Instruction.Context ctx = new Instruction.Context(start, end, symbol, symbolAt);
        List<AnnotationLine> out = new ArrayList<>();
        for (Entry en : entries) {
            AnnotationLine al = new AnnotationLine(en.offset(), en.text(), 0);
            if (en.offset() >= 0 && verbatim) {
                al.name = en.text(); // not machine code: printed as it is
            } else if (en.offset() >= 0) {
                Instruction.parse(al, ctx);
                if (al.name == null) {
                    al.name = "";
                    al.raw = "";
                }
                Instruction.finish(al, ctx);
            }
            out.add(al);
        }
        return new Annotation(symbol, start, end - start, out);
    }

    /**
     * Sets one percent type to 0 on every line, in every column (perf 6.1's empty global-hits
     * column, {@code io.perfj.compat.PerfGlobalHits}).
     */
    public Annotation zeroPercent(PercentType type) {
        for (AnnotationLine al : lines) {
            al.percent[type.ordinal()] = 0;
            for (double[] m : al.memberPercent) {
                m[type.ordinal()] = 0;
            }
        }
        return this;
    }

    /**
     * Attributes samples: {@code samples[i]}/{@code periods[i]} fell at offset {@code offsets[i]}
     * into the function; {@code totalSamples}/{@code totalPeriod} are the event's totals (for the
     * global percent types). Then marks jump targets and sets the column widths.
     */
    public Annotation account(long[] offsets, long[] samples, long[] periods, long totalSamples, long totalPeriod) {
        this.totalSamples = totalSamples;
        this.totalPeriod = totalPeriod;
        symSamples = sum(samples);
        symPeriod = sum(periods);
        List<AnnotationLine> insns = instructions();
        long[][] sums = sums(insns, offsets, samples, periods);
        for (int i = 0; i < insns.size(); i++) {
            AnnotationLine al = insns.get(i);
            al.samples = sums[0][i];
            al.period = sums[1][i];
            percents(al.percent, al.samples, al.period, symSamples, totalSamples, symPeriod, totalPeriod);
        }
        markJumpTargets(insns);
        maxInsName = 0;
        for (AnnotationLine al : insns) {
            if (al.raw != null) {
                maxInsName = Math.max(maxInsName, al.name.length());
            }
        }
        int maxJumps = 0;
        for (AnnotationLine al : insns) {
            maxJumps = Math.max(maxJumps, al.jumpSources);
        }
        targetWidth = hexWidth(size);
        addrWidth = targetWidth;
        jumpsWidth = maxJumps >= 100 ? 5 : maxJumps / 10 != 0 ? 2 : 1;
        return this;
    }

    /**
     * Adds a column for another event of the group (after {@link #account}): its samples in the
     * function as {@code account} takes them, with that event's totals.
     */
    public Annotation accountMember(long[] offsets, long[] samples, long[] periods, long totalSamples,
                                    long totalPeriod) {
        long memberSamples = sum(samples);
        long memberPeriod = sum(periods);
        List<AnnotationLine> insns = instructions();
        long[][] sums = sums(insns, offsets, samples, periods);
        for (AnnotationLine al : lines) {
            int n = al.memberSamples.length;
            al.memberSamples = java.util.Arrays.copyOf(al.memberSamples, n + 1);
            al.memberPeriods = java.util.Arrays.copyOf(al.memberPeriods, n + 1);
            al.memberPercent = java.util.Arrays.copyOf(al.memberPercent, n + 1);
            al.memberPercent[n] = new double[PercentType.values().length];
        }
        for (int i = 0; i < insns.size(); i++) {
            AnnotationLine al = insns.get(i);
            int n = al.memberSamples.length - 1;
            al.memberSamples[n] = sums[0][i];
            al.memberPeriods[n] = sums[1][i];
            percents(al.memberPercent[n], sums[0][i], sums[1][i], memberSamples, totalSamples, memberPeriod,
                    totalPeriod);
        }
        events++;
        return this;
    }

    /** How many events have a column: 1, or the members of the group shown. */
    public int events() {
        return events;
    }

    private List<AnnotationLine> instructions() {
        List<AnnotationLine> insns = new ArrayList<>();
        for (AnnotationLine al : lines) {
            if (al.offset >= 0) {
                insns.add(al);
            }
        }
        return insns;
    }

    /** Samples and period of each instruction's range [offset, next instruction). */
    private long[][] sums(List<AnnotationLine> insns, long[] offsets, long[] samples, long[] periods) {
        long[][] out = new long[2][insns.size()];
        for (int i = 0; i < insns.size(); i++) {
            long from = insns.get(i).offset;
            long to = i + 1 < insns.size() ? insns.get(i + 1).offset : size;
            for (int j = 0; j < offsets.length; j++) {
                if (offsets[j] >= from && offsets[j] < to) {
                    out[0][i] += samples[j];
                    out[1][i] += periods[j];
                }
            }
        }
        return out;
    }

    private static void percents(double[] out, long hits, long period, long symSamples, long totalSamples,
                                 long symPeriod, long totalPeriod) {
        if (symSamples != 0) {
            out[PercentType.LOCAL_HITS.ordinal()] = 100.0 * hits / symSamples;
        }
        if (totalSamples != 0) {
            out[PercentType.GLOBAL_HITS.ordinal()] = 100.0 * hits / totalSamples;
        }
        if (symPeriod != 0) {
            out[PercentType.LOCAL_PERIOD.ordinal()] = 100.0 * period / symPeriod;
        }
        if (totalPeriod != 0) {
            out[PercentType.GLOBAL_PERIOD.ordinal()] = 100.0 * period / totalPeriod;
        }
    }

    private static long sum(long[] v) {
        long s = 0;
        for (long x : v) {
            s += x;
        }
        return s;
    }

    private void markJumpTargets(List<AnnotationLine> insns) {
        if (symbol.contains("@plt")) {
            return; // PLT entries jump to external offsets
        }
        // perf keeps one line per offset inside the function, the last one listed there
        java.util.HashMap<Long, AnnotationLine> at = new java.util.HashMap<>();
        for (AnnotationLine al : insns) {
            if (al.offset < size) {
                at.put(al.offset, al);
            }
        }
        for (long off = 0; off < size; off++) {
            AnnotationLine al = at.get(off);
            if (al == null || al.kind != Instruction.Kind.JUMP) {
                continue;
            }
            Instruction.Operands o = al.ops;
            if (!(o.offsetAvail && !o.outside) || o.targetOffset < 0 || o.targetOffset >= size) {
                continue;
            }
            AnnotationLine target = at.get(o.targetOffset);
            if (target != null) {
                target.jumpSources++;
            }
        }
    }

    public long totalSamples() {
        return totalSamples;
    }

    public long totalPeriod() {
        return totalPeriod;
    }

    static int hexWidth(long v) {
        int n = 1;
        while ((v >>>= 4) != 0) {
            n++;
        }
        return n;
    }

    /** perf's strim: whitespace removed from both ends. */
    static String strim(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && Instruction.isSpace(s.charAt(a))) {
            a++;
        }
        while (b > a && Instruction.isSpace(s.charAt(b - 1))) {
            b--;
        }
        return s.substring(a, b);
    }

    /** Tabs to spaces, stopping at multiples of 8 columns. */
    static String expandTabs(String s) {
        if (s.indexOf('\t') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\t') {
                sb.append(' ');
                while (sb.length() % 8 != 0) {
                    sb.append(' ');
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean startsWithHexDigit(String s) {
        int i = 0;
        while (i < s.length() && Instruction.isSpace(s.charAt(i))) {
            i++;
        }
        return i < s.length() && Character.digit(s.charAt(i), 16) >= 0;
    }

    private static int parseLeadingInt(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
