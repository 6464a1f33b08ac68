package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.elf.ProgramHeader;
import io.perfj.io.Bytes;
import io.perfj.perfdata.record.Regs;
import io.perfj.perfdata.record.Sample;
import io.perfj.perfdata.record.UserStack;
import io.perfj.symbols.DsoFinder;
import io.perfj.symbols.Map;
import io.perfj.symbols.Thread;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Optional;

/**
 * Unwinds a sample's user-space stack from the registers and stack bytes perf copied
 * ({@code --call-graph dwarf}: PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER) with the call
 * frame information of each object on the way (x86-64). The first address is the sampled
 * instruction pointer, the others are return addresses minus one, as perf reports them. Inline
 * frames are not expanded.
 */
public final class UserStackUnwinder {
    /** perf's x86-64 register order (arch/x86/include/uapi/asm/perf_regs.h) for DWARF registers 0..16. */
    private static final int[] PERF_INDEX = {0 /* ax */, 3 /* dx */, 2 /* cx */, 1 /* bx */, 4 /* si */,
        5 /* di */, 6 /* bp */, 7 /* sp */, 16, 17, 18, 19, 20, 21, 22, 23, 8 /* ip */};
    private static final int SP = 7;
    private static final int RA = 16;
    private static final int MAX_FRAMES = 127;

    private final DsoFinder finder;
    private final boolean perfCompatible;
    private final java.util.Map<Path, Optional<Obj>> objs = new HashMap<>();
    private final java.util.Map<io.perfj.symbols.Dso, Optional<Obj>> byDso = new java.util.IdentityHashMap<>();
    private LibunwindEmulation emulation;

    /**
     * An object file as the unwinders see it: all its call frame information, the
     * {@code .eh_frame} part alone with the address of {@code .eh_frame_hdr} (-1 when absent) and
     * the page-aligned address of its first PT_LOAD segment (what perf's lookup starts from),
     * and the file itself for reads outside the copied stack.
     */
    record Obj(ElfFile elf, CallFrameInfo info, CallFrameInfo ehFrame, CallFrameInfo debugFrame,
               ProgramHeader[] loads, long ehFrameHdrAddr, long firstLoadPage) {
    }

    /** Unwinds with the call frame information alone (the correct result). */
    public UserStackUnwinder(DsoFinder finder) {
        this(finder, false);
    }

    /**
     * @param perfCompatible true to reproduce perf 6.1 built with libunwind 1.6 (Debian 12's
     *                       perf) frame for frame, including where it goes wrong; false to
     *                       unwind with the call frame information alone
     */
    public UserStackUnwinder(DsoFinder finder, boolean perfCompatible) {
        this.finder = finder;
        this.perfCompatible = perfCompatible;
    }

    /** Whether this unwinder reproduces perf's libunwind-based unwinding. */
    public boolean perfCompatible() {
        return perfCompatible;
    }

    /** The user-space frames of the sample (innermost first), or null when it carries no stack. */
    public long[] unwind(Sample s, Thread thread) {
        Regs regs = s.userRegs();
        UserStack stack = s.userStack();
        if (regs == null || stack == null || stack.data() == null || regs.abi() != Regs.ABI_64 || thread == null) {
            return null;
        }
        long[] reg = new long[17];
        boolean[] known = new boolean[17];
        for (int d = 0; d < 17; d++) {
            int bit = PERF_INDEX[d];
            if ((regs.mask() & (1L << bit)) != 0) {
                reg[d] = regs.value(Long.bitCount(regs.mask() & ((1L << bit) - 1)));
                known[d] = true;
            }
        }
        if (perfCompatible) {
            if (emulation == null) {
                emulation = new LibunwindEmulation(this);
            }
            return emulation.unwind(reg, known, stack.data(), stack.dynSize(), thread, MAX_FRAMES);
        }
        if (!known[SP] || !known[RA]) {
            return null;
        }
        Bytes mem = stack.data();
        long memSize = stack.dynSize() > 0 ? Math.min(stack.dynSize(), mem.size()) : mem.size();
        long base = reg[SP];
        long[] out = new long[16];
        int n = 0;
        long pc = reg[RA];
        boolean first = true;
        while (n < MAX_FRAMES && pc != 0) {
            if (n == out.length) {
                out = Arrays.copyOf(out, n * 2);
            }
            // perf reports a caller frame at its return address minus one (inside the call)
            out[n++] = first ? pc : pc - 1;
            Map map = thread.maps().find(first ? pc : pc - 1);
            if (map == null || map.dso() == null) {
                break;
            }
            Obj cfi = objOf(map);
            if (cfi == null || cfi.info().isEmpty()) {
                break;
            }
            long vaddr = toVaddr(cfi, map.mapIp(first ? pc : pc - 1));
            if (vaddr == -1) {
                break;
            }
            Optional<UnwindRow> row;
            try {
                row = cfi.info().rowFor(vaddr);
            } catch (RuntimeException e) {
                break;
            }
            if (row.isEmpty() || !(row.get().cfa() instanceof CfaRule.RegisterOffset ro) || ro.register() > 16
                    || !known[ro.register()]) {
                break;
            }
            long cfa = reg[ro.register()] + ro.offset();
            long[] next = reg.clone();
            boolean[] nextKnown = known.clone();
            boolean ok = true;
            for (int d = 0; d <= 16 && ok; d++) {
                RegisterRule r = row.get().rule(d);
                switch (r) {
                    case RegisterRule.Offset o -> {
                        long a = cfa + o.offset();
                        long off = a - base;
                        if (off < 0 || off + 8 > memSize) {
                            if (d == RA) {
                                ok = false;
                            }
                            nextKnown[d] = false;
                        } else {
                            next[d] = mem.u64(off);
                            nextKnown[d] = true;
                        }
                    }
                    case RegisterRule.ValOffset v -> {
                        next[d] = cfa + v.offset();
                        nextKnown[d] = true;
                    }
                    case RegisterRule.Register rr -> {
                        if (rr.register() <= 16) {
                            next[d] = reg[rr.register()];
                            nextKnown[d] = known[rr.register()];
                        }
                    }
                    case RegisterRule.Undefined u -> {
                        if (d == RA) {
                            ok = false;
                        }
                    }
                    default -> {
                        // same value: keep; expressions: not evaluated
                    }
                }
            }
            if (!ok || !nextKnown[RA]) {
                break;
            }
            next[SP] = cfa;
            nextKnown[SP] = true;
            if (next[RA] == pc && next[SP] == reg[SP]) {
                break;
            }
            reg = next;
            known = nextKnown;
            pc = reg[RA];
            first = false;
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * The object file behind a map, or null when it cannot be found or read: the runtime object
     * (the file the process mapped), not a separate debug file, which has no call frame
     * information or code of its own. Cached per DSO and per file.
     */
    Obj objOf(Map map) {
        io.perfj.symbols.Dso dso = map.dso();
        if (dso == null) {
            return null;
        }
        return byDso.computeIfAbsent(dso, d -> Optional.ofNullable(runtimeFile(d)).map(this::objAt))
                .orElse(null);
    }

    private Path runtimeFile(io.perfj.symbols.Dso dso) {
        java.util.List<Path> candidates;
        try {
            candidates = finder.elfCandidates(dso);
        } catch (RuntimeException e) {
            return null;
        }
        byte[] want = dso.buildId().orElse(null);
        for (Path p : candidates) {
            if (!java.nio.file.Files.isRegularFile(p)) {
                continue;
            }
            try (ElfFile elf = ElfFile.open(p)) {
                if (want != null) {
                    byte[] have = elf.buildId().orElse(null);
                    if (have != null && !io.perfj.symbols.DsoFinder.sameId(want, have)) {
                        continue;
                    }
                }
                if (elf.section(".text").map(x -> x.hasFileData()).orElse(false)) {
                    return p;
                }
            } catch (RuntimeException e) {
                // not an ELF file, or a broken one: try the next
            }
        }
        return null;
    }

    private Obj objAt(Path file) {
        return objs.computeIfAbsent(file, f -> {
            try {
                // kept open: the frame information reads from the mapping
                ElfFile elf = ElfFile.open(f);
                CallFrameInfo info = CallFrameInfo.parse(elf);
                ProgramHeader[] loads = elf.programHeaders().stream().filter(ProgramHeader::isLoad)
                        .toArray(ProgramHeader[]::new);
                long hdr = elf.section(".eh_frame_hdr").filter(x -> x.hasFileData())
                        .map(x -> x.addr()).orElse(-1L);
                CallFrameInfo eh = CallFrameInfo.parse(elf, true, false);
                CallFrameInfo debug = CallFrameInfo.parse(elf, false, true);
                long firstLoad = loads.length == 0 ? 0 : loads[0].vaddr() & -4096L;
                return Optional.of(new Obj(elf, info, eh, debug, loads, hdr, firstLoad));
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }).orElse(null);
    }

    /** A file offset (a user map's map_ip) to the ELF's virtual address, through its PT_LOAD segments. */
    static long toVaddr(Obj cfi, long fileOffset) {
        for (ProgramHeader p : cfi.loads()) {
            if (fileOffset >= p.offset() && fileOffset < p.offset() + Math.max(p.filesz(), 1)) {
                return fileOffset - p.offset() + p.vaddr();
            }
        }
        return -1;
    }
}
