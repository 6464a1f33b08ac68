package io.perfj.export;

import io.perfj.io.Json;
import io.perfj.io.TextOut;
import io.perfj.profile.Frame;
import io.perfj.profile.Profile;
import io.perfj.profile.StackTable;

import java.io.OutputStream;

/**
 * The profile in speedscope's file format ({@code https://www.speedscope.app/file-format-schema.json}):
 * the frames shared by all profiles (a function's name and its object as {@code file}; a frame
 * without a symbol named by its address), and one {@code sampled} profile per thread and
 * event, its samples in time order, stacks root first. Weights are periods in nanoseconds for the
 * software clocks ({@code cpu-clock}, {@code task-clock}), else periods (or counts) with unit
 * {@code none}. The profile shown first is the thread with the most weight of the first event.
 */
public final class SpeedscopeExport {
    private final Profile profile;
    private final String name;
    private final String exporter;

    /** {@code name}: the profile group's name (e.g. the recording's file name). */
    public SpeedscopeExport(Profile profile, String name, String exporter) {
        this.profile = profile;
        this.name = name;
        this.exporter = exporter;
    }

    /** Writes the JSON file to {@code out} (not closed). */
    public void write(OutputStream stream) {
        TextOut out = new TextOut(stream, 1 << 16);
        out.str("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":[");
        for (int f = 0; f < profile.frames().size(); f++) {
            Frame fr = profile.frames().get(f);
            if (f > 0) {
                out.ch(',');
            }
            String fn = fr.sym() != null ? fr.sym().name() : "0x" + Long.toHexString(fr.addr());
            out.str("{\"name\":").str(Json.quote(fn));
            if (fr.dso() != null) {
                out.str(",\"file\":").str(Json.quote(fr.dso().longName()));
            }
            out.ch('}');
        }
        out.str("]},\"profiles\":[");
        // samples of each (event, thread), in the profile's (time) order
        int threads = profile.threadCount();
        int events = profile.events().size();
        int[] counts = new int[events * threads];
        for (int i = 0; i < profile.sampleCount(); i++) {
            counts[profile.event(i) * threads + profile.thread(i)]++;
        }
        int[][] byGroup = new int[counts.length][];
        for (int g = 0; g < counts.length; g++) {
            byGroup[g] = new int[counts[g]];
        }
        int[] fill = new int[counts.length];
        for (int i = 0; i < profile.sampleCount(); i++) {
            int g = profile.event(i) * threads + profile.thread(i);
            byGroup[g][fill[g]++] = i;
        }
        int shown = 0;
        int active = 0;
        long best = -1;
        int[] stack = new int[128];
        for (int g = 0; g < byGroup.length; g++) {
            if (byGroup[g].length == 0) {
                continue;
            }
            int event = g / threads;
            int thread = g % threads;
            String eventName = profile.events().get(event);
            long total = 0;
            for (int i : byGroup[g]) {
                total += profile.weight(i);
            }
            if (event == profile.event(0) && total > best) {
                best = total;
                active = shown;
            }
            if (shown++ > 0) {
                out.ch(',');
            }
            String title = profile.comm(thread) + " " + profile.pid(thread) + "/" + profile.tid(thread)
                    + (events > 1 ? " " + eventName : "");
            out.str("{\"type\":\"sampled\",\"name\":").str(Json.quote(title))
                    .str(",\"unit\":").str(Profile.inNanoseconds(eventName) ? "\"nanoseconds\"" : "\"none\"")
                    .str(",\"startValue\":0,\"endValue\":").dec(total).str(",\"samples\":[");
            boolean first = true;
            for (int i : byGroup[g]) {
                if (!first) {
                    out.ch(',');
                }
                first = false;
                StackTable st = profile.stacks();
                int depth = st.depth(profile.stack(i));
                if (depth > stack.length) {
                    stack = new int[depth];
                }
                int d = depth;
                for (int s = profile.stack(i); s != StackTable.EMPTY; s = st.parent(s)) {
                    stack[--d] = st.frame(s);
                }
                out.ch('[');
                for (int k = 0; k < depth; k++) {
                    if (k > 0) {
                        out.ch(',');
                    }
                    out.dec(stack[k]);
                }
                out.ch(']');
            }
            out.str("],\"weights\":[");
            first = true;
            for (int i : byGroup[g]) {
                if (!first) {
                    out.ch(',');
                }
                first = false;
                out.dec(profile.weight(i));
            }
            out.str("]}");
        }
        out.str("],\"name\":").str(Json.quote(name)).str(",\"activeProfileIndex\":").dec(active)
                .str(",\"exporter\":").str(Json.quote(exporter)).str("}\n");
        out.flush();
    }
}
