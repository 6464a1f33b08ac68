package io.perfj.annotate;

import io.perfj.dwarf.LineTable;
import io.perfj.elf.ElfFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Adds what {@code objdump -l -S} adds to a plain listing, from perfj's own reading of
 * {@code .debug_line}: a {@code name():} line where a function starts, a {@code file:line} (with
 * {@code (discriminator N)}) marker where the source position changes, and the source text up to
 * that line (objdump's rule: up to five lines of context the first time, then the lines not yet
 * shown, or just the line when going back).
 */
public final class SourceInterleaver {
    private static final int CONTEXT = 5;

    private SourceInterleaver() {
    }

    /** Listing lines with markers added; {@code dwarf} is the file holding the line tables. */
    public static List<String> interleave(List<String> listing, Path dwarf, Disassembler.Request r) throws IOException {
        LineTable table;
        try (ElfFile elf = ElfFile.open(dwarf)) {
            table = LineTable.of(elf);
        } catch (RuntimeException e) {
            table = LineTable.empty();
        }
        return interleave(listing, table, r);
    }

    static List<String> interleave(List<String> listing, LineTable table, Disassembler.Request r) {
        List<String> out = new ArrayList<>(listing.size() * 2);
        Map<String, SourceFile> files = new HashMap<>();
        String pendingFunction = null;
        String prevFile = null;
        int prevLine = -1;
        int prevDisc = -1;
        for (String raw : listing) {
            String t = Annotation.strim(raw);
            int lt = t.indexOf(" <");
            if (t.endsWith(">:") && lt > 0) {
                pendingFunction = t.substring(lt + 2, t.length() - 2);
                out.add(raw);
                continue;
            }
            long[] end = new long[1];
            long addr = Instruction.parseHex(t, 0, end);
            boolean insn = end[0] > 0 && end[0] < t.length() && t.charAt((int) end[0]) == ':';
            if (!insn) {
                out.add(raw);
                continue;
            }
            if (pendingFunction != null) {
                if (r.lineNumbers()) {
                    out.add(pendingFunction + "():");
                }
                pendingFunction = null;
            }
            LineTable.Row row = table.find(addr);
            if (row != null && row.line() > 0) {
                boolean changed = !row.file().equals(prevFile) || row.line() != prevLine
                        || row.discriminator() != prevDisc;
                if (changed && r.lineNumbers()) {
                    out.add(row.discriminator() > 0
                            ? row.file() + ":" + row.line() + " (discriminator " + row.discriminator() + ")"
                            : row.file() + ":" + row.line());
                }
                if (changed && r.source()) {
                    SourceFile f = files.computeIfAbsent(row.file(), n -> SourceFile.open(n, r));
                    if (f != null && row.line() != f.lastLine) {
                        int l = row.line() - CONTEXT;
                        if (l >= row.line() || l < 1) {
                            l = 1;
                        }
                        if (f.maxPrinted >= l) {
                            l = f.maxPrinted < row.line() ? f.maxPrinted + 1 : row.line();
                        }
                        for (int i = l; i <= row.line() && i <= f.lines.size(); i++) {
                            out.add(f.lines.get(i - 1));
                        }
                        f.maxPrinted = Math.max(f.maxPrinted, row.line());
                        f.lastLine = row.line();
                    }
                }
                prevFile = row.file();
                prevLine = row.line();
                prevDisc = row.discriminator();
            }
            out.add(raw);
        }
        return out;
    }

    /** A source file's lines, found as objdump finds it (--prefix and --prefix-strip for absolute names). */
    static final class SourceFile {
        final List<String> lines;
        int maxPrinted;
        int lastLine = -1;

        private SourceFile(List<String> lines) {
            this.lines = lines;
        }

        static SourceFile open(String name, Disassembler.Request r) {
            Path p = locate(name, r.prefix(), r.prefixStrip());
            try {
                if (p != null && Files.isRegularFile(p)) {
                    return new SourceFile(Files.readAllLines(p, StandardCharsets.ISO_8859_1));
                }
            } catch (IOException | RuntimeException e) {
                return null;
            }
            return null;
        }
    }

    /** Where a source file named in DWARF is read from, applying --prefix-strip then --prefix. */
    public static Path locate(String name, String prefix, String prefixStrip) {
        if (!name.startsWith("/") || prefix == null) {
            return Path.of(name);
        }
        String rest = name;
        int strip = 0;
        if (prefixStrip != null) {
            try {
                strip = Integer.parseInt(prefixStrip);
            } catch (NumberFormatException e) {
                strip = 0;
            }
        }
        for (int i = 0; i < strip; i++) {
            int s = rest.indexOf('/', 1);
            if (s < 0) {
                break;
            }
            rest = rest.substring(s);
        }
        return Path.of(prefix + rest);
    }
}
