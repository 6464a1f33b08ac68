package io.perfj.serve;

import io.perfj.annotate.SourceLocator;
import io.perfj.bpf.RecordedBpf;
import io.perfj.perfdata.PerfData;
import io.perfj.profile.FlameTree;
import io.perfj.profile.Profile;
import io.perfj.profile.Frame;
import io.perfj.profile.StackTable;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.DefaultSymbolLoader;
import io.perfj.symbols.DsoFinder;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One recording the server was started with: its profile (read once), the options to open it
 * again with (annotate reads the file itself), and the lookups every view needs, computed once:
 * each frame's function (numbered stably for the whole run, so every view names a function by
 * the same id), each sample's leaf frame, and the time of the first sample.
 */
public final class Recording {
    private final String name;
    private final Path path;
    private final Profile profile;
    private final SessionOptions options;
    private final List<FlameTree.Function> functions = new ArrayList<>();
    private final Map<FlameTree.Function, Integer> functionIds = new HashMap<>();
    private final int[] frameFunction;
    private final long firstTime;
    private final long lastTime;

    private final int defaultEvent;
    /** A BPF program's translated instructions from bpftool (perf does not record them), or null. */
    private final byte[] xlatedInsns;
    /** The first frame of each function id (made on the first source question). */
    private volatile int[] functionFrame;
    private volatile SourceLocator sources;
    private volatile RecordedBpf bpf;

    /** For a live profile's snapshot: the samples summed, or -1 for a recording's own. */
    private long liveSamples = -1;
    /** Whether the profile is a fleet's ({@link #ofFleet}). */
    private boolean fleet;
    /** The samples the profile's samples stand for ({@link Profile#count}). */
    private final long counted;

    /**
     * Marks this as a live profile's snapshot ({@code perfj top --web}) of {@code samples}
     * samples (its profile holds sums, not samples): the page then asks again every second.
     */
    public Recording live(long samples) {
        liveSamples = samples;
        return this;
    }

    /**
     * A live profile's annotator ({@code perfj top --web}): a frame's symbol annotated from the
     * profile's per-address sums, as {@code perfj annotate} prints it with these options.
     */
    public interface LiveAnnotations {
        /** Prints {@code frame}'s annotation to {@code out} (nothing, with a warning, when there is none). */
        void annotate(Frame frame, io.perfj.annotate.Annotate.Options options, java.util.function.Consumer<String> warn,
                      io.perfj.annotate.Annotate.StringBuilderSink out);
    }

    private LiveAnnotations liveAnnotations;

    /** As {@link #live(long)}, its functions annotated by {@code annotations} (api/annotate). */
    public Recording live(long samples, LiveAnnotations annotations) {
        liveAnnotations = annotations;
        return live(samples);
    }

    /** The live profile's annotator, or null (a recording's annotations are read from its file). */
    LiveAnnotations liveAnnotations() {
        return liveAnnotations;
    }

    /** Whether this is a live profile's snapshot, which the page refreshes. */
    public boolean live() {
        return liveSamples >= 0;
    }

    /** The samples the page reports: the profile's, or a live snapshot's total. */
    public long samples() {
        return liveSamples >= 0 ? liveSamples : counted;
    }

    /** A recording whose first event sampled is shown first. */
    public Recording(String name, Path path, Profile profile, SessionOptions options) {
        this(name, path, profile, options, -1);
    }

    /** A recording whose event {@code defaultEvent} (an index of the profile's events; -1: the first sampled) is shown first. */
    public Recording(String name, Path path, Profile profile, SessionOptions options, int defaultEvent) {
        this(name, path, profile, options, defaultEvent, null);
    }

    /**
     * A recording, and the translated instructions of one of its BPF programs ({@code bpftool
     * prog dump xlated id N file FILE}; null: none) for annotate's bytecode view.
     */
    public Recording(String name, Path path, Profile profile, SessionOptions options, int defaultEvent,
            byte[] xlatedInsns) {
        this.xlatedInsns = xlatedInsns == null ? null : xlatedInsns.clone();
        this.defaultEvent = defaultEvent >= 0 && defaultEvent < profile.events().size() ? defaultEvent
                : Math.max(0, profile.firstSampled(null));
        this.name = name;
        this.path = path;
        this.profile = profile;
        this.options = options;
        frameFunction = new int[profile.frames().size()];
        for (int f = 0; f < frameFunction.length; f++) {
            frameFunction[f] = functionId(FlameTree.Function.of(profile.frames().get(f)));
        }
        long n = 0;
        for (int i = 0; i < profile.sampleCount(); i++) {
            n += profile.count(i);
        }
        counted = n;
        long[] range = profile.timeRange();
        firstTime = range == null ? 0 : range[0];
        lastTime = range == null ? 0 : range[1];
    }

    /**
     * The profile of a fleet (perfj-fleet's sums over many recordings): no one file is behind
     * it, so the views that read the file again (annotate, source positions) are not available;
     * {@code defaultEvent} as for a recording (-1: the first sampled).
     */
    public static Recording ofFleet(String name, Profile profile, int defaultEvent) {
        Recording r = new Recording(name, null, profile, null, defaultEvent, null);
        r.fleet = true;
        return r;
    }

    /** Whether the profile is a fleet's ({@link #ofFleet}), not one file's. */
    public boolean fleet() {
        return fleet;
    }

    /** The stable id of a function (added when first asked for). */
    public int functionId(FlameTree.Function f) {
        Integer id = functionIds.get(f);
        if (id == null) {
            id = functions.size();
            functions.add(f);
            functionIds.put(f, id);
        }
        return id;
    }

    public FlameTree.Function function(int id) {
        return id >= 0 && id < functions.size() ? functions.get(id) : null;
    }

    public int functionCount() {
        return functions.size();
    }

    /** The function of a frame of the profile. */
    public int frameFunction(int frame) {
        return frameFunction[frame];
    }

    /** The function of a stack's leaf frame (-1 for the empty stack). */
    public int leafFunction(int stack) {
        return stack == StackTable.EMPTY ? -1 : frameFunction[profile.stacks().frame(stack)];
    }

    /** The sample's own frame (null for a sample without one). */
    public Frame leafFrame(int sample) {
        int st = profile.stack(sample);
        return st == StackTable.EMPTY ? null : profile.frames().get(profile.stacks().frame(st));
    }

    /** The event a selection without one shows. */
    public int defaultEvent() {
        return defaultEvent;
    }

    public String name() {
        return name;
    }

    /** The recording's file (null for a fleet or a live profile). */
    public Path path() {
        return path;
    }

    public Profile profile() {
        return profile;
    }

    public SessionOptions options() {
        return options;
    }

    /** The translated BPF instructions given at start, or null. */
    byte[] xlatedInsns() {
        return xlatedInsns;
    }

    /** A frame of function {@code fn} (the first in the profile's frame table), or null. */
    public Frame frameOf(int fn) {
        int[] ff = functionFrame;
        if (ff == null) {
            ff = new int[functions.size()];
            java.util.Arrays.fill(ff, -1);
            for (int f = frameFunction.length - 1; f >= 0; f--) {
                ff[frameFunction[f]] = f;
            }
            functionFrame = ff;
        }
        return fn >= 0 && fn < ff.length && ff[fn] >= 0 ? profile.frames().get(ff[fn]) : null;
    }

    /** The recording's BPF programs and their BTF (read from the file on first use). */
    public RecordedBpf bpf() {
        RecordedBpf b = bpf;
        if (b == null) {
            try (PerfData data = PerfData.open(path)) {
                b = RecordedBpf.read(data);
            }
            bpf = b;
        }
        return b;
    }

    /** Function {@code fn}'s source position as {@code file:line}, or null when it is not known. */
    public String sourceText(int fn) {
        Frame f = frameOf(fn);
        SourceLocator.Place p = f == null ? null : sources().find(f.dso(), f.sym()).place();
        return p == null ? null : p.file() + ":" + p.line();
    }

    /** Source positions of the recording's functions, looked up when asked. */
    public SourceLocator sources() {
        SourceLocator s = sources;
        if (s == null) {
            var symbols = options.symbols();
            s = new SourceLocator(new DsoFinder(symbols, new DefaultSymbolLoader(symbols, io.perfj.symbols.UserSymbolRules.PERFJ)), this::bpf);
            sources = s;
        }
        return s;
    }

    /** The first sample's time (ns): the API's times are offsets from it. */
    public long firstTime() {
        return firstTime;
    }

    /** The last sample's time less the first's (ns). */
    public long duration() {
        return lastTime - firstTime;
    }
}
