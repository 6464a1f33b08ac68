package io.perfj.symbols;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JIT symbol map, {@code /tmp/perf-PID.map}: one {@code START SIZE NAME} line per symbol, START
 * and SIZE in hex with an optional 0x, NAME the rest of the line (spaces included). Parsed as
 * perf's {@code dso__load_perf_map} does: the line's last character (its newline) is dropped,
 * each number is read like {@code strtoull(.., 16)} and followed by exactly one separator
 * character, and lines too short to hold a name are skipped. Unlike perf, a line whose numbers
 * do not parse is skipped too instead of becoming a symbol at 0. Symbols keep their sizes (perf
 * applies no fix-ups to map files: a zero-sized entry matches only its start address), and where
 * entries overlap the innermost one covering an address names it, a zero-sized one only where no
 * sized entry covers its start.
 *
 * @param table     the symbols, absolute addresses
 * @param badLines  lines skipped as malformed
 * @param warning   one message about the skipped lines for the whole file, or null
 */
public record PerfMap(SymbolTable table, int badLines, String warning) {

    public static PerfMap read(Path file) {
        return parse(TextFiles.read(file), file.toString());
    }

    public static PerfMap parse(byte[] data, String name) {
        List<Symbol> syms = new ArrayList<>();
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
            // perf drops the last character of every line read (the newline, or a real character
            // on an unterminated last line).
            int end = eol < data.length ? eol : eol - 1;
            if (!parseLine(data, pos, end, syms)) {
                if (end > pos) {
                    bad++;
                    if (firstBad < 0) {
                        firstBad = lineNo;
                    }
                }
            }
            pos = eol + 1;
        }
        String warning = bad == 0 ? null
                : name + ": skipped " + bad + " malformed line" + (bad == 1 ? "" : "s") + " (first: line " + firstBad + ")";
        List<Symbol> sorted = SymbolTable.sortedCopy(syms);
        boolean[] sizeless = new boolean[sorted.size()];
        for (int i = 0; i < sizeless.length; i++) {
            sizeless[i] = sorted.get(i).size() == 0;
        }
        return new PerfMap(SymbolTable.ofInnermost(sorted, sizeless), bad, warning);
    }

    /** One line [from, to); false when it is skipped. */
    private static boolean parseLine(byte[] b, int from, int to, List<Symbol> out) {
        int lineLen = to - from;
        long[] val = new long[1];
        int len = hex(b, from, to, val);
        if (len <= 0) {
            return false;
        }
        long start = val[0];
        len++;
        if (len + 2 >= lineLen) {
            return false;
        }
        int n = hex(b, from + len, to, val);
        if (n <= 0) {
            return false;
        }
        len += n;
        long size = val[0];
        len++;
        if (len + 2 >= lineLen) {
            return false;
        }
        String name = new String(b, from + len, lineLen - len, StandardCharsets.UTF_8);
        out.add(new Symbol(start, start + size, name, 'G'));
        return true;
    }

    /**
     * strtoull(p, &end, 16): leading blanks, optional sign, optional 0x, hex digits; returns the
     * characters consumed, or -1 without digits or on overflow.
     */
    private static int hex(byte[] b, int from, int to, long[] out) {
        int p = from;
        while (p < to && (b[p] == ' ' || b[p] == '\t' || b[p] == '\r' || b[p] == '\f' || b[p] == 0x0b)) {
            p++;
        }
        boolean neg = false;
        if (p < to && (b[p] == '+' || b[p] == '-')) {
            neg = b[p] == '-';
            p++;
        }
        if (p + 1 < to && b[p] == '0' && (b[p + 1] == 'x' || b[p + 1] == 'X') && p + 2 < to && digit(b[p + 2]) >= 0) {
            p += 2;
        }
        long v = 0;
        int digits = 0;
        while (p < to) {
            int d = digit(b[p]);
            if (d < 0) {
                break;
            }
            if ((v >>> 60) != 0) {
                return -1;
            }
            v = (v << 4) | d;
            digits++;
            p++;
        }
        if (digits == 0) {
            return -1;
        }
        out[0] = neg ? -v : v;
        return p - from;
    }

    private static int digit(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
