package io.perfj.unwind;

import io.perfj.dwarf.UnwindArch;
import io.perfj.perfdata.record.Sample;
import io.perfj.symbols.Addr2Line;
import io.perfj.symbols.DsoFinder;
import io.perfj.symbols.InlineFrames;
import io.perfj.symbols.Location;
import io.perfj.symbols.ObjectCache;
import io.perfj.symbols.Thread;

import java.util.List;
import java.util.function.Supplier;

/**
 * The per-run state behind {@code --call-graph dwarf} stacks: one {@link ObjectCache} (each object
 * found and mapped once), one {@link UnwindObjects} (each object's call frame index built once and
 * shared by all processes), the unwinder of the chosen mode, and inline-frame naming over the same
 * files. A report or script holds one for the whole recording; {@link #close()} unmaps the files
 * and ends the helper processes.
 */
public final class Unwinding implements AutoCloseable {
    private final ObjectCache files;
    private final UnwindObjects objects;
    private final InlineFrames inlines;
    private UnwindMethod method = UnwindMethod.CFI;
    private UserStackUnwinder unwinder;
    /** The recording's architecture, asked when the first stack is unwound (a pipe names it late). */
    private Supplier<UnwindArch> arch = () -> UnwindArch.X86_64;

    public Unwinding(DsoFinder finder) {
        this.files = new ObjectCache(finder);
        this.objects = new UnwindObjects(files);
        this.inlines = new InlineFrames(files);
    }

    /**
     * An unwinding whose inline names go to another's addr2line processes ({@link #inlineNames()}
     * of the consumer's unwinding): one unwinding ahead of the consumer asks them early
     * ({@link #prefetchInlines}); closing this one leaves them running.
     */
    public Unwinding(DsoFinder finder, Addr2Line names) {
        this.files = new ObjectCache(finder);
        this.objects = new UnwindObjects(files);
        this.inlines = new InlineFrames(files, names);
    }

    /** The addr2line processes that name this unwinding's inlined frames. */
    public Addr2Line inlineNames() {
        return inlines.names();
    }

    /**
     * Asks now for the inline chains of unwound frames (of {@code thread}'s address space) that
     * {@link #withInlines} will be asked for later, so that addr2line answers while the sample
     * waits in the queue. Only a hint: frames are named the same either way.
     */
    public void prefetchInlines(long[] frames, Thread thread) {
        if (frames == null || thread == null) {
            return;
        }
        boolean asked = false;
        for (long ip : frames) {
            io.perfj.symbols.Map m = thread.maps().find(ip);
            if (m != null && m.dso() != null) {
                asked |= inlines.prefetch(m.dso(), m.mapIp(ip));
            }
        }
        if (asked) {
            inlines.flush();
        }
    }

    /** How stacks are walked ({@link UnwindMethod#CFI} unless set). */
    public Unwinding method(UnwindMethod m) {
        if (m != method) {
            method = m;
            unwinder = null;
        }
        return this;
    }

    /**
     * The architecture of the stacks to unwind ({@link UnwindArch#of}; null: none this unwinder
     * knows), asked for when the first one is; x86-64 unless set.
     */
    public Unwinding arch(Supplier<UnwindArch> of) {
        arch = of;
        unwinder = null;
        return this;
    }

    /** Must be called after every record that may change a process's maps (see {@link UnwindObjects#addressSpacesChanged()}). */
    public void addressSpacesChanged() {
        objects.addressSpacesChanged();
    }

    /** The sample's user frames, innermost first, or null when it carries no user stack. */
    public long[] unwind(Sample s, Thread thread) {
        if (s.userStack() == null || s.userRegs() == null) {
            return null;
        }
        if (unwinder == null) {
            unwinder = new UserStackUnwinder(objects, method, arch.get());
        }
        return unwinder.unwind(s, thread);
    }

    /** An unwound frame with the functions inlined at it (see {@link InlineFrames}). */
    public List<Location> withInlines(Location loc) {
        return inlines.withInlines(loc);
    }

    /**
     * Asks now for the inline chain {@link #withInlinesAndFrame} will want at an object's address
     * ({@link InlineFrames#prefetchRecorded}); see {@link #flushInlines}.
     */
    public boolean prefetchInline(io.perfj.symbols.Dso dso, long mapIp) {
        return inlines.prefetchRecorded(dso, mapIp);
    }

    /** Sends the questions {@link #prefetchInline} asked. */
    public void flushInlines() {
        inlines.flush();
    }

    /** A recorded callchain frame with the functions inlined at it ({@link InlineFrames#withInlinesAndFrame}). */
    public List<Location> withInlinesAndFrame(Location loc) {
        return inlines.withInlinesAndFrame(loc);
    }

    @Override
    public void close() {
        inlines.close();
        files.close();
    }
}
