package io.perfj.compat;

import io.perfj.dwarf.CallFrameInfo;
import io.perfj.dwarf.CfaRule;
import io.perfj.dwarf.DwarfExpression;
import io.perfj.dwarf.ExpressionEvaluator;
import io.perfj.dwarf.ExpressionException;
import io.perfj.dwarf.FdeTable;
import io.perfj.dwarf.RegisterRule;
import io.perfj.dwarf.UnwindObject;
import io.perfj.dwarf.UnwindRow;
import io.perfj.io.Bytes;
import io.perfj.symbols.Map;
import io.perfj.symbols.Maps;
import io.perfj.symbols.Thread;
import io.perfj.unwind.UnwindMethod;
import io.perfj.unwind.UnwindObjects;

import java.util.Arrays;

/**
 * Unwinds a copied user stack the way perf 6.1 does when it is built with libunwind 1.6 (Debian
 * 12's linux-perf): the same frames, where they are right and where they are not. Three
 * behaviours of that pair make its callchains differ from what the call frame information says;
 * this class reproduces them.
 *
 * <ol>
 * <li><b>Where perf thinks an object is loaded.</b> To search an object's {@code .eh_frame_hdr}
 *     table, perf takes the lowest start address of all the thread's maps of that object (its
 *     path with the device and inode of the mapping) less that map's file offset (where the file
 *     would begin: a jitted {@code .so} from perf inject is mapped from its code's offset), minus
 *     the page-aligned address of its first PT_LOAD segment, as the load address. perf keeps a
 *     process's maps across exec (only new mappings displace old ones), so a forked-and-exec'd
 *     process still holds its parent's mappings of, say, libc.so.6. When such an old mapping lies
 *     below the process's own, the load address is wrong, the search finds no entry that covers
 *     the address (libunwind: {@code -UNW_ENOINFO}), and libunwind falls back to frame pointers.
 *     The search runs with {@code address - loadAddress}; the old mapping holds the same file,
 *     so the table and entries it reads are the file's own.</li>
 * <li><b>The frame-pointer fallback</b> (libunwind's x86-64 {@code unw_step} after
 *     {@code -UNW_ENOINFO}): a PLT stub pops its return address; otherwise, when %rbp is a
 *     readable address no lower than the CFA and at most 0x4000 above it, the caller is at
 *     [rbp+8] and its %rbp at [rbp]; every other register becomes unknown and the CFA grows by
 *     16. When %rbp does not qualify the walk ends there.</li>
 * <li><b>Reads outside the copied stack.</b> perf reads them from the file of the map that
 *     covers the address. An address in no map is an error (the walk ends). An address in a map
 *     whose file cannot be read (the [stack] map above the copied part, anonymous memory) reads
 *     as 0 <em>without</em> an error, so a return address there becomes 0 and perf prints it as
 *     0xffffffffffffffff (0 minus one) before the walk ends. The copied stack's last 8 bytes are
 *     never read from the copy (perf's bound check is off by one).</li>
 * </ol>
 *
 * <p>DWARF expressions in CFA and register rules are evaluated as libunwind's Gexpr.c does for
 * the operations call frame rules use (libc's PLT and signal trampoline rules): a dummy 0 pushed
 * before a CFA expression, %rsp read as the CFA, %rip as the ip. Not reproduced there:
 * libunwind's register locations from DW_OP_reg (the walk ends), its division and modulo by zero
 * giving 0 (an error here), and its reads of 1 to 4 bytes through the aligned word around them.
 *
 * <p>Not reproduced: libunwind's per-process cache of register rules (it could keep a rule found
 * while the load address was still right), signal frames found through the frame-pointer path,
 * and perf's {@code .debug_frame} search after a failed {@code .eh_frame_hdr} one, which is
 * approximated with the object's own addresses.
 *
 * <p>Mirrors: libunwind 1.6's x86-64 {@code unw_step} (x86_64/Gstep.c) with its frame-pointer
 * fallback, {@code dwarf_step}, {@code apply_reg_state} (dwarf/Gparser.c) and the expression
 * evaluator (dwarf/Gexpr.c); perf 6.1's {@code find_proc_info}, {@code access_mem} and
 * {@code access_dso_mem} (tools/perf/util/unwind-libunwind-local.c).
 */
public final class LibunwindEmulation {
    /** libunwind's and perf's error codes, as far as the walk tells them apart. */
    static final int ENOINFO = -10;
    static final int EINVAL = -22;
    static final int EBADREG = -3;
    static final int EBADFRAME = -7;
    /** perf's access_dso_mem when the map's file cannot be read: not an error to libunwind. */
    static final int SOFT = 1;

    private static final int NONE = 0;
    private static final int REG = 1;
    private static final int MEM = 2;
    private static final int VAL = 3;
    private static final int RBP = 6;
    private static final int RSP = 7;
    private static final int RIP = 16;
    private static final int NREGS = 17;

    private final UnwindObjects objects;

    // per walk
    private Maps maps;
    private long[] reg;
    private boolean[] known;
    private Bytes stack;
    private long sp;
    private long stackSize;
    private final int[] kind = new int[NREGS];
    private final long[] where = new long[NREGS];
    private long ip;
    private long cfa;
    private boolean usePrevInstr;
    private boolean signalFrame;
    /** The value of the last read (0 after a soft failure). */
    private long value;
    private UnwindRow row;
    /** Per address space: where each DSO's file starts ({@link #fileStart}), kept while the maps do not change. */
    private final java.util.Map<Maps, java.util.Map<FileId, Long>> lowestByMaps =
            new java.util.IdentityHashMap<>();
    private long lowestGeneration = -1;
    private java.util.Map<FileId, Long> lowest;
    private boolean rowSignal;
    /** The address spaces perf has registered its unwinder for (see {@link #unwinderRegistered}). */
    private final java.util.Map<Maps, Boolean> registered = new java.util.WeakHashMap<>();

    private final ExpressionEvaluator evaluator = ExpressionEvaluator.x86_64();

    /**
     * Registers and memory as libunwind's expression evaluator sees them (Gexpr.c through
     * unw_get_reg and access_mem): %rsp is the cursor's CFA, %rip its ip, the others read from
     * their current locations; a read perf answers "0 without an error" gives 0.
     */
    private final ExpressionEvaluator.Context context = new ExpressionEvaluator.Context() {
        @Override
        public long register(int r) {
            if (r == RSP) {
                return cfa;
            }
            if (r == RIP) {
                return ip;
            }
            if (r < 0 || r >= NREGS || get(r) < 0) {
                throw new ExpressionException(-1, "register " + r);
            }
            return value;
        }

        @Override
        public long read(long address, int size) {
            if (LibunwindEmulation.this.read(address) < 0) {
                throw new ExpressionException(-1, "unreadable");
            }
            return size == 8 ? value : value & ((1L << (8 * size)) - 1);
        }
    };

    /**
     * perf 6.1's unwinding as a session's {@link UnwindMethod}: x86-64 stacks as libunwind walks
     * them; no frames for another architecture (perf 6.1 as built for x86-64 says "unwind:
     * target platform=arm64 is not supported").
     */
    public static final UnwindMethod METHOD = (objects, arch) ->
            arch == io.perfj.dwarf.UnwindArch.X86_64 ? new LibunwindEmulation(objects)::unwind : null;

    /** Over a run's objects, shared with the correct unwinder. */
    public LibunwindEmulation(UnwindObjects objects) {
        this.objects = objects;
    }

    /**
     * The frames perf prints for a sample's user stack, innermost first: the sampled address,
     * then each caller's return address minus one (the address itself after a signal frame).
     *
     * @param reg     DWARF registers 0..16 from the sample
     * @param known   which of them the sample holds
     * @param data    the copied stack
     * @param dynSize how many bytes of it the kernel filled (perf's stack size)
     */
    public long[] unwind(long[] reg, boolean[] known, Bytes data, long dynSize, Thread thread, int max) {
        if (dynSize <= 0 || !known[RIP]) {
            // perf does not unwind a sample without a stack; without an ip it gives up
            return new long[0];
        }
        if (!unwinderRegistered(thread.maps())) {
            return new long[0];
        }
        this.maps = thread.maps();
        long gen = objects.generation();
        if (gen < 0 || gen != lowestGeneration) {
            lowestByMaps.clear();
            lowestGeneration = gen;
        }
        lowest = lowestByMaps.computeIfAbsent(maps, m -> new java.util.HashMap<>());
        this.reg = reg;
        this.known = known;
        this.stack = data;
        this.stackSize = Math.min(dynSize, data.size());
        long[] out = new long[16];
        int n = 0;
        out[n++] = reg[RIP];
        if (known[RSP]) {
            this.sp = reg[RSP];
            for (int i = 0; i < NREGS; i++) {
                kind[i] = REG;
                where[i] = i;
            }
            ip = reg[RIP];
            cfa = reg[RSP];
            usePrevInstr = false;
            while (n < max && step() > 0) {
                if (n == out.length) {
                    out = Arrays.copyOf(out, n * 2);
                }
                out[n++] = signalFrame ? ip : ip - 1;
            }
        }
        // perf leaves out an address of 0
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (out[i] != 0) {
                out[k++] = out[i];
            }
        }
        this.maps = null;
        this.stack = null;
        return Arrays.copyOf(out, k);
    }

    /**
     * Whether perf has an unwinder for this address space at all. perf 6.1 registers libunwind
     * for a process's maps when a map is inserted whose file it can open and tell the ELF class
     * of (unwind__prepare_access, dso__type); until then its get_entries is never called and a
     * sample has no user frames, not even the sampled address (a recording of a static binary
     * read without that binary). Once registered it stays, so a yes is kept.
     */
    private boolean unwinderRegistered(Maps m) {
        if (registered.containsKey(m)) {
            return true;
        }
        for (Map map : m.list()) {
            if (map.dso() != null && objects.of(map.dso()) != null) {
                registered.put(m, Boolean.TRUE);
                return true;
            }
        }
        return false;
    }

    /** libunwind's x86-64 unw_step: &gt; 0 for a new frame, 0 at the end, &lt; 0 on an error. */
    private int step() {
        signalFrame = false;
        long prevIp = ip;
        long prevCfa = cfa;
        int ret = dwarfStep();
        if (ret < 0 && ret != ENOINFO) {
            return ret;
        }
        if (ret >= 0) {
            // the end of the chain: no place for %rbp
            if (kind[RBP] == NONE) {
                ip = 0;
                ret = 0;
            }
            return ret;
        }
        // no call frame information here: the frame-pointer chain
        int invalidPrevIp = 0;
        if (isPltEntry()) {
            kind[RIP] = MEM;
            where[RIP] = cfa;
            cfa += 8;
        } else if (kind[RBP] == NONE) {
            Arrays.fill(kind, NONE);
        } else {
            ret = get(RBP);
            if (ret < 0) {
                return ret;
            }
            long rbp = value;
            invalidPrevIp = read(prevIp);
            int rbpKind = NONE;
            int rspKind = NONE;
            int ripKind = NONE;
            long rbpAt = 0;
            long rspAt = 0;
            long ripAt = 0;
            if (rbp != 0 || invalidPrevIp != 0) {
                boolean fixed = false;
                if (invalidPrevIp != 0) {
                    // the previous ip was not readable: maybe a call through a bad pointer
                    get(RSP);
                    long rsp = value;
                    if (read(rsp) == 0) {
                        long newIp = value;
                        ret = read(newIp);
                        if (ret == 0) {
                            fixed = true;
                            cfa += 8;
                            rbpKind = MEM;
                            rbpAt = rbp;
                            rspKind = MEM;
                            rspAt = rsp;
                            ripKind = MEM;
                            ripAt = rsp;
                        }
                    }
                }
                if (!fixed) {
                    rbpKind = MEM;
                    rbpAt = rbp;
                    ripKind = MEM;
                    ripAt = rbp + 8;
                    ret = read(rbp);
                    if (ret < 0 || Long.compareUnsigned(rbp, cfa) < 0 || Long.compareUnsigned(rbp - cfa, 0x4000) > 0) {
                        ripKind = NONE;
                        rbpKind = NONE;
                    }
                    cfa += 16;
                }
            }
            Arrays.fill(kind, NONE);
            kind[RBP] = rbpKind;
            where[RBP] = rbpAt;
            kind[RSP] = rspKind;
            where[RSP] = rspAt;
            kind[RIP] = ripKind;
            where[RIP] = ripAt;
            usePrevInstr = true;
        }
        if (kind[RBP] == NONE && invalidPrevIp == 0) {
            return 0;
        }
        if (kind[RIP] != NONE) {
            ret = get(RIP);
            if (ret < 0) {
                return ret;
            }
            ip = value;
            ret = 1;
        } else {
            ip = 0;
        }
        if (ip == prevIp && cfa == prevCfa) {
            return EBADFRAME;
        }
        return ret;
    }

    /** A PLT stub: {@code jmp *x(%rip); push $n; jmp first-entry}. */
    private boolean isPltEntry() {
        if (read(ip) < 0) {
            return false;
        }
        long w0 = value;
        if (read(ip + 8) < 0) {
            return false;
        }
        long w1 = value;
        return (w0 & 0xffff) == 0x25ff && ((w0 >>> 48) & 0xff) == 0x68 && ((w1 >>> 24) & 0xff) == 0xe9;
    }

    /** libunwind's dwarf_step: the rules of the current address applied to the cursor. */
    private int dwarfStep() {
        int ret = findProcInfo(usePrevInstr ? ip - 1 : ip);
        if (ret < 0) {
            return ret;
        }
        usePrevInstr = !rowSignal;
        signalFrame = rowSignal;
        return apply(row);
    }

    /**
     * perf's find_proc_info: the row for {@code addr} from the map's object, searched through
     * {@code .eh_frame_hdr} with perf's idea of the load address, then {@code .debug_frame}.
     */
    private int findProcInfo(long addr) {
        Map map = maps.find(addr);
        if (map == null || map.dso() == null) {
            return EINVAL;
        }
        UnwindObject obj = objects.of(map.dso());
        if (obj == null) {
            return EINVAL;
        }
        int ret = EINVAL;
        if (obj.ehFrameHdrAddr() >= 0) {
            long base = fileStart(map) - obj.firstLoadPage();
            if (maps.find(base + obj.ehFrameHdrAddr()) == null) {
                // the search table would be read from unmapped memory
                ret = -1;
            } else {
                ret = rowAt(obj.ehFrame(), addr - base);
            }
        }
        if (ret < 0 && !obj.debugFrame().isEmpty()) {
            long vaddr = obj.toVaddr(map.mapIp(addr));
            if (vaddr != -1 && rowAt(obj.debugFrame(), vaddr) == 0) {
                ret = 0;
            }
        }
        return ret;
    }

    /**
     * Where perf puts the start of map's file: over the thread's maps of the same file in address
     * order, each one starting below the value so far makes it its start less its file offset
     * (in effect the lowest map's). perf's file is the path with the device and inode the map
     * record gave: a file of the same path from another file system (an exec'd program's in a
     * chroot, its parent's outside) is another. Kept until the maps change.
     */
    private long fileStart(Map map) {
        FileId id = new FileId(map.dso(), map.maj(), map.min(), map.ino(), map.inoGeneration());
        Long known = lowest.get(id);
        if (known != null) {
            return known;
        }
        long base = -1L;
        for (Map m : maps.list()) {
            if (m.dso() == map.dso() && m.maj() == map.maj() && m.min() == map.min() && m.ino() == map.ino()
                    && m.inoGeneration() == map.inoGeneration() && Long.compareUnsigned(m.start(), base) < 0) {
                base = m.start() - m.pgoff();
            }
        }
        lowest.put(id, base);
        return base;
    }

    /** perf's DSO identity: the path (perfj's DSO) with the device and inode of its mapping. */
    private record FileId(io.perfj.symbols.Dso dso, int maj, int min, long ino, long inoGeneration) {
    }

    private int rowAt(CallFrameInfo info, long vaddr) {
        if (info == null || info.isEmpty()) {
            return ENOINFO;
        }
        try {
            FdeTable t = info.table(vaddr);
            if (t == null) {
                return ENOINFO;
            }
            row = t.rowFor(vaddr);
            rowSignal = t.signalFrame();
            return row == null ? ENOINFO : 0;
        } catch (RuntimeException e) {
            return EINVAL;
        }
    }

    /** libunwind's apply_reg_state. */
    private int apply(UnwindRow r) {
        long prevIp = ip;
        long prevCfa = cfa;
        long newCfa;
        if (r.cfa() instanceof CfaRule.RegisterOffset ro) {
            int cr = ro.register();
            if (cr == RSP) {
                // libunwind reads %rsp as the current CFA
                newCfa = cfa + ro.offset();
            } else if (cr < NREGS) {
                int st = get(cr);
                if (st < 0) {
                    return st;
                }
                newCfa = value + ro.offset();
            } else {
                return EBADREG;
            }
        } else if (r.cfa() instanceof CfaRule.Expression e) {
            // libunwind pushes a dummy 0 before a CFA expression
            try {
                newCfa = evaluator.evaluate(e.code(), context, 0);
            } catch (ExpressionException x) {
                return EINVAL;
            }
        } else {
            return EINVAL;
        }
        int[] nk = kind.clone();
        long[] nw = where.clone();
        for (int i = 0; i < NREGS; i++) {
            if (!r.hasRule(i)) {
                continue;
            }
            switch (r.rule(i)) {
                case RegisterRule.Undefined u -> nk[i] = NONE;
                case RegisterRule.SameValue s -> {
                }
                case RegisterRule.Offset o -> {
                    nk[i] = MEM;
                    nw[i] = newCfa + o.offset();
                }
                case RegisterRule.ValOffset v -> {
                    nk[i] = VAL;
                    nw[i] = newCfa + v.offset();
                }
                case RegisterRule.Register rr -> {
                    if (rr.register() >= NREGS) {
                        return EBADREG;
                    }
                    // libunwind copies from the locations being updated, in register order
                    nk[i] = nk[rr.register()];
                    nw[i] = nw[rr.register()];
                }
                // evaluated on the frame being unwound, the new CFA pushed first: a saved
                // register's address, or (val_expression) its value
                case RegisterRule.Expression x -> {
                    if (!locate(x.code(), newCfa, MEM, i, nk, nw)) {
                        return EINVAL;
                    }
                }
                case RegisterRule.ValExpression x -> {
                    if (!locate(x.code(), newCfa, VAL, i, nk, nw)) {
                        return EINVAL;
                    }
                }
            }
        }
        System.arraycopy(nk, 0, kind, 0, NREGS);
        System.arraycopy(nw, 0, where, 0, NREGS);
        cfa = newCfa;
        int ra = r.returnAddressRegister();
        if (ra < 0 || ra >= NREGS) {
            return EBADREG;
        }
        int ret;
        if (kind[ra] == NONE) {
            ip = 0;
            ret = 0;
        } else {
            int st = get(ra);
            if (st < 0) {
                return st;
            }
            ip = value;
            ret = 1;
        }
        if (ip == prevIp && cfa == prevCfa) {
            return EBADFRAME;
        }
        return ret;
    }

    /** Register {@code r}'s new location from an expression; false when it cannot be evaluated. */
    private boolean locate(DwarfExpression code, long newCfa, int locationKind, int r, int[] nk, long[] nw) {
        try {
            nw[r] = evaluator.evaluate(code, context, newCfa);
            nk[r] = locationKind;
            return true;
        } catch (ExpressionException ex) {
            return false;
        }
    }

    /** The value at register {@code r}'s location into {@link #value}; libunwind's dwarf_get. */
    private int get(int r) {
        value = 0;
        return switch (kind[r]) {
            case REG -> reg((int) where[r]);
            case MEM -> read(where[r]);
            case VAL -> {
                value = where[r];
                yield 0;
            }
            default -> EBADREG;
        };
    }

    private int reg(int d) {
        if (!known[d]) {
            return EINVAL;
        }
        value = reg[d];
        return 0;
    }

    /** perf's access_mem: 8 bytes from the copied stack or the file of the map at addr. */
    private int read(long addr) {
        value = 0;
        if (Long.compareUnsigned(addr + 8, addr) < 0) {
            return EINVAL;
        }
        if (Long.compareUnsigned(addr, sp) >= 0 && Long.compareUnsigned(addr + 8, sp + stackSize) < 0) {
            value = stack.u64(addr - sp);
            return 0;
        }
        Map map = maps.find(addr);
        if (map == null || map.dso() == null) {
            return -1;
        }
        UnwindObject obj = objects.of(map.dso());
        if (obj == null) {
            return SOFT;
        }
        long off = map.mapIp(addr);
        Bytes file = obj.elf().bytes();
        if (off < 0 || off + 8 > file.size()) {
            return SOFT;
        }
        value = file.u64(off);
        return 0;
    }
}
