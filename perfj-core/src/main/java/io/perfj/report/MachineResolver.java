package io.perfj.report;

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

    @Override
    public String comm(int pid, int tid) {
        return thread(pid, tid).comm();
    }

    private io.perfj.dwarf.UserStackUnwinder unwinder;

    @Override
    public long[] unwindUser(io.perfj.perfdata.record.Sample s) {
        if (s.userStack() == null || s.userRegs() == null) {
            return null;
        }
        if (unwinder == null) {
            unwinder = new io.perfj.dwarf.UserStackUnwinder(machine.finder());
        }
        return unwinder.unwind(s, thread(s.pid(), s.tid()));
    }

    public List<String> warnings() {
        return machine.warnings();
    }
}
