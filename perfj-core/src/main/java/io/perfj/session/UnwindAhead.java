package io.perfj.session;

import io.perfj.unwind.Unwinding;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.Sample;
import io.perfj.symbols.Addr2Line;
import io.perfj.symbols.Machine;

/**
 * Unwinds the user stacks of {@code --call-graph dwarf} samples on the decoding thread, ahead of
 * the consumer, which then only resolves the frames, and asks addr2line there for the functions
 * inlined at the frames the consumer will name (unwound, and recorded ones under
 * {@link RecordedInlines#NAMED}), so that each object's addr2line starts at its first sample, all
 * of them side by side, and answers while the samples wait in the queue. Unwinding needs the sample's address space
 * at its moment, and the consumer's process model is ahead or behind at any instant, so this
 * stage keeps a model of its own: a second {@link Machine} fed the same records in the same
 * order, whose threads are created at the same samples. It only answers which object an address
 * is in; no symbol table is loaded in it. The frames are the ones the consumer's model would give
 * (same records, same rules, same files), so the output does not depend on where they were
 * unwound.
 *
 * <p>When the model fails on a record, the stage stops ({@link DecodedRecords#NONE} from then on)
 * and the consumer unwinds itself; the consumer's model meets the same record and reports it.
 */
final class UnwindAhead implements SampleStage {
    private final Machine model;
    private final Unwinding unwinding;
    /** The same jitdump code loads the consumer's model gets, at the same moments. */
    private final JitInjection jit;
    private boolean stopped;

    /** Whether the inline chains of unwound frames are asked for ahead. */
    private final boolean inlines;
    /** What the consumer makes of recorded callchain addresses, asked for ahead as it will. */
    private final RecordedInlines recorded;
    private final ChainWalk walk = new ChainWalk();
    /** The model's side of {@link RecordedInlines#prefetch}. */
    private final FrameResolver prefetcher = new FrameResolver() {
        @Override
        public boolean prefetchInlines(int pid, int tid, int cpumode, long ip) {
            io.perfj.symbols.Map m = model.findMap(model.thread(pid, tid), cpumode, ip);
            return m != null && m.dso() != null && unwinding.prefetchInline(m.dso(), m.mapIp(ip));
        }

        @Override
        public void flushInlines() {
            unwinding.flushInlines();
        }

        @Override
        public void process(PerfRecord r) {
            throw new UnsupportedOperationException();
        }

        @Override
        public io.perfj.symbols.Location resolve(int pid, int tid, int cpumode, long ip) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String comm(int pid, int tid) {
            throw new UnsupportedOperationException();
        }
    };

    private UnwindAhead(PerfData data, SessionOptions options, Addr2Line names, boolean inlines, RecordedInlines recorded) {
        this.inlines = inlines;
        this.recorded = recorded;
        model = new Machine(data, options.symbols());
        jit = new JitInjection(data, options.symbols());
        unwinding = new Unwinding(model.finder(), names).method(options.quirks().unwinding())
                .arch(() -> io.perfj.dwarf.UnwindArch.of(data));
    }

    /**
     * The stage for a recording whose events copy user stacks, or whose callchains get the
     * functions inlined at their addresses ({@code recorded}), or null when there is nothing to
     * do ahead.
     *
     * @param names the consumer's addr2line processes: the stage asks them for the inline chains
     *              of the frames it unwinds, so that the answers are in when the consumer needs them
     *              (asked for only when there is a stage: making them sets up the consumer's
     *              unwinding state, which a recording without stacks never needs)
     * @param inlines whether the consumer names inlined frames (else nothing is asked)
     * @param recorded what the consumer makes of recorded callchain addresses (when it names
     *                 inlined frames)
     */
    static UnwindAhead forRecording(PerfData data, SessionOptions options, java.util.function.Supplier<Addr2Line> names,
                                    boolean inlines, RecordedInlines recorded) {
        RecordedInlines asked = inlines ? recorded : RecordedInlines.NONE;
        for (Evsel e : data.evlist().evsels()) {
            long st = e.attr().sampleType();
            if ((st & SampleFormat.STACK_USER) != 0 && (st & SampleFormat.REGS_USER) != 0
                    || asked != RecordedInlines.NONE && (st & SampleFormat.CALLCHAIN) != 0) {
                return new UnwindAhead(data, options, names.get(), inlines, asked);
            }
        }
        return null;
    }

    @Override
    public void record(PerfRecord r) {
        if (stopped) {
            return;
        }
        try {
            if (jit.any() && r instanceof io.perfj.perfdata.record.KernelRecord k && k.sampleId().time() != -1) {
                injectDue(k.sampleId().time());
            }
            if (jit.drops(r)) {
                return;
            }
            model.process(r);
            unwinding.addressSpacesChanged();
            jit.mapped(r, model);
        } catch (RuntimeException e) {
            stopped = true;
        }
    }

    @Override
    public Object sample(Sample s) {
        if (stopped) {
            return DecodedRecords.NONE;
        }
        if (jit.any()) {
            try {
                injectDue(s.time());
            } catch (RuntimeException e) {
                stopped = true;
                return DecodedRecords.NONE;
            }
        }
        // as the consumer's lookups create the sample's thread, whether or not it has a stack
        io.perfj.symbols.Thread t = model.thread(s.pid(), s.tid());
        long[] frames = s.userStack() == null || s.userRegs() == null ? null : unwinding.unwind(s, t);
        if (inlines && frames != null) {
            unwinding.prefetchInlines(frames, t);
        }
        if (recorded != RecordedInlines.NONE && s.callchain() != null
                && walk.walk(s, frames, Session.DEFAULT_MAX_STACK)) {
            recorded.prefetch(prefetcher, walk, s.pid(), s.tid());
        }
        return frames;
    }

    private void injectDue(long time) {
        boolean any = false;
        for (PerfRecord r; (r = jit.due(time)) != null; ) {
            model.process(r);
            any = true;
        }
        if (any) {
            unwinding.addressSpacesChanged();
        }
    }

    /** Unmaps the objects the stage read. */
    void close() {
        unwinding.close();
    }
}
