package io.perfj.serve;

import io.perfj.profile.Profile;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Sample counts per time bucket, one lane per thread (or per CPU), over the whole recording:
 * the lanes with the most samples first, the rest summed in one lane.
 */
final class TimelineView {
    static final int MAX_LANES = 40;

    private TimelineView() {
    }

    static void write(JsonOut out, Recording r, IntPredicate keep, boolean byCpu, int buckets) {
        Profile p = r.profile();
        int nb = Math.max(1, Math.min(buckets, 2000));
        long span = Math.max(1, r.duration() + 1);
        int lanes = byCpu ? maxCpu(p) + 2 : p.threadCount();
        long[] laneCount = new long[lanes];
        int[] laneOf = new int[p.sampleCount()];
        for (int i = 0; i < p.sampleCount(); i++) {
            int lane = byCpu ? p.cpu(i) + 1 : p.thread(i);
            laneOf[i] = lane;
            if (keep.test(i)) {
                laneCount[lane] += p.count(i);
            } else {
                laneOf[i] = -1;
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int l = 0; l < lanes; l++) {
            if (laneCount[l] > 0) {
                order.add(l);
            }
        }
        order.sort((a, b) -> {
            int k = Long.compare(laneCount[b], laneCount[a]);
            return k != 0 ? k : Integer.compare(a, b);
        });
        int shown = Math.min(order.size(), MAX_LANES);
        int[] row = new int[lanes];
        java.util.Arrays.fill(row, shown);
        for (int k = 0; k < shown; k++) {
            row[order.get(k)] = k;
        }
        boolean other = order.size() > shown;
        int rows = shown + (other ? 1 : 0);
        long[][] counts = new long[rows][nb];
        for (int i = 0; i < p.sampleCount(); i++) {
            if (laneOf[i] < 0) {
                continue;
            }
            long t = p.time(i) < 0 ? 0 : p.time(i) - r.firstTime();
            int b = (int) Math.min(nb - 1, t * nb / span);
            counts[row[laneOf[i]]][b] += p.count(i);
        }
        out.object();
        out.field("duration", r.duration());
        out.field("buckets", nb);
        out.field("by", byCpu ? "cpu" : "thread");
        out.name("lanes").array();
        for (int k = 0; k < rows; k++) {
            out.object();
            if (k == shown) {
                out.field("label", (order.size() - shown) + " more").field("other", true);
            } else {
                int lane = order.get(k);
                if (byCpu) {
                    out.field("label", lane == 0 ? "no CPU" : "CPU " + (lane - 1)).field("cpu", lane - 1);
                } else {
                    out.field("label", (p.host(lane) == null ? "" : p.host(lane) + ": ") + p.comm(lane) + " "
                            + p.pid(lane) + "/" + p.tid(lane))
                            .field("pid", p.pid(lane)).field("tid", p.tid(lane)).field("comm", p.comm(lane));
                }
                out.field("samples", laneCount[lane]);
            }
            out.name("counts").array();
            for (long c : counts[k]) {
                out.value(c);
            }
            out.endArray();
            out.endObject();
        }
        out.endArray();
        out.endObject();
    }

    private static int maxCpu(Profile p) {
        int m = -1;
        for (int i = 0; i < p.sampleCount(); i++) {
            m = Math.max(m, p.cpu(i));
        }
        return m;
    }
}
