package io.perfj.session;

import io.perfj.intelpt.InstructionWalker;
import io.perfj.intelpt.PtQueueRunner;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Machine;
import io.perfj.symbols.Map;
import io.perfj.symbols.Thread;

import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The instruction walk of an Intel PT decoder that has no traced code to read (perfj does not
 * decode x86 instructions; the recording holds none), failing as perf 6.1's walk fails when the
 * traced binaries are missing (intel-pt.c, intel_pt_walk_next_insn):
 * <ul>
 * <li>an address in no map of the thread is reported every time ("Failed to get instruction");</li>
 * <li>an address in an object perf cannot read is reported until perf has seen the object fail:
 *     twice (the first read marks the object's data unreadable, the second sees the mark), once
 *     for objects already marked before the decoder got to them: the objects a process maps
 *     before its [vdso] (on a recording without the binaries perf 6.1 already failed to open
 *     them while reading those mmaps: observed with strace, their files are looked up at their
 *     mmap records and no longer after the vdso's, which it can read), and in perf script the
 *     kernel (perf report reports the kernel twice: compared on the corpus's q-intel_pt-4.14,
 *     114 errors in script, 115 in report, the one more the second kernel address).</li>
 * </ul>
 * After an unreported failure perf's decoder goes on as after a reported one.
 */
public final class PerfNoTracedCode {
    private static final long KERNEL_START = 1L << 63;

    private final Machine machine;
    private final IdentityHashMap<Dso, Integer> failures = new IdentityHashMap<>();
    /** Objects perf tried to open while reading their mmaps, by file name. */
    private final Set<String> openedAtMmap = new HashSet<>();
    /** Processes whose vdso is mapped (after it perf stops opening objects at their mmaps). */
    private final Set<Integer> pastVdso = new HashSet<>();

    private final boolean kernelMarked;

    /** @param kernelMarked whether the kernel counts as marked before (perf script; not perf report) */
    public PerfNoTracedCode(Machine machine, boolean kernelMarked) {
        this.machine = machine;
        this.kernelMarked = kernelMarked;
    }

    /** A walker for the queue's thread as it is when the walk happens. */
    public InstructionWalker walker(PtQueueRunner.Queue q) {
        return (w, ip, toIp, max, insn) -> walk(q, ip);
    }

    /** An executable mmap of {@code pid}. */
    public void mapped(int pid, String filename, int prot) {
        if ((prot & Map.PROT_EXEC) == 0 || pastVdso.contains(pid)) {
            return;
        }
        if (filename.equals("[vdso]")) {
            pastVdso.add(pid);
        } else {
            openedAtMmap.add(filename);
        }
    }

    /** An exec of {@code pid}: a new address space, whose objects are opened at their mmaps again. */
    public void exec(int pid) {
        pastVdso.remove(pid);
    }

    private int walk(PtQueueRunner.Queue q, long ip) {
        boolean kernel = Long.compareUnsigned(ip, KERNEL_START) >= 0;
        Thread t = q.tid() == -1 ? null : machine.findThread(-1, q.tid());
        if (t == null && !kernel) {
            return InstructionWalker.NO_CODE;
        }
        Map m = machine.findMap(t, kernel ? Machine.CPUMODE_KERNEL : Machine.CPUMODE_USER, ip);
        if (m == null || m.dso() == null) {
            return InstructionWalker.NO_CODE;
        }
        Dso d = m.dso();
        int n = failures.merge(d, 1, Integer::sum);
        boolean markedBefore = kernel ? kernelMarked : openedAtMmap.contains(d.longName());
        return n <= (markedBefore ? 1 : 2) ? InstructionWalker.NO_CODE : InstructionWalker.NO_CODE_QUIET;
    }
}
