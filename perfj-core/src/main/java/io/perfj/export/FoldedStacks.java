package io.perfj.export;

import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.record.Sample;
import io.perfj.report.StackTable;
import io.perfj.session.ChainWalk;
import io.perfj.session.RecordHandler;
import io.perfj.session.SampleRef;
import io.perfj.session.Session;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Location;
import io.perfj.symbols.Symbol;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Folded stacks, the input of FlameGraph's {@code flamegraph.pl}: one line per distinct stack,
 * {@code comm;outermost;...;leaf weight}, as {@code perf script | stackcollapse-perf.pl} prints
 * them with that script's default options. The stacks are the ones {@code perfj script} prints
 * and each frame is named by the script's rules: the {@code +0x} offset dropped, a frame without
 * a symbol shown as {@code [object file name]} (or {@code [unknown]}), argument lists and quotes
 * dropped ({@code (anonymous namespace)} and Go's {@code pkg.(*T).m} kept), {@code ;} written as
 * {@code :}, spaces in the command name as {@code _}, Java's {@code L} class prefix dropped for
 * commands named {@code java...}. The weight is the sample's period when the event records one,
 * else 1. Only one event is folded (weights of different events do not add up): the one asked
 * for, else the first one sampled; {@link #otherEvents()} says whether samples were left out.
 *
 * <p>Lines come sorted by their bytes, as the script sorts them. Where the script's text parsing
 * would misread perf's output, this class keeps the recording's values: a one-character command
 * name or one that contains a number between spaces is kept whole, and a sample without a
 * callchain is its sampled frame (the script drops such samples, and so folds a recording made
 * without {@code -g} to nothing).
 *
 * <p>Memory grows with distinct stacks, not samples: stacks are interned as nodes of a
 * {@link StackTable} (command name at the root, the sampled frame at the leaf) and each frame
 * is named once per symbol.
 */
public final class FoldedStacks {
    private final Session session;
    private final int maxStack;
    private final String event;

    private final StackTable stacks = new StackTable();
    private long[] weights = new long[1024];
    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> nameIds = new HashMap<>();
    /** Names of frames by symbol name (or object name), for other commands and for Java's. */
    private final Map<String, int[]> plainFrames = new HashMap<>();
    private final Map<String, int[]> javaFrames = new HashMap<>();
    private final Map<String, Integer> commRoots = new HashMap<>();
    private String folded;
    private boolean otherEvents;
    private long samples;

    /**
     * Folds the session's samples of {@code event} (its name as {@code perfj script} prints it,
     * or that name without its {@code :modifiers}; null: the first event sampled), at most
     * {@code maxStack} frames a sample.
     */
    public FoldedStacks(Session session, String event, int maxStack) {
        this.session = session;
        this.event = event;
        this.maxStack = maxStack;
    }

    /** Reads every sample and writes the folded lines to {@code out}; returns the lines written. */
    public long write(OutputStream out) throws IOException {
        read();
        int n = 0;
        for (int s = 0; s < stacks.size(); s++) {
            if (weights[s] != 0) {
                n++;
            }
        }
        byte[][] lines = new byte[n][];
        int k = 0;
        for (int s = 0; s < stacks.size(); s++) {
            if (weights[s] != 0) {
                lines[k++] = line(s);
            }
        }
        Arrays.sort(lines, Arrays::compareUnsigned);
        for (byte[] l : lines) {
            out.write(l);
        }
        out.flush();
        return n;
    }

    /** The event folded (null when the recording has no samples of the one asked for, or none). */
    public String event() {
        return folded;
    }

    /** Whether samples of other events were left out. */
    public boolean otherEvents() {
        return otherEvents;
    }

    /** Samples folded. */
    public long samples() {
        return samples;
    }

    private void read() {
        ChainWalk walk = new ChainWalk();
        List<Location> frames = new ArrayList<>();
        session.run(new RecordHandler() {
            private List<String> events = List.of();

            @Override
            public void sample(SampleRef ref) {
                Sample s = ref.sample();
                if (events.size() <= s.evsel().index()) {
                    events = session.eventNames(); // in pipe mode events come with the samples
                }
                String name = events.get(s.evsel().index());
                if (folded == null && (event == null || event.equals(name) || name.startsWith(event + ":"))) {
                    folded = name;
                }
                if (!name.equals(folded)) {
                    otherEvents = true;
                    return;
                }
                frames.clear();
                if (!session.resolveStack(s, maxStack, walk, frames) && frames.isEmpty()) {
                    frames.add(session.resolver().resolve(s.pid(), s.tid(), s.cpumode(), s.ip()));
                }
                String comm = session.resolver().comm(s.pid(), s.tid());
                long weight = (s.evsel().attr().sampleType() & SampleFormat.PERIOD) != 0 ? s.period() : 1;
                add(comm, frames, weight);
            }
        });
    }

    private void add(String comm, List<Location> frames, long weight) {
        Integer root = commRoots.get(comm);
        if (root == null) {
            root = stacks.push(StackTable.EMPTY, id(comm.replace(' ', '_')));
            commRoots.put(comm, root);
        }
        boolean java = comm.startsWith("java");
        int stack = root;
        for (int i = frames.size() - 1; i >= 0; i--) {
            for (int name : frameNames(frames.get(i), java)) {
                stack = stacks.push(stack, name);
            }
        }
        if (stack >= weights.length) {
            weights = Arrays.copyOf(weights, Math.max(stack + 1, weights.length * 2));
        }
        weights[stack] += weight;
        samples++;
    }

    /** The names a frame folds to, outermost first (a name with {@code ->} is several). */
    private int[] frameNames(Location loc, boolean java) {
        Symbol sym = loc.symbol();
        Dso dso = loc.dso();
        // a frame's names depend on its symbol's name, or without one on its object's name
        String object = sym != null && sym.inlined() ? "inlined" : dso == null ? "[unknown]" : dso.longName();
        String key = sym == null ? "\0" + object : object.contains(" (") ? sym.name() + "\0" + object : sym.name();
        Map<String, int[]> cache = java ? javaFrames : plainFrames;
        int[] ids = cache.get(key);
        if (ids == null) {
            ids = ids(FrameNames.of(sym != null ? sym.name() : null, object, java));
            cache.put(key, ids);
        }
        return ids;
    }

    private int[] ids(List<String> folded) {
        int[] out = new int[folded.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = id(folded.get(i));
        }
        return out;
    }

    private int id(String name) {
        Integer id = nameIds.get(name);
        if (id == null) {
            id = names.size();
            names.add(name);
            nameIds.put(name, id);
        }
        return id;
    }

    private byte[] line(int stack) {
        int[] f = stacks.frames(stack); // root (command) first
        StringBuilder b = new StringBuilder(16 * f.length + 24);
        for (int i = 0; i < f.length; i++) {
            if (i > 0) {
                b.append(';');
            }
            b.append(names.get(f[i]));
        }
        b.append(' ').append(weights[stack]).append('\n');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }
}
