package io.perfj.report;

import io.perfj.io.TextOut;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Location;
import io.perfj.symbols.Symbol;

import java.io.ByteArrayOutputStream;

/**
 * {@code perf script}'s text of one frame ({@code ip sym+off (dso)}, fields as chosen), kept
 * as bytes for the frames met recently: a recording's samples share few distinct frames, and
 * copying a line is cheaper than formatting its address, offset and names again. A frame's text
 * depends only on its object (whose name never changes), its symbol (a value) and the address,
 * so a line found in the cache is the line that would be formatted. Direct-mapped: a slot holds
 * the last frame that hashed to it.
 *
 * <p>A second table goes one step further for recorded callchains: by process (kernel addresses
 * shared by all), cpumode and address to the line, without resolving the address at all, until a
 * record changes that process's address space or the kernel's ({@link #invalidate}, with the
 * rule of {@link Report}'s frame cache, {@link Report#invalidates}).
 */
final class FrameLines {
    private static final int SLOTS = 1 << 15;

    private final boolean sym;
    private final boolean symoff;
    private final boolean dsoName;
    private final boolean objectAddresses;
    private final Dso[] dsos = new Dso[SLOTS];
    private final Symbol[] syms = new Symbol[SLOTS];
    private final long[] addrs = new long[SLOTS];
    /** By slot the frame's {@link Location#srcline} (compared by reference: a chain's lines are kept once). */
    private final String[] srclines = new String[SLOTS];
    private final byte[][] lines = new byte[SLOTS][];
    private static final int IP_SLOTS = 1 << 16;
    /** Per slot the address and the context (cpumode, process), side by side in one cache line. */
    private final long[] ipKeys = new long[2 * IP_SLOTS];
    private final int[] gens = new int[IP_SLOTS];
    private final byte[][] ipLines = new byte[IP_SLOTS][];
    /**
     * A line in {@link #ipLines} is valid while its stamp equals its context's generation: the
     * last invalidation of everything or, for user addresses, of its process, whichever is later
     * (a counter, so never 0, which marks an empty slot).
     */
    private int counter = 1;
    private int allGen = 1;
    private final io.perfj.util.LongIntMap pidGens = new io.perfj.util.LongIntMap(256);
    private final ByteArrayOutputStream scratchBytes = new ByteArrayOutputStream(256);
    private final TextOut scratch = new TextOut(scratchBytes, 256);

    /** What a recorded callchain address becomes ({@link #print(int, int, int, long, int, io.perfj.session.FrameResolver, TextOut)}). */
    private final io.perfj.session.RecordedInlines inlines;

    /** The source line printed after each frame ({@code -F srcline}), null when none is. */
    private final java.util.function.Function<Location, String> srcline;

    /**
     * @param layout  perf 7.2's or perf 6.1's layout ({@link ScriptLayout})
     * @param inlines what a callchain address printed by address becomes: its frame, or the
     *                functions inlined there first, a line each
     * @param srcline the source line printed on a line of its own after each frame, null for
     *                none (or where a frame has none); a function of the frame's object and address in it
     */
    FrameLines(boolean sym, boolean symoff, boolean dsoName, ScriptLayout layout,
            io.perfj.session.RecordedInlines inlines, java.util.function.Function<Location, String> srcline) {
        this.inlines = inlines;
        this.sym = sym;
        this.symoff = symoff;
        this.dsoName = dsoName;
        this.objectAddresses = layout.objectAddresses();
        this.srcline = srcline;
    }

    /** Forgets the lines found by address that {@code rec} may change. */
    void invalidate(io.perfj.perfdata.record.PerfRecord rec) {
        int pid = Report.invalidates(rec);
        if (pid == Report.ALL) {
            allGen = ++counter;
        } else if (pid != Report.NONE) {
            pidGens.put(pid, ++counter);
        }
    }

    /** The generation the lines of process {@code pid}'s user addresses must carry now. */
    int generation(int pid) {
        int g = pidGens.get(pid);
        return Math.max(g, allGen);
    }

    /**
     * Writes the text of the frame at {@code ip} in cpumode {@code mode} of a sample of
     * {@code pid}/{@code tid}, resolving the address only when the line is not known.
     */
    void print(int pid, int tid, int mode, long ip, int pidGen, io.perfj.session.FrameResolver resolver,
            TextOut out) {
        boolean kernel = mode == 1;
        long ctx = ((long) mode << 32) | ((kernel ? -1 : pid) & 0xffff_ffffL);
        int g = kernel ? allGen : pidGen;
        long h = (ip ^ (ip >>> 31) ^ (ctx * 0x9E3779B97F4A7C15L)) * 0xBF58476D1CE4E5B9L;
        int slot = (int) (h >>> 48) & (IP_SLOTS - 1);
        int k = 2 * slot;
        byte[] line;
        if (gens[slot] == g && ipKeys[k] == ip && ipKeys[k + 1] == ctx) {
            line = ipLines[slot];
        } else {
            line = recordedLines(resolver.resolve(pid, tid, mode, ip), resolver);
            ipLines[slot] = line;
            gens[slot] = g;
            ipKeys[k] = ip;
            ipKeys[k + 1] = ctx;
        }
        out.bytes(line);
    }

    /**
     * Writes the frame's text with the sample's own address rather than the address in the
     * object: perf's one-line form, for samples printed without a callchain.
     */
    void printRaw(Location loc, TextOut out) {
        out.bytes(format(loc, loc.dso(), loc.symbol(), loc.ip()));
    }

    /** Writes the frame's text (no tab before, no newline after). */
    void print(Location loc, TextOut out) {
        out.bytes(line(loc, false));
    }

    /**
     * Writes a sample's own location when there is no callchain: perf prints the sample's ip
     * as recorded there ({@code sample__fprintf_sym} without a cursor), not the address in the
     * object that a callchain line shows.
     */
    void printSampleIp(Location loc, TextOut out) {
        out.bytes(line(loc, true));
    }

    private byte[] line(Location loc) {
        return line(loc, false);
    }

    /** The lines of a recorded callchain address: those of its inlined functions first (tab-indented after the first), then its own. */
    private byte[] recordedLines(Location loc, io.perfj.session.FrameResolver resolver) {
        if (loc.dso() == null) {
            return line(loc);
        }
        java.util.List<Location> all = inlines.frames(resolver, loc);
        if (all.size() == 1) {
            return line(all.getFirst());
        }
        ByteArrayOutputStream joined = new ByteArrayOutputStream(128 * all.size());
        for (int i = 0; i < all.size(); i++) {
            if (i > 0) {
                joined.write('\n');
                joined.write('\t');
            }
            joined.writeBytes(line(all.get(i)));
        }
        return joined.toByteArray();
    }

    private byte[] line(Location loc, boolean rawIp) {
        Dso dso = loc.dso();
        Symbol s = loc.symbol();
        // the printed address: the recorded one, or in perf 6.1's layout the one in the object
        // when there is one (the offset from the symbol uses mapIp either way)
        long addr = objectAddresses && dso != null && !rawIp && !kernelSpace(dso) ? loc.mapIp() : loc.ip();
        if (dso == null && s != null) {
            return format(loc, null, s, addr); // not a frame Machine makes: not keyed by its address alone
        }
        int h = (int) (addr ^ (addr >>> 29)) * 0x9E3779B1 + System.identityHashCode(s);
        int slot = (h ^ (h >>> 15)) & (SLOTS - 1);
        byte[] line = lines[slot];
        if (line == null || addrs[slot] != addr || syms[slot] != s || dsos[slot] != dso
                || srclines[slot] != loc.srcline()) {
            line = format(loc, dso, s, addr);
            lines[slot] = line;
            addrs[slot] = addr;
            syms[slot] = s;
            dsos[slot] = dso;
            srclines[slot] = loc.srcline();
        }
        return line;
    }

    /**
     * Whether perf 6.1 prints a callchain address of this object as recorded: for kernel-space
     * objects (the kernel, modules, BPF programs) it does, for user objects it prints the address
     * in the object.
     */
    private static boolean kernelSpace(Dso dso) {
        return switch (dso.kind()) {
            case KERNEL, KERNEL_MODULE, BPF -> true;
            default -> false;
        };
    }

    /** The object's name as perf script prints it ({@link Dso#name()}). */
    private static String scriptName(Dso dso) {
        return dso.name();
    }

    private byte[] format(Location loc, Dso dso, Symbol s, long addr) {
        scratchBytes.reset();
        scratch.hexSpaces(addr, 16);
        if (sym) {
            scratch.ch(' ');
            if (s != null) {
                scratch.str(s.name());
                if (symoff) {
                    scratch.str("+0x").hex(loc.mapIp() - s.start());
                }
            } else {
                scratch.str("[unknown]");
            }
        }
        // an inlined function has no object of its own: "(inlined)" follows its source line,
        // and is printed whether or not objects are (perf's sample__fprintf_callchain)
        boolean inlined = s != null && s.inlined();
        if (dsoName && !inlined) {
            scratch.str(" (").str(dso == null ? "[unknown]" : scriptName(dso)).ch(')');
        }
        String line = srcline == null || dso == null ? null : srcline.apply(loc);
        if (line != null) {
            scratch.str("\n  ").str(line);
        }
        if (inlined) {
            scratch.str(" (inlined)");
        }
        scratch.flushBuffer();
        return scratchBytes.toByteArray();
    }
}
