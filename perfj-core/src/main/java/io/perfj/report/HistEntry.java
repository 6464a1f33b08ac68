package io.perfj.report;

/**
 * One row of a report: the values of the sort keys, the period and samples that landed in it
 * ({@code self}), those whose callchain passed through it ({@code acc}, for --children), and its
 * callchain tree.
 */
public final class HistEntry {
    final String comm;
    final int pid;
    final int tid;
    final int cpu;
    /**
     * Not final: under {@code --compat perf-6.1} perf re-resolves an entry's symbol when another
     * map's sample joins it (see {@link Hists}).
     */
    int frame;
    /** Created by a sample the filters turned away: counted, not shown (perf's he->filtered). */
    boolean filtered;
    /** The longest chain added to this entry's callchain tree (perf's callchain root max_depth). */
    int maxDepth;
    /** The map the entry's symbol was last resolved through (perf's {@code he->ms.map}), when perf's tree is emulated. */
    int map;
    long selfPeriod;
    long selfSamples;
    long accPeriod;
    long accSamples;
    CallchainNode chains;
    /** The thread's command name when the recording ends (what perf's "pid" column shows). */
    String threadComm;

    HistEntry(String comm, int pid, int tid, int cpu, int frame) {
        this.comm = comm;
        this.pid = pid;
        this.tid = tid;
        this.cpu = cpu;
        this.frame = frame;
    }

    public String comm() {
        return comm;
    }

    public int pid() {
        return pid;
    }

    public int tid() {
        return tid;
    }

    public int cpu() {
        return cpu;
    }

    /** The frame id (in the report's {@link FrameTable}), or -1 when neither dso nor sym is a key. */
    public int frame() {
        return frame;
    }

    public long selfPeriod() {
        return selfPeriod;
    }

    public long selfSamples() {
        return selfSamples;
    }

    public long accPeriod() {
        return accPeriod;
    }

    public long accSamples() {
        return accSamples;
    }

    /** The longest chain added to this entry's callchain tree (0 without callchains). */
    public int maxDepth() {
        return maxDepth;
    }

    public CallchainNode chains() {
        return chains;
    }
}
