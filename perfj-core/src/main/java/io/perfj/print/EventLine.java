package io.perfj.print;

import io.perfj.io.Bytes;
import io.perfj.io.TextOut;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.UserRecord;

/**
 * The fields of the records that describe processes, maps and the kernel (not samples) as perf
 * prints them after their {@code PERF_RECORD_NAME}: the same text in {@code perf report -D}
 * and, after its sample-like start, in {@code perf script --show-*-events} (perf's
 * {@code perf_event__fprintf} and its per-type helpers). LOST is the one kind the two print
 * differently; its script form is {@link #lost}.
 */
public final class EventLine {
    private EventLine() {
    }

    /**
     * {@code PERF_RECORD_NAME} and the record's fields, ending with a newline, as perf script
     * prints the side-band records it shows (LOST in script's form).
     */
    public static void print(PerfRecord rec, TextOut out) {
        out.str("PERF_RECORD_").str(RecordType.name(rec.type()));
        if (rec instanceof KernelRecord.Lost l) {
            lost(l, out);
        } else if (!fields(rec, out)) {
            out.nl();
        }
    }

    /** perf script's LOST fields: {@code " lost N"}. */
    static void lost(KernelRecord.Lost l, TextOut out) {
        out.str(" lost ").udec(l.lost()).nl();
    }

    /**
     * The fields after the record's name, with the newline, for the kinds both dump and script
     * print alike; false (nothing written) for others.
     */
    static boolean fields(PerfRecord rec, TextOut out) {
        switch (rec) {
            case KernelRecord.Mmap m -> out.ch(' ').dec(m.pid()).ch('/').dec(m.tid()).str(": [").hexAlt(m.start())
                    .ch('(').hexAlt(m.len()).str(") @ ").hexAlt(m.pgoff()).str("]: ").ch(m.data() ? 'r' : 'x')
                    .ch(' ').bytes(m.filenameBytes()).nl();
            case KernelRecord.Mmap2 m -> mmap2(m, out);
            case KernelRecord.Comm c -> out.str(c.exec() ? " exec" : "").str(": ").str(c.comm()).ch(':')
                    .dec(c.pid()).ch('/').dec(c.tid()).nl();
            case KernelRecord.Fork f -> task(f.pid(), f.tid(), f.ppid(), f.ptid(), out);
            case KernelRecord.Exit x -> task(x.pid(), x.tid(), x.ppid(), x.ptid(), out);
            case KernelRecord.Switch s -> out.ch(' ').str(inOut(s.out(), s.preempt())).nl();
            case KernelRecord.SwitchCpuWide s -> {
                out.ch(' ').str(inOut(s.out(), s.preempt())).str("  ").str(s.out() ? "next" : "prev")
                        .str(" pid/tid: ");
                String pid = Integer.toString(s.nextPrevPid());
                out.spaces(5 - pid.length()).str(pid).ch('/');
                String tid = Integer.toString(s.nextPrevTid());
                out.str(tid).spaces(5 - tid.length()).nl();
            }
            case KernelRecord.Namespaces n -> namespaces(n, out);
            case KernelRecord.Ksymbol k -> out.str(" addr ").hex(k.addr()).str(" len ").udec(k.len()).str(" type ")
                    .dec(k.ksymType()).str(" flags 0x").hex(k.flags()).str(" name ").str(k.name()).nl();
            case KernelRecord.BpfEvent b -> out.str(" type ").dec(b.eventType()).str(", flags ").dec(b.flags())
                    .str(", id ").udec(b.id()).nl();
            case KernelRecord.Cgroup c -> out.str(" cgroup: ").udec(c.id()).ch(' ').str(c.path()).nl();
            case KernelRecord.TextPoke t -> textPoke(t, out);
            case UserRecord.FinishedRound f -> out.nl();
            default -> {
                return false;
            }
        }
        return true;
    }

    private static void task(int pid, int tid, int ppid, int ptid, TextOut out) {
        out.ch('(').dec(pid).ch(':').dec(tid).str("):(").dec(ppid).ch(':').dec(ptid).str(")\n");
    }

    private static String inOut(boolean isOut, boolean preempt) {
        return !isOut ? "IN         " : !preempt ? "OUT        " : "OUT preempt";
    }

    private static void mmap2(KernelRecord.Mmap2 m, TextOut out) {
        out.ch(' ').dec(m.pid()).ch('/').dec(m.tid()).str(": [").hexAlt(m.start()).ch('(').hexAlt(m.len())
                .str(") @ ").hexAlt(m.pgoff());
        if (m.hasBuildId()) {
            out.str(" <");
            for (byte x : m.buildId()) {
                out.hex2(x & 0xff);
            }
            out.str(">]: ");
        } else {
            out.ch(' ').hexPad(m.maj() & 0xffff_ffffL, 2).ch(':').hexPad(m.min() & 0xffff_ffffL, 2).ch(' ')
                    .udec(m.ino()).ch(' ').udec(m.inoGeneration()).str("]: ");
        }
        int prot = m.prot();
        out.ch((prot & 1) != 0 ? 'r' : '-').ch((prot & 2) != 0 ? 'w' : '-').ch((prot & 4) != 0 ? 'x' : '-')
                .ch((m.flags() & 1) != 0 ? 's' : 'p').ch(' ').bytes(m.filenameBytes()).nl();
    }

    private static final String[] NS = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};

    private static void namespaces(KernelRecord.Namespaces n, TextOut out) {
        int nr = n.count();
        out.ch(' ').dec(n.pid()).ch('/').dec(n.tid()).str(" - nr_namespaces: ").dec(nr).str("\n\t\t[");
        for (int i = 0; i < nr; i++) {
            if (i != 0 && i % 4 == 0) {
                out.str("\n\t\t ");
            }
            out.u32(i).ch('/').str(i < NS.length ? NS[i] : "UNKNOWN").str(": ").udec(n.dev()[i]).ch('/')
                    .hexAlt(n.ino()[i]).str(i + 1 != nr ? ", " : "]\n");
        }
    }

    private static void textPoke(KernelRecord.TextPoke t, TextOut out) {
        out.ch(' ').hex(t.addr()).ch(' ');
        out.str(" old len ").dec(t.oldLen()).str(" new len ").dec(t.newLen()).nl();
        pokeBytes("old", t.bytes(), 0, t.oldLen(), out);
        pokeBytes("new", t.bytes(), t.oldLen(), t.newLen(), out);
    }

    private static void pokeBytes(String what, Bytes b, int from, int len, TextOut out) {
        for (int i = 0; i < len; i += 16) {
            out.str("     ").str(what).str(" bytes:");
            for (int k = i; k < Math.min(len, i + 16); k++) {
                out.ch(' ').hex2(b.u8(from + k));
            }
            out.nl();
        }
    }
}
