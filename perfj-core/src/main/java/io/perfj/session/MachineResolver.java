package io.perfj.session;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.symbols.Location;
import io.perfj.symbols.Machine;
import io.perfj.symbols.SymbolOptions;
import io.perfj.symbols.Thread;

import java.util.List;

/** The {@link FrameResolver} backed by the process model, {@link Machine}. */
public final class MachineResolver implements FrameResolver {
    private final Machine machine;
    private int lastPid = Integer.MIN_VALUE;
    private int lastTid = Integer.MIN_VALUE;
    private Thread last;

    public MachineResolver(PerfData data, SymbolOptions opts) {
        this.machine = new Machine(data, opts);
    }

    public Machine machine() {
        return machine;
    }

    private Thread thread(int pid, int tid) {
        if (pid != lastPid || tid != lastTid || last == null) {
            last = machine.thread(pid, tid);
            lastPid = pid;
            lastTid = tid;
        }
        return last;
    }

    @Override
    public void process(PerfRecord r) {
        machine.process(r);
        last = null;
    }

    @Override
    public Location resolve(int pid, int tid, int cpumode, long ip) {
        return machine.resolve(thread(pid, tid), cpumode, ip);
    }

    /** Makes sure the sample's thread exists, as locating or resolving the sample would. */
    public void seen(int pid, int tid) {
        thread(pid, tid);
    }


    /** The map a sample's address is in, or null, without making a {@link Location}. */
    public io.perfj.symbols.Map findMap(int pid, int tid, int cpumode, long ip) {
        return machine.findMap(thread(pid, tid), cpumode, ip);
    }

    @Override
    public String comm(int pid, int tid) {
        return thread(pid, tid).comm();
    }

    private io.perfj.dwarf.UserStackUnwinder unwinder;
    private boolean perfCompatibleUnwind = true;

    /**
     * Whether {@code --call-graph dwarf} stacks are unwound as perf 6.1 with libunwind does
     * (the default: the same frames perf prints, including where its unwinding goes wrong) or
     * with the call frame information alone (false).
     */
    public MachineResolver perfCompatibleUnwind(boolean on) {
        if (on != perfCompatibleUnwind) {
            perfCompatibleUnwind = on;
            unwinder = null;
        }
        return this;
    }

    @Override
    public long[] unwindUser(io.perfj.perfdata.record.Sample s) {
        if (s.userStack() == null || s.userRegs() == null) {
            return null;
        }
        if (unwinder == null) {
            unwinder = new io.perfj.dwarf.UserStackUnwinder(machine.finder(), perfCompatibleUnwind);
        }
        return unwinder.unwind(s, thread(s.pid(), s.tid()));
    }

    private io.perfj.symbols.Addr2Line addr2line;
    private final java.util.Map<java.nio.file.Path, long[]> segments = new java.util.HashMap<>();

    @Override
    public List<Location> withInlines(Location loc) {
        io.perfj.symbols.Symbol sym = loc.symbol();
        io.perfj.symbols.Dso dso = loc.dso();
        if (sym == null || dso == null || dso.kind() != io.perfj.symbols.DsoKind.USER) {
            return List.of(loc);
        }
        java.nio.file.Path file;
        try {
            file = machine.finder().find(dso);
        } catch (RuntimeException e) {
            return List.of(loc);
        }
        if (file == null) {
            return List.of(loc);
        }
        long vaddr = toVaddr(file, loc.mapIp());
        if (addr2line == null) {
            addr2line = new io.perfj.symbols.Addr2Line();
        }
        List<String> names = addr2line.functions(file, vaddr);
        if (names.isEmpty()) {
            return List.of(loc);
        }
        List<Location> out = new java.util.ArrayList<>(names.size());
        for (String n : names) {
            out.add(n.equals(sym.name()) ? loc : new Location(loc.map(), dso,
                    new io.perfj.symbols.Symbol(sym.start(), sym.end(), n, io.perfj.symbols.Symbol.INLINED),
                    loc.ip(), loc.mapIp(), loc.level()));
        }
        return out;
    }

    /** A file offset to the ELF address addr2line expects, through the runtime object's segments. */
    private long toVaddr(java.nio.file.Path file, long offset) {
        long[] segs = segments.computeIfAbsent(file, f -> {
            java.nio.file.Path runtime = f;
            if (f.getFileName() != null && f.getFileName().toString().equals("debug")
                    && java.nio.file.Files.isRegularFile(f.resolveSibling("elf"))) {
                runtime = f.resolveSibling("elf");
            }
            try (io.perfj.elf.ElfFile elf = io.perfj.elf.ElfFile.open(runtime)) {
                return elf.programHeaders().stream().filter(io.perfj.elf.ProgramHeader::isLoad)
                        .flatMapToLong(p -> java.util.stream.LongStream.of(p.offset(), p.filesz(), p.vaddr())).toArray();
            } catch (RuntimeException e) {
                return new long[0];
            }
        });
        for (int i = 0; i + 2 < segs.length; i += 3) {
            if (offset >= segs[i] && offset < segs[i] + Math.max(1, segs[i + 1])) {
                return offset - segs[i] + segs[i + 2];
            }
        }
        return offset;
    }

    public List<String> warnings() {
        return machine.warnings();
    }
}
