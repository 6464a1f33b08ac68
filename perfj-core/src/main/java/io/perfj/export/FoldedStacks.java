package io.perfj.export;

import io.perfj.profile.Frame;
import io.perfj.profile.Profile;
import io.perfj.profile.StackTable;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Symbol;
import io.perfj.util.LongIntMap;

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
 * <p>Built on the {@link Profile}: each distinct (command, stack) is folded once, and each frame
 * named once.
 */
public final class FoldedStacks {
    private final Profile profile;
    private final int event;
    private final boolean otherEvents;

    /**
     * Folds the profile's samples of {@code event} (its name as {@code perfj script} prints it,
     * or that name without its {@code :modifiers}; null: the event of the first sample).
     */
    public FoldedStacks(Profile profile, String event) {
        this.profile = profile;
        this.event = profile.firstSampled(event);
        this.otherEvents = this.event >= 0 ? profile.hasOtherEvents(this.event) : profile.sampleCount() > 0;
    }

    /** The event folded (null when the recording has no samples of the one asked for, or none). */
    public String event() {
        return event < 0 ? null : profile.events().get(event);
    }

    /** Whether samples of other events were left out. */
    public boolean otherEvents() {
        return otherEvents;
    }

    /** Writes the folded lines to {@code out}; returns the number of lines. */
    public long write(OutputStream out) throws IOException {
        if (event < 0) {
            out.flush();
            return 0;
        }
        String name = profile.events().get(event);
        // (command, stack) pairs first, each weighed once
        Map<String, Integer> comms = new HashMap<>();
        List<String> commNames = new ArrayList<>();
        LongIntMap pairs = new LongIntMap(1 << 12);
        long[] keys = new long[1024];
        long[] weights = new long[1024];
        int distinct = 0;
        for (int i = 0; i < profile.sampleCount(); i++) {
            if (!profile.events().get(profile.event(i)).equals(name)) {
                continue;
            }
            String comm = profile.comm(profile.thread(i));
            Integer c = comms.get(comm);
            if (c == null) {
                c = commNames.size();
                comms.put(comm, c);
                commNames.add(comm);
            }
            long key = ((long) c << 32) | (profile.stack(i) & 0xffffffffL);
            int at = pairs.get(key, -1);
            if (at < 0) {
                at = distinct++;
                pairs.put(key, at);
                if (at == keys.length) {
                    keys = Arrays.copyOf(keys, at * 2);
                    weights = Arrays.copyOf(weights, at * 2);
                }
                keys[at] = key;
            }
            weights[at] += profile.weight(i);
        }
        // stacks that differ only in what folding drops (addresses of frames without a symbol,
        // argument lists) fold to one line
        Namer namer = new Namer(profile);
        Map<String, long[]> folded = new HashMap<>();
        for (int k = 0; k < distinct; k++) {
            String comm = commNames.get((int) (keys[k] >>> 32));
            folded.computeIfAbsent(namer.stack(comm, (int) keys[k]), x -> new long[1])[0] += weights[k];
        }
        byte[][] lines = new byte[folded.size()][];
        int k = 0;
        for (Map.Entry<String, long[]> e : folded.entrySet()) {
            lines[k++] = (e.getKey() + " " + e.getValue()[0] + "\n").getBytes(StandardCharsets.UTF_8);
        }
        Arrays.sort(lines, Arrays::compareUnsigned);
        for (byte[] l : lines) {
            out.write(l);
        }
        out.flush();
        return lines.length;
    }

    /** Folded names of frames, each frame named once for Java commands and once for others. */
    private static final class Namer {
        private final Profile profile;
        private final Map<Integer, List<String>> plain = new HashMap<>();
        private final Map<Integer, List<String>> java = new HashMap<>();
        private final StringBuilder b = new StringBuilder(256);
        private int[] frames = new int[128];

        Namer(Profile profile) {
            this.profile = profile;
        }

        String stack(String comm, int stack) {
            boolean isJava = comm.startsWith("java");
            StackTable stacks = profile.stacks();
            int depth = stacks.depth(stack);
            if (depth > frames.length) {
                frames = new int[depth];
            }
            int i = depth;
            for (int s = stack; s != StackTable.EMPTY; s = stacks.parent(s)) {
                frames[--i] = stacks.frame(s);
            }
            b.setLength(0);
            b.append(comm.replace(' ', '_'));
            for (int f = 0; f < depth; f++) {
                for (String n : names(frames[f], isJava)) {
                    b.append(';').append(n);
                }
            }
            return b.toString();
        }

        private List<String> names(int frame, boolean isJava) {
            Map<Integer, List<String>> cache = isJava ? java : plain;
            List<String> n = cache.get(frame);
            if (n == null) {
                Frame f = profile.frames().get(frame);
                Symbol sym = f.sym();
                Dso dso = f.dso();
                String object = sym != null && sym.inlined() ? "inlined" : dso == null ? "[unknown]" : dso.longName();
                n = FrameNames.of(sym == null ? null : sym.name(), object, isJava);
                cache.put(frame, n);
            }
            return n;
        }
    }
}
