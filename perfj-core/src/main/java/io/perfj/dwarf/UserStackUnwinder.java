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
    private final java.util.Map<Path, Optional<Cfi>> cfis = new HashMap<>();

    private record Cfi(CallFrameInfo info, ProgramHeader[] loads) {
    }

    public UserStackUnwinder(DsoFinder finder) {
        this.finder = finder;
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
            Cfi cfi = cfiOf(map);
            if (cfi == null) {
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

    private Cfi cfiOf(Map map) {
        Path file;
        try {
            file = finder.find(map.dso());
        } catch (RuntimeException e) {
            return null;
        }
        if (file == null) {
            return null;
        }
        if (file.getFileName() != null && file.getFileName().toString().equals("debug")
                && java.nio.file.Files.isRegularFile(file.resolveSibling("elf"))) {
            // a build-id cache entry: frame info and segments are in the runtime object
            file = file.resolveSibling("elf");
        }
        return cfis.computeIfAbsent(file, f -> {
            try {
                // kept open: the frame information reads from the mapping
                ElfFile elf = ElfFile.open(f);
                CallFrameInfo info = CallFrameInfo.parse(elf);
                if (info.isEmpty()) {
                    return Optional.empty();
                }
                ProgramHeader[] loads = elf.programHeaders().stream().filter(ProgramHeader::isLoad)
                        .toArray(ProgramHeader[]::new);
                return Optional.of(new Cfi(info, loads));
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }).orElse(null);
    }

    /** A file offset (a user map's map_ip) to the ELF's virtual address, through its PT_LOAD segments. */
    private static long toVaddr(Cfi cfi, long fileOffset) {
        for (ProgramHeader p : cfi.loads()) {
            if (fileOffset >= p.offset() && fileOffset < p.offset() + Math.max(p.filesz(), 1)) {
                return fileOffset - p.offset() + p.vaddr();
            }
        }
        return -1;
    }
}
