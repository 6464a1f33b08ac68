package io.perfj.report;

import io.perfj.profile.FrameTable;

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
     * The values of the trace sort keys (trace, trace_fields), or null when neither is a key or
     * the event is no tracepoint (perf prints "N/A" then, and compares all such rows equal).
     */
    final TraceTexts.Value trace;
    /** The srcline and srcfile keys' values, or null when neither is a key. */
    SourceLines.Text source;
    /**
     * Not final: under {@code --compat perf-6.1} perf re-resolves an entry's symbol when another
     * map's sample joins it (see {@link Hists}).
     */
    int frame;
    /** The parent symbol's name (see {@link SortKey#PARENT}), or null: none, or no parent key. */
    String parent;
    /** Created by a sample the filters turned away: counted, not shown (perf's he->filtered). */
    boolean filtered;
    /** The longest chain added to this entry's callchain tree (perf's callchain root max_depth). */
    int maxDepth;
    /** The map the entry's symbol was last resolved through (perf's {@code he->ms.map}), when perf's tree is emulated. */
    int map;
    /** The entry's number in the order entries were made (default mode). */
    int id;
    /** The last sample row that reached this entry (each row counts an entry once). */
    int row;
    long selfPeriod;
    long selfSamples;
    /** The part of {@link #selfPeriod} sampled in the kernel, and in user space (perf's period_sys, period_us). */
    long sysPeriod;
    long usPeriod;
    long accPeriod;
    long accSamples;
    CallchainNode chains;
    /** The thread's command name when the recording ends (what perf's "pid" column shows). */
    String threadComm;
    /**
     * In an event group's leader: the members' entries of the same row, by position in the
     * group (0, the leader, unused; null where a member has none). Null outside groups.
     */
    HistEntry[] pairs;
    /** In a group member: whether the entry is some leader row's pair already. */
    boolean paired;

    HistEntry(String comm, int pid, int tid, int cpu, int frame) {
        this(comm, pid, tid, cpu, frame, null);
    }

    HistEntry(String comm, int pid, int tid, int cpu, int frame, TraceTexts.Value trace) {
        this.trace = trace;
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

    /** The formatted trace fields when trace is a sort key and the event a tracepoint, else null. */
    public byte[] trace() {
        return trace == null ? null : trace.text();
    }

    /** Each field's bytes when trace_fields is a sort key and the event a tracepoint, else null. */
    public byte[][] traceFields() {
        return trace == null ? null : trace.keys();
    }

    /** The trace_fields columns' texts, or null (see {@link #traceFields()}). */
    String[] traceColumns() {
        return trace == null ? null : trace.columns();
    }

    /** The srcline key's text ({@code file.c:42}), or empty when the source keys are no keys. */
    public String srcline() {
        return source == null ? "" : source.line();
    }

    /** The srcfile key's text (empty without one). */
    public String srcfile() {
        return source == null ? "" : source.file();
    }

    /** The parent symbol's name, or null (none, or no parent key). */
    public String parent() {
        return parent;
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

    /** The part of the entry's own period sampled in the kernel. */
    public long sysPeriod() {
        return sysPeriod;
    }

    /** The part of the entry's own period sampled in user space. */
    public long usPeriod() {
        return usPeriod;
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

    /**
     * The entry of the same row in the group's member {@code idx} (its position in the group),
     * or null when that member has none or this is no group leader's entry.
     */
    public HistEntry pair(int idx) {
        return pairs == null || idx >= pairs.length ? null : pairs[idx];
    }

    /** A group member's row of this leader entry's: its own period (0 when it has none). */
    long pairSelf(int idx) {
        HistEntry p = pair(idx);
        return p == null ? 0 : p.selfPeriod;
    }

    void pair(int idx, HistEntry member, int nrMembers) {
        if (pairs == null) {
            pairs = new HistEntry[nrMembers];
        }
        // two member rows meeting one leader row: perf's list would hold both; the first is printed
        if (pairs[idx] == null) {
            pairs[idx] = member;
        }
        member.paired = true;
    }

    /**
     * perf's dummy entry ({@code hists__add_dummy_entry}): a leader row for a member's row the
     * leader has no samples in, with the member's keys and nothing counted.
     */
    static HistEntry dummyOf(HistEntry member) {
        HistEntry d = new HistEntry(member.comm, member.pid, member.tid, member.cpu, member.frame, member.trace);
        d.filtered = member.filtered;
        d.source = member.source;
        d.parent = member.parent;
        d.map = member.map;
        d.threadComm = member.threadComm;
        return d;
    }
}
