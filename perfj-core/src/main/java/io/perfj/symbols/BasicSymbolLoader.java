package io.perfj.symbols;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A stand-in {@link SymbolLoader} until the full ELF, kallsyms and perf-map parsers are plugged
 * in: it reads kallsyms and perf maps and an ELF file's build-id note, but gives no ELF symbols
 * (every ELF object loads as an empty table, so its samples show raw addresses).
 */
public final class BasicSymbolLoader implements SymbolLoader {
    @Override
    public SymbolTable loadElf(Path file, Dso dso) throws IOException {
        elfBuildId(file); // rejects files that are not ELF
        return SymbolTable.EMPTY;
    }

    @Override
    public boolean hasSymtab(Path file) {
        return false;
    }

    @Override
    public byte[] elfBuildId(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file)) {
            long size = ch.size();
            if (size < 64) {
                throw new IOException(file + ": not an ELF file");
            }
            ByteBuffer h = read(ch, 0, 64, ByteOrder.LITTLE_ENDIAN);
            if (h.getInt(0) != 0x464c457f) {
                throw new IOException(file + ": not an ELF file");
            }
            boolean is64 = h.get(4) == 2;
            ByteOrder order = h.get(5) == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            h.order(order);
            long shoff = is64 ? h.getLong(40) : Integer.toUnsignedLong(h.getInt(32));
            int shentsize = Short.toUnsignedInt(h.getShort(is64 ? 58 : 46));
            int shnum = Short.toUnsignedInt(h.getShort(is64 ? 60 : 48));
            if (shoff <= 0 || shnum == 0 || shoff + (long) shnum * shentsize > size) {
                return null;
            }
            ByteBuffer sh = read(ch, shoff, shnum * shentsize, order);
            for (int i = 0; i < shnum; i++) {
                int base = i * shentsize;
                int type = sh.getInt(base + 4);
                if (type != 7) { // SHT_NOTE
                    continue;
                }
                long off = is64 ? sh.getLong(base + 24) : Integer.toUnsignedLong(sh.getInt(base + 16));
                long len = is64 ? sh.getLong(base + 32) : Integer.toUnsignedLong(sh.getInt(base + 20));
                if (off < 0 || len <= 0 || off + len > size || len > 1 << 20) {
                    continue;
                }
                byte[] id = DsoFinder.gnuBuildIdNote(read(ch, off, (int) len, order));
                if (id != null) {
                    return id;
                }
            }
            return null;
        }
    }

    private static ByteBuffer read(FileChannel ch, long off, int len, ByteOrder order) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(len);
        while (b.hasRemaining()) {
            if (ch.read(b, off + b.position()) < 0) {
                throw new IOException("unexpected end of file");
            }
        }
        return b.flip().order(order);
    }

    @Override
    public SymbolTable loadKallsyms(Path file) throws IOException {
        List<Symbol> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            String line;
            while ((line = r.readLine()) != null) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 3 || f[1].length() != 1) {
                    continue;
                }
                if (f.length > 3 && f[3].startsWith("[")) {
                    continue; // module symbol
                }
                char t = f[1].charAt(0);
                if ("TtWwVv".indexOf(t) < 0 && !(t == 'A' || t == 'a')) {
                    continue; // perf keeps text-like symbols only
                }
                long addr = Long.parseUnsignedLong(f[0], 16);
                char binding = Character.isUpperCase(t) ? (t == 'W' || t == 'V' ? 'W' : 'G')
                        : (t == 'w' || t == 'v' ? 'W' : 'L');
                out.add(new Symbol(addr, addr, f[2], binding));
            }
        }
        return SymbolTable.of(kallsymsEnds(out));
    }

    /**
     * perf gives kallsyms symbols their ends before it removes duplicates
     * ({@code symbols__fixup_end} then {@code symbols__fixup_duplicate}): in address order (file
     * order among equal addresses) each symbol ends where the next starts, so of several symbols
     * at one address the last one listed is the one with a size and wins; the last symbol gets
     * up to the next page boundary plus a page.
     */
    static List<Symbol> kallsymsEnds(List<Symbol> in) {
        List<Symbol> sorted = new ArrayList<>(in);
        sorted.sort((a, b) -> Long.compareUnsigned(a.start(), b.start()));
        List<Symbol> out = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            Symbol s = sorted.get(i);
            long end = i + 1 < sorted.size() ? sorted.get(i + 1).start() : ((s.start() + 4095) & ~4095L) + 4096;
            out.add(new Symbol(s.start(), end, s.name(), s.binding()));
        }
        return out;
    }

    @Override
    public SymbolTable loadPerfMap(Path file) throws IOException {
        List<Symbol> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                int a = line.indexOf(' ');
                int b = a < 0 ? -1 : line.indexOf(' ', a + 1);
                if (b < 0) {
                    continue;
                }
                try {
                    long start = Long.parseUnsignedLong(strip0x(line.substring(0, a)), 16);
                    long size = Long.parseUnsignedLong(strip0x(line.substring(a + 1, b)), 16);
                    out.add(new Symbol(start, start + size, line.substring(b + 1), 'G'));
                } catch (NumberFormatException e) {
                    // perf skips lines it cannot parse
                }
            }
        }
        return SymbolTable.of(out);
    }

    private static String strip0x(String s) {
        return s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
    }
}
