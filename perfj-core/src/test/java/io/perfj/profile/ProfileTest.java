package io.perfj.profile;

import io.perfj.perfdata.PerfData;
import io.perfj.session.Compat;
import io.perfj.session.ResolvedSample;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.Location;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The profile holds every sample the session resolves, with the same frames, in the same order. */
class ProfileTest {
    private static Session session(PerfData data) {
        SymbolOptions symbols = SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Fixtures.file("perf-maps")).noSystemFiles().build();
        return Session.of(data, new SessionOptions(symbols, io.perfj.session.Quirks.NONE));
    }

    private static String frame(Location l) {
        String sym = l.symbol() == null ? Long.toHexString(l.dso() == null ? l.ip() : l.mapIp()) : l.symbol().name();
        return (l.dso() == null ? "?" : l.dso().longName()) + ":" + sym;
    }

    private static String frame(Frame f) {
        String sym = f.sym() == null ? Long.toHexString(f.addr()) : f.sym().name();
        return (f.dso() == null ? "?" : f.dso().longName()) + ":" + sym;
    }

    @ParameterizedTest
    @ValueSource(strings = {"c-fp", "bpf-sys", "pipe", "zstd", "two-events", "java", "bpf-dwarf"})
    void holdsWhatTheSessionResolves(String name) throws Exception {
        List<ResolvedSample> expected = new ArrayList<>();
        try (PerfData data = PerfData.open(Fixtures.recording(name))) {
            session(data).forEachSample(expected::add);
        }
        Profile p;
        try (PerfData data = PerfData.open(Fixtures.recording(name))) {
            p = Profile.read(session(data), Session.DEFAULT_MAX_STACK);
        }
        assertEquals(expected.size(), p.sampleCount(), "samples");
        for (int i = 0; i < expected.size(); i++) {
            ResolvedSample e = expected.get(i);
            int t = p.thread(i);
            assertEquals(e.pid(), p.pid(t));
            assertEquals(e.tid(), p.tid(t));
            assertEquals(e.comm(), p.comm(t));
            assertEquals(e.time(), p.time(i));
            assertEquals(e.cpu(), p.cpu(i));
            assertEquals(e.event(), p.event(i));
            assertEquals(e.eventName(), p.events().get(p.event(i)));
            assertEquals(p.hasPeriod(p.event(i)) ? e.period() : 1, p.weight(i));
            List<String> want = e.frames().stream().map(ProfileTest::frame).toList();
            List<String> got = new ArrayList<>();
            for (int s = p.stack(i); s >= 0; s = p.stacks().parent(s)) {
                got.add(frame(p.frames().get(p.stacks().frame(s)))); // leaf first, as the session lists them
            }
            assertEquals(want, got, "sample " + i);
        }
    }

    /** Filters keep the samples whose thread, CPU and own frame pass, as report's options do. */
    @org.junit.jupiter.api.Test
    void filtersBySampleAndLeafFrame() throws Exception {
        Profile all;
        Profile sym;
        Profile cpu;
        try (PerfData data = PerfData.open(Fixtures.recording("c-fp"))) {
            all = Profile.read(session(data), Session.DEFAULT_MAX_STACK);
        }
        try (PerfData data = PerfData.open(Fixtures.recording("c-fp"))) {
            sym = Profile.read(session(data), Session.DEFAULT_MAX_STACK,
                    new SampleFilter(null, null, java.util.Set.of("compute_a"), null, null, null));
        }
        int leafCompute = 0;
        java.util.Set<Integer> cpus = new java.util.TreeSet<>();
        for (int i = 0; i < all.sampleCount(); i++) {
            Frame leaf = all.frames().get(all.stacks().frame(all.stack(i)));
            if (leaf.sym() != null && leaf.sym().name().equals("compute_a")) {
                leafCompute++;
            }
            cpus.add(all.cpu(i));
        }
        assertEquals(leafCompute, sym.sampleCount());
        org.junit.jupiter.api.Assertions.assertTrue(leafCompute > 0 && leafCompute < all.sampleCount());
        int one = cpus.iterator().next();
        try (PerfData data = PerfData.open(Fixtures.recording("c-fp"))) {
            cpu = Profile.read(session(data), Session.DEFAULT_MAX_STACK,
                    new SampleFilter(null, null, null, null, null, java.util.Set.of(one)));
        }
        int onCpu = 0;
        for (int i = 0; i < all.sampleCount(); i++) {
            onCpu += all.cpu(i) == one ? 1 : 0;
        }
        assertEquals(onCpu, cpu.sampleCount());
    }

    /** The COMM records, in order: perf's exec of bin/hot among them, at a time, after its fork. */
    @org.junit.jupiter.api.Test
    void keepsTheCommRecords() throws Exception {
        Profile p;
        try (PerfData data = PerfData.open(Fixtures.recording("c-fp"))) {
            p = Profile.read(session(data), Session.DEFAULT_MAX_STACK);
        }
        int hot = p.thread(0);
        List<Profile.CommChange> execs = p.commChanges().stream()
                .filter(c -> c.exec() && c.pid() == p.pid(hot) && c.tid() == p.tid(hot)).toList();
        assertEquals(1, execs.size(), p.commChanges().toString());
        assertEquals("hot", execs.getFirst().comm());
        org.junit.jupiter.api.Assertions.assertTrue(execs.getFirst().time() > 0
                && execs.getFirst().time() <= p.time(0), "exec before the first sample");
    }
}
