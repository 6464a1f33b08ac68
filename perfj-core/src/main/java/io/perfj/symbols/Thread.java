package io.perfj.symbols;

import java.util.ArrayList;
import java.util.List;

/**
 * A task as perf tracks it ({@code struct thread}): pid (the process, -1 until known), tid,
 * the parent's tid, the comm history and the address space, which the threads of a process share
 * with its leader (pid == tid).
 *
 * <p>A thread starts with the comm {@code :tid} until a COMM record (or a fork from a parent
 * with a comm) sets one; {@link #comm()} is the latest, which, with records delivered in time
 * order, is the comm perf reports for a sample being processed.
 */
public final class Thread {
    /** One entry of the comm history. */
    public record Comm(String name, long time, boolean exec) {
    }

    private volatile int pid;
    private final int tid;
    private volatile int ppid = -1;
    private volatile Maps maps;
    private final List<Comm> comms = new ArrayList<>();
    private volatile boolean commSet;
    private volatile boolean exited;

    Thread(int pid, int tid) {
        this.pid = pid;
        this.tid = tid;
        comms.add(new Comm(":" + tid, 0, false));
    }

    public int pid() {
        return pid;
    }

    public int tid() {
        return tid;
    }

    public int ppid() {
        return ppid;
    }

    void pid(int pid) {
        this.pid = pid;
    }

    void ppid(int ppid) {
        this.ppid = ppid;
    }

    /** The address space (shared with the process leader for non-leader threads). */
    public Maps maps() {
        return maps;
    }

    void maps(Maps maps) {
        this.maps = maps;
    }

    /** The current comm ({@code thread__comm_str}). */
    public synchronized String comm() {
        return comms.getLast().name();
    }

    /** The comm in effect at {@code time} ({@code thread__comm_by_time}): the latest set at or before it. */
    public synchronized String commAt(long time) {
        for (int i = comms.size() - 1; i >= 0; i--) {
            Comm c = comms.get(i);
            if (Long.compareUnsigned(c.time(), time) <= 0 || i == 0) {
                return c.name();
            }
        }
        return comms.getFirst().name();
    }

    public synchronized List<Comm> commHistory() {
        return List.copyOf(comms);
    }

    /** Whether a comm was set (otherwise the comm is the default {@code :tid}). */
    public boolean commSet() {
        return commSet;
    }

    /**
     * {@code __thread__set_comm}: the first comm replaces the default {@code :tid} entry, later
     * ones are added to the history.
     */
    synchronized void setComm(String name, long time, boolean exec) {
        if (!commSet) {
            comms.set(comms.size() - 1, new Comm(name, time, exec));
        } else {
            comms.add(new Comm(name, time, exec));
        }
        commSet = true;
    }

    public boolean exited() {
        return exited;
    }

    void exited(boolean v) {
        exited = v;
    }

    @Override
    public String toString() {
        return "Thread[" + pid + "/" + tid + " " + comm() + "]";
    }
}
