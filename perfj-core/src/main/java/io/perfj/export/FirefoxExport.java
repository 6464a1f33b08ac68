package io.perfj.export;

import io.perfj.io.Json;
import io.perfj.io.TextOut;
import io.perfj.profile.Profile;
import io.perfj.profile.SourcePositions;
import io.perfj.symbols.Dso;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The profile in the Firefox Profiler's processed format, version {@value #VERSION} (the
 * profiler's {@code src/types/profile.ts}; what samply writes, in the profiler's current
 * version), one JSON object streamed to the output.
 *
 * <ul>
 *   <li>Threads: one per thread of the profile (pid, tid, command name, so a thread that calls
 *       exec is two), and with several events one per thread and event, named
 *       {@code comm (event)}. Samples in the session's order, times in milliseconds from the
 *       first sample as deltas, each sample counting 1; for the software clocks the period
 *       is the sample's {@code threadCPUDelta} in nanoseconds, which the profiler draws as CPU
 *       use. Markers: the COMM records that gave the thread its name ({@code exec} or
 *       {@code comm}, instant {@code Text} markers whose text is the new name).
 *   <li>Shared tables ({@link FirefoxTables}): stacks, frames (one per address, with its
 *       source line; an inlined function's frame has its inline depth and the address and
 *       native symbol of the function it is inlined into), functions (with their source file
 *       and first line), sources, resources and libraries (one per object, with the debug and
 *       code ids breakpad derives from the build-id) and the string array. Kernel frames are
 *       in category {@code Kernel}, user frames in {@code User}, others in {@code Other}.
 * </ul>
 * Addresses are in the object's own terms (as its symbols are kept: a user object's file
 * offset), a return address less one; the profile comes symbolicated.
 */
public final class FirefoxExport {
    /** The processed profile format version written ({@code PROCESSED_PROFILE_VERSION}). */
    public static final int VERSION = 70;
    /** The Gecko profile version the processed format's {@code meta.version} holds. */
    private static final int GECKO_VERSION = 24;

    private final Profile profile;
    private final double startTime;
    private final SourcePositions sources;

    /**
     * {@code startTime}: the wall-clock time of the first sample, milliseconds since the Unix
     * epoch (0 when unknown); no source lines.
     */
    public FirefoxExport(Profile profile, double startTime) {
        this(profile, startTime, new SourcePositions(profile, null));
    }

    /** With the source lines of {@code sources}. */
    public FirefoxExport(Profile profile, double startTime, SourcePositions sources) {
        this.profile = profile;
        this.startTime = startTime;
        this.sources = sources;
    }

    /**
     * The wall-clock time of the first sample when the recording ended at {@code endMillis}
     * (what perf calls "captured on": the file's modification time) and its last sample is
     * the end; 0 when {@code endMillis} is 0 (not known) or the samples have no times.
     */
    public static double startTime(Profile profile, long endMillis) {
        long[] range = profile.timeRange();
        if (endMillis <= 0 || range == null) {
            return 0;
        }
        return endMillis - (range[1] - range[0]) / 1e6;
    }

    /** One thread of the output: a thread of the profile and one event (-1: every event). */
    private record Track(int thread, int event, int[] samples) {
    }

    /** Writes the JSON object to {@code stream} (not closed). */
    public void write(OutputStream stream) {
        FirefoxTables t = new FirefoxTables(profile, sources);
        List<Track> tracks = tracks();
        long zero = zero();
        TextOut out = new TextOut(stream, 1 << 16);
        out.str("{\"meta\":");
        meta(out, t);
        out.str(",\"libs\":[");
        for (int l = 0; l < t.libs.size(); l++) {
            lib(out.str(l > 0 ? "," : ""), t.libs.get(l));
        }
        out.str("],\"pages\":[],\"profilerOverhead\":[],\"counters\":[],\"threads\":[");
        Map<Integer, String> processNames = processNames();
        Map<Integer, Long> processStarts = new HashMap<>();
        for (Track k : tracks) {
            processStarts.merge(profile.pid(k.thread), firstTime(k, zero), Math::min);
        }
        for (int k = 0; k < tracks.size(); k++) {
            thread(out.str(k > 0 ? "," : ""), t, tracks.get(k), zero, processNames, processStarts);
        }
        out.str("],\"shared\":");
        shared(out, t);
        out.str("}\n");
        out.flush();
    }

    private void meta(TextOut out, FirefoxTables t) {
        out.str("{\"version\":").dec(GECKO_VERSION).str(",\"preprocessedProfileVersion\":").dec(VERSION)
                .str(",\"interval\":").str(Double.toString(interval()))
                .str(",\"startTime\":").str(Double.toString(startTime))
                .str(",\"processType\":0,\"product\":\"perfj\",\"stackwalk\":")
                .str(stackwalk() ? "1" : "0")
                .str(",\"debug\":false,\"symbolicated\":true,\"usesOnlyOneStackType\":true"
                        + ",\"sourceCodeIsNotOnSearchfox\":true")
                .str(",\"categories\":[{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":[\"Other\"]}"
                        + ",{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]}"
                        + ",{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]}]")
                .str(",\"sampleUnits\":{\"time\":\"ms\",\"eventDelay\":\"ms\",\"threadCPUDelta\":\"ns\"}")
                .str(",\"markerSchema\":[{\"name\":\"Text\",\"display\":[\"marker-chart\",\"marker-table\"]"
                        + ",\"chartLabel\":\"{marker.data.name}\",\"tableLabel\":\"{marker.name} - {marker.data.name}\""
                        + ",\"description\":\"A COMM record: the thread's new command name, by exec or by prctl\""
                        + ",\"fields\":[{\"key\":\"name\",\"label\":\"Details\",\"format\":\"unique-string\"}]}]");
        out.ch('}');
    }

    /** The mean period of the first event's samples when it is a software clock, else 1 ms. */
    private double interval() {
        if (profile.sampleCount() == 0) {
            return 1;
        }
        int ev = profile.event(0);
        if (!Profile.inNanoseconds(profile.events().get(ev)) || !profile.hasPeriod(ev)) {
            return 1;
        }
        long sum = 0;
        int n = 0;
        for (int i = 0; i < profile.sampleCount(); i++) {
            if (profile.event(i) == ev) {
                sum += profile.weight(i);
                n++;
            }
        }
        double ms = sum / (double) n / 1e6;
        return ms > 0 ? Math.round(ms * 1e6) / 1e6 : 1;
    }

    private boolean stackwalk() {
        for (int i = 0; i < profile.sampleCount(); i++) {
            if (profile.stacks().depth(profile.stack(i)) > 1) {
                return true;
            }
        }
        return false;
    }

    private static void lib(TextOut out, Dso dso) {
        String path = dso.longName();
        String name = path.startsWith("[") ? path : path.substring(path.lastIndexOf('/') + 1);
        String q = Json.quote(name);
        String p = Json.quote(path);
        out.str("{\"arch\":\"\",\"name\":").str(q).str(",\"path\":").str(p).str(",\"debugName\":").str(q)
                .str(",\"debugPath\":").str(p).str(",\"breakpadId\":");
        if (dso.buildId().isPresent()) {
            byte[] id = dso.buildId().get();
            out.ch('"').str(DebugIds.breakpadId(id)).str("\",\"codeId\":\"").str(DebugIds.codeId(id)).str("\"}");
        } else {
            out.str("\"\",\"codeId\":null}");
        }
    }

    /** Output threads: per profile thread in order of first sample, and per event when there are several. */
    private List<Track> tracks() {
        int threads = profile.threadCount();
        int events = profile.events().size();
        boolean split = events > 1;
        int groups = threads * (split ? events : 1);
        int[] counts = new int[groups];
        for (int i = 0; i < profile.sampleCount(); i++) {
            counts[group(i, split)]++;
        }
        int[][] members = new int[groups][];
        for (int g = 0; g < groups; g++) {
            members[g] = new int[counts[g]];
        }
        int[] fill = new int[groups];
        for (int i = 0; i < profile.sampleCount(); i++) {
            int g = group(i, split);
            members[g][fill[g]++] = i;
        }
        List<Track> out = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            if (members[g].length > 0) {
                out.add(new Track(split ? g / events : g, split ? g % events : -1, members[g]));
            }
        }
        return out;
    }

    private int group(int sample, boolean split) {
        int t = profile.thread(sample);
        return split ? t * profile.events().size() + profile.event(sample) : t;
    }

    /** Time zero in nanoseconds: the first sample's time, or an earlier COMM record of a thread shown. */
    private long zero() {
        long zero = Long.MAX_VALUE;
        for (int i = 0; i < profile.sampleCount(); i++) {
            if (profile.time(i) >= 0) {
                zero = Math.min(zero, profile.time(i));
            }
        }
        if (zero == Long.MAX_VALUE) {
            return 0;
        }
        for (int th = 0; th < profile.threadCount(); th++) {
            for (Profile.CommChange c : commChanges(th)) {
                zero = Math.min(zero, c.time());
            }
        }
        return zero;
    }

    /** The COMM records (with a time) that named the profile's thread {@code th}. */
    private List<Profile.CommChange> commChanges(int th) {
        List<Profile.CommChange> out = new ArrayList<>();
        for (Profile.CommChange c : profile.commChanges()) {
            if (c.time() > 0 && c.pid() == profile.pid(th) && c.tid() == profile.tid(th)
                    && c.comm().equals(profile.comm(th))) {
                out.add(c);
            }
        }
        return out;
    }

    /** Per pid, the command name of its main thread (the name with the most samples). */
    private Map<Integer, String> processNames() {
        int[] samples = new int[profile.threadCount()];
        for (int i = 0; i < profile.sampleCount(); i++) {
            samples[profile.thread(i)]++;
        }
        Map<Integer, Integer> best = new HashMap<>();
        for (int th = 0; th < profile.threadCount(); th++) {
            if (profile.pid(th) == profile.tid(th)) {
                Integer b = best.get(profile.pid(th));
                if (b == null || samples[th] > samples[b]) {
                    best.put(profile.pid(th), th);
                }
            }
        }
        Map<Integer, String> names = new HashMap<>();
        best.forEach((pid, th) -> names.put(pid, profile.comm(th)));
        return names;
    }

    /** The track's first time, nanoseconds after zero. */
    private long firstTime(Track k, long zero) {
        long t = profile.time(k.samples[0]);
        return t < 0 ? 0 : t - zero;
    }

    private void thread(TextOut out, FirefoxTables t, Track k, long zero, Map<Integer, String> processNames,
                        Map<Integer, Long> processStarts) {
        int th = k.thread;
        int pid = profile.pid(th);
        String name = profile.comm(th) + (k.event >= 0 ? " (" + profile.events().get(k.event) + ")" : "");
        out.str("{\"processType\":\"default\",\"processStartupTime\":");
        ms(out, processStarts.get(pid));
        out.str(",\"processShutdownTime\":null,\"registerTime\":");
        ms(out, firstTime(k, zero));
        out.str(",\"unregisterTime\":null,\"pausedRanges\":[],\"name\":").str(Json.quote(name))
                .str(",\"isMainThread\":").str(pid == profile.tid(th) ? "true" : "false")
                .str(",\"processName\":").str(Json.quote(processNames.getOrDefault(pid, profile.comm(th))))
                .str(",\"pid\":\"").dec(pid).str("\",\"tid\":").dec(profile.tid(th));
        samples(out, t, k, zero);
        markers(out, t, th, zero);
        out.ch('}');
    }

    private void samples(TextOut out, FirefoxTables t, Track k, long zero) {
        int[] ids = k.samples;
        out.str(",\"samples\":{\"length\":").dec(ids.length).str(",\"weight\":null,\"weightType\":\"samples\"")
                .str(",\"stack\":[");
        for (int j = 0; j < ids.length; j++) {
            if (j > 0) {
                out.ch(',');
            }
            int s = profile.locationStack(ids[j]);
            if (s < 0) {
                out.str("null");
            } else {
                out.dec(t.stackIndex[s]);
            }
        }
        out.str("],\"timeDeltas\":[");
        long last = zero;
        for (int j = 0; j < ids.length; j++) {
            if (j > 0) {
                out.ch(',');
            }
            long time = profile.time(ids[j]);
            long now = time < 0 ? last : time; // no time recorded: at the previous sample's
            ms(out, now - last);
            last = now;
        }
        out.ch(']');
        int event = profile.event(ids[0]);
        boolean cpuDelta = (k.event >= 0 || profile.events().size() == 1)
                && Profile.inNanoseconds(profile.events().get(event)) && profile.hasPeriod(event);
        if (cpuDelta) {
            out.str(",\"threadCPUDelta\":[");
            for (int j = 0; j < ids.length; j++) {
                if (j > 0) {
                    out.ch(',');
                }
                out.dec(profile.weight(ids[j]));
            }
            out.ch(']');
        }
        out.ch('}');
    }

    private void markers(TextOut out, FirefoxTables t, int th, long zero) {
        List<Profile.CommChange> changes = commChanges(th);
        int n = changes.size();
        out.str(",\"markers\":{\"length\":").dec(n).str(",\"name\":[");
        for (int m = 0; m < n; m++) {
            out.str(m > 0 ? "," : "").dec(t.str(changes.get(m).exec() ? "exec" : "comm"));
        }
        out.str("],\"startTime\":[");
        for (int m = 0; m < n; m++) {
            ms(out.str(m > 0 ? "," : ""), changes.get(m).time() - zero);
        }
        out.str("],\"endTime\":[");
        for (int m = 0; m < n; m++) {
            out.str(m > 0 ? ",null" : "null");
        }
        out.str("],\"phase\":[");
        for (int m = 0; m < n; m++) {
            out.str(m > 0 ? ",0" : "0");
        }
        out.str("],\"category\":[");
        for (int m = 0; m < n; m++) {
            out.str(m > 0 ? "," : "").dec(FirefoxTables.OTHER);
        }
        out.str("],\"data\":[");
        for (int m = 0; m < n; m++) {
            out.str(m > 0 ? "," : "").str("{\"type\":\"Text\",\"name\":").dec(t.str(changes.get(m).comm())).ch('}');
        }
        out.str("]}");
    }

    private static void shared(TextOut out, FirefoxTables t) {
        out.str("{\"stackTable\":{\"length\":").dec(t.stacks);
        ints(out.str(",\"frame\":"), t.stackFrame, t.stacks, false);
        ints(out.str(",\"prefixOffset\":"), t.stackPrefixOffset, t.stacks, false);
        out.str("},\"frameTable\":{\"length\":").dec(t.frames);
        longs(out.str(",\"address\":"), t.frameAddress, t.frames);
        ints(out.str(",\"lib\":"), t.frameLib, t.frames, false);
        ints(out.str(",\"inlineDepth\":"), t.frameInlineDepth, t.frames, false);
        ints(out.str(",\"category\":"), t.frameCategory, t.frames, false);
        constant(out.str(",\"subcategory\":"), "0", t.frames);
        ints(out.str(",\"func\":"), t.frameFunc, t.frames, false);
        ints(out.str(",\"nativeSymbol\":"), t.frameNativeSymbol, t.frames, true);
        constant(out.str(",\"innerWindowID\":"), "null", t.frames);
        positive(out.str(",\"line\":"), t.frameLine, t.frames);
        constant(out.str(",\"column\":"), "null", t.frames);
        constant(out.str(",\"originalLocation\":"), "null", t.frames);
        out.str("},\"funcTable\":{\"length\":").dec(t.funcs);
        ints(out.str(",\"name\":"), t.funcName, t.funcs, false);
        constant(out.str(",\"isJS\":"), "false", t.funcs);
        constant(out.str(",\"relevantForJS\":"), "false", t.funcs);
        ints(out.str(",\"resource\":"), t.funcResource, t.funcs, false);
        ints(out.str(",\"source\":"), t.funcSource, t.funcs, true);
        positive(out.str(",\"lineNumber\":"), t.funcLine, t.funcs);
        constant(out.str(",\"columnNumber\":"), "null", t.funcs);
        constant(out.str(",\"originalLocation\":"), "null", t.funcs);
        int libs = t.libs.size();
        out.str("},\"resourceTable\":{\"length\":").dec(libs).str(",\"name\":[");
        for (int l = 0; l < libs; l++) {
            out.str(l > 0 ? "," : "").dec(t.str(t.libs.get(l).shortName()));
        }
        out.ch(']');
        constant(out.str(",\"host\":"), "null", libs);
        constant(out.str(",\"type\":"), "1", libs); // ResourceType.Library
        out.str("},\"nativeSymbols\":{\"length\":").dec(t.nativeSymbols);
        ints(out.str(",\"libIndex\":"), t.symbolLib, t.nativeSymbols, false);
        longs(out.str(",\"address\":"), t.symbolAddress, t.nativeSymbols);
        ints(out.str(",\"name\":"), t.symbolName, t.nativeSymbols, false);
        longs(out.str(",\"functionSize\":"), t.symbolSize, t.nativeSymbols);
        int files = t.sourceFiles.size();
        out.str("},\"sources\":{\"length\":").dec(files);
        constant(out.str(",\"id\":"), "null", files);
        out.str(",\"filename\":[");
        for (int f = 0; f < files; f++) {
            out.str(f > 0 ? "," : "").dec(t.sourceFiles.get(f));
        }
        out.ch(']');
        constant(out.str(",\"startLine\":"), "1", files);
        constant(out.str(",\"startColumn\":"), "1", files);
        constant(out.str(",\"sourceMapURL\":"), "null", files);
        constant(out.str(",\"content\":"), "null", files);
        out.str("},\"sourceLocationTable\":{\"length\":0,\"source\":[],\"line\":[],\"column\":[]}"
                + ",\"stringArray\":[");
        for (int s = 0; s < t.strings.size(); s++) {
            out.str(s > 0 ? "," : "").str(Json.quote(t.strings.get(s)));
        }
        out.str("]}");
    }

    /** {@code v[0..n)} as a JSON array; with {@code negativeIsNull}, -1 as null. */
    private static void ints(TextOut out, int[] v, int n, boolean negativeIsNull) {
        out.ch('[');
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.ch(',');
            }
            if (negativeIsNull && v[i] < 0) {
                out.str("null");
            } else {
                out.dec(v[i]);
            }
        }
        out.ch(']');
    }

    private static void longs(TextOut out, long[] v, int n) {
        out.ch('[');
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.ch(',');
            }
            out.dec(v[i]);
        }
        out.ch(']');
    }

    /** {@code v[0..n)} as a JSON array, 0 and below as null. */
    private static void positive(TextOut out, long[] v, int n) {
        out.ch('[');
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.ch(',');
            }
            if (v[i] > 0) {
                out.dec(v[i]);
            } else {
                out.str("null");
            }
        }
        out.ch(']');
    }

    /** {@code [value,value,...]}, {@code n} times: whole runs of the text at once (these columns are long). */
    private static void constant(TextOut out, String value, int n) {
        out.ch('[');
        if (n > 0) {
            out.str(value);
            byte[] run = ("," + value).repeat(Math.min(n - 1, 512)).getBytes(StandardCharsets.US_ASCII);
            int each = value.length() + 1;
            for (int left = n - 1; left > 0; left -= run.length / each) {
                out.bytes(left * each >= run.length ? run : Arrays.copyOf(run, left * each));
            }
        }
        out.ch(']');
    }

    /** Nanoseconds as milliseconds, exactly (at most six decimals). */
    static void ms(TextOut out, long ns) {
        if (ns < 0) {
            out.ch('-');
            ns = -ns;
        }
        out.dec(ns / 1_000_000);
        int frac = (int) (ns % 1_000_000);
        if (frac != 0) {
            // six digits written right to left in int arithmetic; trailing zeros then dropped
            byte[] b = out.reserve(7);
            int p = out.pos();
            b[p] = '.';
            int end = 0;
            for (int i = 6; i >= 1; i--) {
                int d = frac % 10;
                frac /= 10;
                b[p + i] = (byte) ('0' + d);
                if (end == 0 && d != 0) {
                    end = i;
                }
            }
            out.pos(p + 1 + end);
        }
    }
}
