package io.perfj.report;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.Sample;
import io.perfj.print.DumpPrinter;
import io.perfj.symbols.Machine;
import io.perfj.symbols.Map;
import io.perfj.symbols.SymbolOptions;

import java.util.List;

/** perf's thread/map lines for {@code dump}, from the {@link Machine}; no symbols are loaded but the kernel's. */
public final class MachineDumpModel implements DumpPrinter.Model {
    private final Machine machine;

    public MachineDumpModel(PerfData data, SymbolOptions opts) {
        this.machine = new Machine(data, opts);
    }

    @Override
    public void process(PerfRecord r) {
        machine.process(r);
    }

    @Override
    public String comm(int pid, int tid) {
        return machine.thread(pid, tid).comm();
    }

    @Override
    public String dsoName(Sample s) {
        int mode = s.cpumode();
        if (mode == 3) {
            return "[hypervisor]";
        }
        Map m = machine.findMap(machine.thread(s.pid(), s.tid()), mode, s.ip());
        return m == null || m.dso() == null ? "<not found>" : m.dso().longName();
    }

    public List<String> warnings() {
        return machine.warnings();
    }
}
