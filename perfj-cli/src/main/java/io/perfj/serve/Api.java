package io.perfj.serve;

import io.perfj.profile.FlameTree;
import io.perfj.profile.Profile;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The query layer: each API name answered from the recordings' profiles, read once at start.
 * Trees and per-stack weights are cached per selection (a few recent ones), so that zooming,
 * searching and opening the other views of the same selection do not aggregate again.
 */
public final class Api {
    private static final int CACHED = 6;

    private final Recording[] recordings;
    private final Map<Selection, FlameIndex> trees = lru();
    private final Map<Selection, FunctionViews> functionViews = lru();
    private final Map<Selection, FlameIndex> diffs = lru();
    private final Map<String, String> annotations = lru();
    private final Map<Integer, String> sources = new java.util.concurrent.ConcurrentHashMap<>();

    /** The meta answer (it takes no parameters), made once. */
    private String meta;

    public Api(Recording... recordings) {
        if (recordings.length == 0 || recordings.length > 2) {
            throw new IllegalArgumentException("one recording, or two to compare");
        }
        this.recordings = recordings.clone();
    }

    private static <K, V> Map<K, V> lru() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > CACHED;
            }
        };
    }

    /** The names answered; anything else is not found. */
    static final java.util.Set<String> NAMES = java.util.Set.of("meta", "flame", "search", "calltree", "top",
            "butterfly", "timeline", "annotate", "source", "diff", "diffchanged");

    /** The JSON answer to API call {@code name} (one of {@link #NAMES}) with these parameters. */
    public String answer(String name, Map<String, String> q) {
        Recording r = recordings[0];
        JsonOut out = new JsonOut();
        switch (name) {
            case "meta" -> {
                synchronized (this) {
                    if (meta == null) {
                        MetaView.write(out, recordings);
                        meta = out.toString();
                    }
                    return meta;
                }
            }
            case "flame" -> flameView(r, Selection.parse(q, r)).flame(out, (int) number(q, "root", 0), minShare(q));
            case "search" -> flameView(r, Selection.parse(q, r)).search(out, text(q, "q"), 1000);
            case "calltree" -> flameView(r, Selection.parse(q, r)).callTree(out, (int) number(q, "node", 0));
            case "top" -> functions(r, Selection.parse(q, r)).top(out, "total".equals(q.get("sort")),
                    (int) Math.min(5000, number(q, "limit", 200)));
            case "butterfly" -> flameView(r, Selection.parse(q, r)).butterfly(out, (int) number(q, "fn", -1));
            case "timeline" -> TimelineView.write(out, r, Selection.parse(q, r).anyTime().samples(r),
                    "cpu".equals(q.get("by")), (int) number(q, "buckets", 200));
            case "annotate" -> {
                fileNeeded(r, name);
                return annotate(r, (int) number(q, "fn", -1), "xlated".equals(q.get("view")));
            }
            case "source" -> {
                fileNeeded(r, name);
                return source(r, (int) number(q, "fn", -1));
            }
            case "diff" -> {
                FlameIndex d = diff(q);
                new FlameView(d, d.tree::functionAt).flame(out, (int) number(q, "root", 0), minShare(q));
            }
            case "diffchanged" -> DiffView.changed(out, diff(q).tree, (int) Math.min(1000, number(q, "limit", 50)));
            default -> throw new BadRequest("no such call");
        }
        return out.toString();
    }

    /**
     * Aggregates what the page asks for first (meta, the default selection's flame tree and its
     * function sums), so that the first page is drawn from cached answers: the command calls this
     * before it announces the address.
     */
    public void warm() {
        Map<String, String> none = Map.of();
        answer("meta", none);
        answer("flame", none);
        answer("top", Map.of("limit", "1"));
    }

    /** A view that reads the recording's file again has none to read in a fleet or a live profile. */
    private static void fileNeeded(Recording r, String view) {
        if (r.fleet()) {
            throw new BadRequest(view + ": not available for a fleet (its samples come from many recordings; "
                    + "serve one of them for this view)");
        }
        if (r.path() == null && r.liveAnnotations() == null && view.equals("annotate")) {
            throw new BadRequest("annotate: this profile has no file to read the samples' addresses from");
        }
    }

    private static double minShare(Map<String, String> q) {
        String v = q.get("min");
        try {
            double d = v == null ? 0.001 : Double.parseDouble(v);
            return Double.isNaN(d) ? 0.001 : Math.max(0, Math.min(1, d));
        } catch (NumberFormatException e) {
            throw new BadRequest("min: not a number");
        }
    }

    private static long number(Map<String, String> q, String key, long dflt) {
        String v = q.get(key);
        try {
            return v == null || v.isEmpty() ? dflt : Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new BadRequest(key + ": not a number");
        }
    }

    private static String text(Map<String, String> q, String key) {
        String v = q.get(key);
        if (v == null) {
            throw new BadRequest(key + ": missing");
        }
        return v;
    }

    /** The selection's flame tree (built once per selection). */
    FlameIndex tree(Recording r, Selection s) {
        synchronized (trees) {
            FlameIndex t = trees.get(s);
            if (t == null) {
                t = new FlameIndex(FlameTree.of(r.profile(), s.samples(r), false), r);
                trees.put(s, t);
            }
            return t;
        }
    }

    private FlameView flameView(Recording r, Selection s) {
        return new FlameView(tree(r, s), r::function);
    }

    private FunctionViews functions(Recording r, Selection s) {
        synchronized (functionViews) {
            FunctionViews f = functionViews.get(s);
            if (f == null) {
                f = new FunctionViews(r, new StackWeights(r.profile(), s.samples(r)));
                functionViews.put(s, f);
            }
            return f;
        }
    }

    /** The tree of both recordings: the first one's selected event, by name, in the second. */
    private FlameIndex diff(Map<String, String> q) {
        if (recordings.length < 2) {
            throw new BadRequest("diff: the server was started with one recording");
        }
        Recording a = recordings[0];
        Recording b = recordings[1];
        Selection sa = Selection.parse(q, a).anyTime();
        String event = a.profile().events().get(sa.event());
        int eb = b.profile().firstSampled(event.contains(":") ? event.substring(0, event.indexOf(':')) : event);
        Selection sb = new Selection(Math.max(0, eb), Long.MIN_VALUE, Long.MAX_VALUE, sa.filter(), sa.host());
        synchronized (diffs) {
            FlameIndex d = diffs.get(sa);
            if (d == null) {
                IntPredicate keepB = eb < 0 ? i -> false : sb.samples(b);
                d = new FlameIndex(FlameTree.diff(a.profile(), sa.samples(a), b.profile(), keepB, false), null);
                diffs.put(sa, d);
            }
            return d;
        }
    }

    private String annotate(Recording r, int fn, boolean xlated) {
        FlameTree.Function f = r.function(fn);
        if (f == null) {
            throw new BadRequest("fn: no such function");
        }
        String key = (xlated ? "x:" : "j:") + f.name();
        synchronized (annotations) {
            String a = annotations.get(key);
            if (a == null) {
                JsonOut out = new JsonOut();
                AnnotateView.write(out, r, fn, f.name(), xlated);
                a = out.toString();
                annotations.put(key, a);
            }
            return a;
        }
    }

    /** A function's source position, looked up on the first question and kept (a few bytes each). */
    private String source(Recording r, int fn) {
        String a = sources.get(fn);
        if (a == null) {
            JsonOut out = new JsonOut();
            SourceView.write(out, r, fn);
            a = out.toString();
            sources.put(fn, a);
        }
        return a;
    }

    /** The first recording's profile (for tests and the launcher's messages). */
    Profile profile() {
        return recordings[0].profile();
    }
}
