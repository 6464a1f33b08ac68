package io.perfj.report;

import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.record.Sample;
import io.perfj.symbols.Location;
import io.perfj.session.ChainWalk;
import io.perfj.session.FrameResolver;
import io.perfj.session.RecordHandler;
import io.perfj.session.SampleRef;
import io.perfj.session.Session;

import io.perfj.io.TextOut;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code perf script}'s default output (perf 6.1): per sample the command, tid, [cpu] (when the
 * recording has CPU), time, period and event name, then either one {@code ip sym+off (dso)} line
 * per callchain frame and a blank line, or the ip, symbol and DSO on the same line. {@code -F}
 * picks fields.
 */
public final class ScriptPrinter {
    /** Fields of {@code -F}. */
    public enum Field {
        COMM, TID, PID, CPU, TIME, PERIOD, EVENT, IP, SYM, SYMOFF, DSO, ADDR;

        public static Set<Field> parse(String spec) {
            Set<Field> out = EnumSet.noneOf(Field.class);
            for (String s : spec.split(",")) {
                String f = s.trim().toLowerCase(Locale.ROOT);
                if (f.isEmpty()) {
                    continue;
                }
                try {
                    out.add(Field.valueOf(f.toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("unknown field '" + s.trim()
                            + "' (supported: comm, tid, pid, cpu, time, period, event, ip, sym, symoff, dso, addr)");
                }
            }
            return out;
        }
    }

    private final Session session;
    private final PerfData data;
    private final FrameResolver resolver;
    private final TextOut out;
    private final Set<Field> requested;
    private final int maxStack;
    private final ChainWalk walk = new ChainWalk();

    /** Prints to {@code out} (bytes: names from the recording are written as UTF-8). */
    public ScriptPrinter(Session session, java.io.OutputStream out, Set<Field> fields, int maxStack) {
        this.session = session;
        this.data = session.data();
        this.resolver = session.resolver();
        this.out = new TextOut(out, 1 << 16);
        this.requested = fields;
        this.maxStack = maxStack;
    }

    private Set<Field> fieldsFor(Evsel e) {
        if (requested != null) {
            return requested;
        }
        Set<Field> f = EnumSet.of(Field.COMM, Field.TID, Field.TIME, Field.EVENT, Field.IP, Field.SYM, Field.DSO);
        long st = e.attr().sampleType();
        if ((st & SampleFormat.CPU) != 0 && systemWide()) {
            f.add(Field.CPU);
        }
        if ((st & SampleFormat.PERIOD) != 0) {
            f.add(Field.PERIOD);
        }
        if ((st & SampleFormat.CALLCHAIN) != 0) {
            f.add(Field.SYMOFF);
        }
        return f;
    }

    private Boolean systemWide;

    /**
     * perf shows the CPU column for recordings of all CPUs ({@code -a}); the recorded command
     * line tells.
     */
    private boolean systemWide() {
        if (systemWide == null) {
            boolean sw = false;
            io.perfj.io.Bytes payload = data.features().get(io.perfj.perfdata.FeatureId.CMDLINE);
            if (payload != null) {
                try {
                    if (io.perfj.perfdata.feature.Features.decode(io.perfj.perfdata.FeatureId.CMDLINE, payload, data)
                            instanceof io.perfj.perfdata.feature.Feature.Cmdline c) {
                        for (String a : c.argv()) {
                            if (a.equals("--")) {
                                break;
                            }
                            if (a.equals("-a") || a.equals("--all-cpus") || a.matches("-[a-zA-Z]*a[a-zA-Z]*")) {
                                sw = true;
                            }
                        }
                    }
                } catch (io.perfj.io.FormatException e) {
                    // no command line to go by
                }
            }
            systemWide = sw;
        }
        return systemWide;
    }

    /** Prints every sample; returns the record stream's warnings. */
    public List<String> print() {
        session.run(new RecordHandler() {
            private List<String> names = List.of();
            private int nameWidth;

            @Override
            public void sample(SampleRef ref) {
                Sample s = ref.sample();
                if (nameWidth == 0) {
                    // in pipe mode the events are known once samples come
                    names = session.eventNames();
                    for (String n : names) {
                        nameWidth = Math.max(nameWidth, n.length());
                    }
                }
                ScriptPrinter.this.sample(s, names.get(s.evsel().index()), nameWidth);
            }
        });
        out.flush();
        return session.recordWarnings();
    }

    private final List<Location> stack = new java.util.ArrayList<>();

    private void sample(Sample s, String event, int nameWidth) {
        Set<Field> f = fieldsFor(s.evsel());
        stack.clear();
        boolean chain = f.contains(Field.IP) && session.resolveStack(s, maxStack, walk, stack);
        if (f.contains(Field.COMM)) {
            String comm = resolver.comm(s.pid(), s.tid());
            if (chain) {
                out.str(comm);
            } else {
                out.strPad(comm, 16);
            }
            out.ch(' ');
        }
        if (f.contains(Field.PID) && f.contains(Field.TID)) {
            out.decPad(s.pid(), 5).ch('/').decLeft(s.tid(), 5).ch(' ');
        } else if (f.contains(Field.PID)) {
            out.decPad(s.pid(), 5).ch(' ');
        } else if (f.contains(Field.TID)) {
            out.decPad(s.tid(), 5).ch(' ');
        }
        if (f.contains(Field.CPU)) {
            out.ch('[').decZero(s.cpu(), 3).str("] ");
        }
        if (f.contains(Field.TIME)) {
            long t = s.time();
            long sec = Long.divideUnsigned(t, 1_000_000_000L);
            long usec = Long.remainderUnsigned(t, 1_000_000_000L) / 1000;
            // %12s of "sec.usec": the seconds' digits, a dot and six digits
            int width = Long.toUnsignedString(sec).length() + 7;
            out.spaces(12 - width).udec(sec).ch('.').decZero(usec, 6).str(": ");
        }
        if (f.contains(Field.PERIOD)) {
            out.strPad(Long.toUnsignedString(s.period()), 10).ch(' ');
        }
        if (f.contains(Field.EVENT)) {
            out.strPad(event, nameWidth).str(": ");
        }
        if (f.contains(Field.ADDR)) {
            out.hexSpaces(s.addr(), 16).ch(' ');
        }
        if (!f.contains(Field.IP)) {
            out.nl();
            return;
        }
        if (chain) {
            out.nl();
            for (Location l : stack) {
                out.ch('\t');
                frame(l, f);
                out.nl();
            }
            out.nl();
        } else {
            out.ch(' ');
            frame(stack.getFirst(), f);
            out.nl();
        }
    }

    private void frame(Location loc, Set<Field> f) {
        long addr = loc.dso() != null ? loc.mapIp() : loc.ip();
        out.hexSpaces(addr, 16);
        if (f.contains(Field.SYM)) {
            out.ch(' ');
            if (loc.symbol() != null) {
                out.str(loc.symbol().name());
                if (f.contains(Field.SYMOFF)) {
                    out.str("+0x").hex(loc.mapIp() - loc.symbol().start());
                }
            } else {
                out.str("[unknown]");
            }
        }
        if (f.contains(Field.DSO)) {
            String dso = loc.symbol() != null && loc.symbol().inlined() ? "inlined"
                    : loc.dso() == null ? "[unknown]" : loc.dso().longName();
            out.str(" (").str(dso).ch(')');
        }
    }

}
