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

import java.io.PrintWriter;
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
    private final PrintWriter out;
    private final Set<Field> requested;
    private final int maxStack;
    private final ChainWalk walk = new ChainWalk();

    public ScriptPrinter(Session session, PrintWriter out, Set<Field> fields, int maxStack) {
        this.session = session;
        this.data = session.data();
        this.resolver = session.resolver();
        this.out = out;
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
        StringBuilder sb = new StringBuilder(128);
        stack.clear();
        boolean chain = f.contains(Field.IP) && session.resolveStack(s, maxStack, walk, stack);
        if (f.contains(Field.COMM)) {
            String comm = resolver.comm(s.pid(), s.tid());
            sb.append(chain ? comm : String.format("%16s", comm)).append(' ');
        }
        if (f.contains(Field.PID) && f.contains(Field.TID)) {
            sb.append(String.format("%5d/%-5d ", s.pid(), s.tid()));
        } else if (f.contains(Field.PID)) {
            sb.append(String.format("%5d ", s.pid()));
        } else if (f.contains(Field.TID)) {
            sb.append(String.format("%5d ", s.tid()));
        }
        if (f.contains(Field.CPU)) {
            sb.append(String.format("[%03d] ", s.cpu()));
        }
        if (f.contains(Field.TIME)) {
            long t = s.time();
            String ts = Long.toUnsignedString(Long.divideUnsigned(t, 1_000_000_000L)) + "."
                    + String.format("%06d", Long.remainderUnsigned(t, 1_000_000_000L) / 1000);
            sb.append(String.format("%12s: ", ts));
        }
        if (f.contains(Field.PERIOD)) {
            sb.append(String.format("%10s ", Long.toUnsignedString(s.period())));
        }
        if (f.contains(Field.EVENT)) {
            sb.append(String.format("%" + nameWidth + "s: ", event));
        }
        if (f.contains(Field.ADDR)) {
            sb.append(String.format("%16x ", s.addr()));
        }
        if (!f.contains(Field.IP)) {
            out.print(sb.append('\n'));
            return;
        }
        if (chain) {
            out.print(sb.append('\n'));
            StringBuilder lines = new StringBuilder();
            for (Location l : stack) {
                lines.append('\t');
                frame(lines, l, f, true);
                lines.append('\n');
            }
            out.print(lines.append('\n'));
        } else {
            sb.append(' ');
            frame(sb, stack.getFirst(), f, false);
            out.print(sb.append('\n'));
        }
    }

    private static void frame(StringBuilder sb, Location loc, Set<Field> f, boolean inChain) {
        long addr = loc.dso() != null ? loc.mapIp() : loc.ip();
        sb.append(String.format("%16x", addr));
        if (f.contains(Field.SYM)) {
            sb.append(' ');
            if (loc.symbol() != null) {
                sb.append(loc.symbol().name());
                if (f.contains(Field.SYMOFF)) {
                    sb.append("+0x").append(Long.toHexString(loc.mapIp() - loc.symbol().start()));
                }
            } else {
                sb.append("[unknown]");
            }
        }
        if (f.contains(Field.DSO)) {
            String dso = loc.symbol() != null && loc.symbol().inlined() ? "inlined"
                    : loc.dso() == null ? "[unknown]" : loc.dso().longName();
            sb.append(" (").append(dso).append(')');
        }
    }

}
