package io.perfj.serve;

import io.perfj.profile.Frame;
import io.perfj.profile.Profile;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the page needs to offer its choices: the recordings, their events (with unit and sample
 * counts), threads and processes with their sample counts, CPUs, the objects samples landed in,
 * and the time range.
 */
final class MetaView {
    private MetaView() {
    }

    static void write(JsonOut out, Recording[] recordings) {
        out.object();
        out.name("recordings").array();
        for (Recording r : recordings) {
            recording(out, r);
        }
        out.endArray();
        out.endObject();
    }

    private static void recording(JsonOut out, Recording r) {
        Profile p = r.profile();
        out.object();
        out.field("name", r.name());
        out.field("samples", r.samples());
        out.field("live", r.live());
        out.field("duration", r.duration());
        out.field("defaultEvent", r.defaultEvent());
        out.field("fleet", r.fleet());
        long[] perEvent = new long[p.events().size()];
        long[] perThread = new long[p.threadCount()];
        Map<Integer, Long> perCpu = new TreeMap<>();
        Map<String, Long> perDso = new TreeMap<>();
        for (int i = 0; i < p.sampleCount(); i++) {
            long n = p.count(i);
            perEvent[p.event(i)] += n;
            perThread[p.thread(i)] += n;
            perCpu.merge(p.cpu(i), n, Long::sum);
            Frame f = r.leafFrame(i);
            perDso.merge(f == null ? "[unknown]" : f.dsoName(), n, Long::sum);
        }
        out.name("events").array();
        for (int e = 0; e < perEvent.length; e++) {
            String name = p.events().get(e);
            String unit = Profile.inNanoseconds(name) ? "ns" : p.hasPeriod(e) ? "events" : "samples";
            out.object().field("id", e).field("name", name).field("unit", unit).field("samples", perEvent[e]).endObject();
        }
        out.endArray();
        out.name("threads").array();
        Map<Integer, long[]> processes = new TreeMap<>();
        Map<Integer, String> processComm = new TreeMap<>();
        for (int t = 0; t < perThread.length; t++) {
            out.object().field("pid", p.pid(t)).field("tid", p.tid(t)).field("comm", p.comm(t));
            if (p.host(t) != null) {
                out.field("host", p.host(t));
            }
            out.field("samples", perThread[t]).endObject();
            processes.computeIfAbsent(p.pid(t), k -> new long[1])[0] += perThread[t];
            if (p.pid(t) == p.tid(t) || !processComm.containsKey(p.pid(t))) {
                processComm.put(p.pid(t), p.comm(t));
            }
        }
        out.endArray();
        out.name("processes").array();
        for (Map.Entry<Integer, long[]> e : processes.entrySet()) {
            out.object().field("pid", e.getKey()).field("comm", processComm.get(e.getKey()))
                    .field("samples", e.getValue()[0]).endObject();
        }
        out.endArray();
        out.name("cpus").array();
        for (Map.Entry<Integer, Long> e : perCpu.entrySet()) {
            out.object().field("cpu", e.getKey()).field("samples", e.getValue()).endObject();
        }
        out.endArray();
        out.name("dsos").array();
        for (Map.Entry<String, Long> e : perDso.entrySet()) {
            out.object().field("name", e.getKey()).field("samples", e.getValue()).endObject();
        }
        out.endArray();
        out.endObject();
    }
}
