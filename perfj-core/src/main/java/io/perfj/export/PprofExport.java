package io.perfj.export;

import io.perfj.export.pprof.ProfileProto;
import io.perfj.profile.Profile;
import io.perfj.profile.Frame;
import io.perfj.profile.StackTable;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Symbol;
import io.perfj.util.LongIntMap;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * The profile in pprof's format: a gzipped {@code perftools.profiles.Profile}
 * (src/main/protobuf/profile.proto), what {@code go tool pprof} and pprof's web view read.
 *
 * <ul>
 *   <li>Sample types: per event, its sample count ({@code samples}/{@code count}) and its
 *       weight: the period, in nanoseconds for the software clocks ({@code cpu-clock},
 *       {@code task-clock}), else a count of events. With one event the two are named
 *       {@code samples} and the event's name; with several, each event's count is
 *       {@code <event> samples}. The count values add up to the recording's samples.
 *   <li>Samples: one per distinct (event, thread, stack), labelled with {@code pid},
 *       {@code tid} (numbers) and {@code comm}.
 *   <li>Locations: one per frame, with the functions inlined at it as extra lines before the
 *       function they were inlined into (pprof's order); address: the symbol's start in its
 *       object, or for a frame without a symbol its address in the object.
 *   <li>Mappings: one per object, addresses in the object's own space (start 0), with the
 *       object's build-id; functions: a symbol's name in its object.
 * </ul>
 */
public final class PprofExport {
    private final Profile profile;

    public PprofExport(Profile profile) {
        this.profile = profile;
    }

    /** Writes the gzipped profile to {@code out} (not closed). */
    public void write(OutputStream out) throws IOException {
        GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16);
        build().writeTo(gz);
        gz.finish();
        out.flush();
    }

    /** The profile message. */
    public ProfileProto.Profile build() {
        return new Builder().build();
    }

    /** One conversion: string, mapping, function and location tables as they fill. */
    private final class Builder {
        private final ProfileProto.Profile.Builder p = ProfileProto.Profile.newBuilder();
        private final Map<String, Long> strings = new HashMap<>();
        private final Map<Dso, ProfileProto.Mapping.Builder> mappings = new IdentityHashMap<>();
        private final Map<List<Object>, Long> functions = new HashMap<>();
        private final Map<List<Integer>, Long> locations = new HashMap<>();
        /** Per stack node, the location ids of the stack, leaf first. */
        private final Map<Integer, long[]> stackLocations = new HashMap<>();

        long str(String s) {
            Long id = strings.get(s);
            if (id == null) {
                id = (long) strings.size();
                strings.put(s, id);
                p.addStringTable(s);
            }
            return id;
        }

        ProfileProto.Profile build() {
            str("");
            List<String> events = profile.events();
            boolean one = events.size() == 1;
            for (String e : events) {
                p.addSampleType(ProfileProto.ValueType.newBuilder()
                        .setType(str(one ? "samples" : e + " samples")).setUnit(str("count")));
                p.addSampleType(ProfileProto.ValueType.newBuilder()
                        .setType(str(e)).setUnit(str(Profile.inNanoseconds(e) ? "nanoseconds" : "count")));
            }
            if (!events.isEmpty()) {
                p.setPeriodType(ProfileProto.ValueType.newBuilder()
                        .setType(str(events.getFirst())).setUnit(str(Profile.inNanoseconds(events.getFirst()) ? "nanoseconds" : "count")));
                p.setDefaultSampleType(str(events.getFirst()));
            }
            samples(events.size());
            for (ProfileProto.Mapping.Builder m : mappings.values()) {
                p.addMapping(m);
            }
            return p.build();
        }

        private void samples(int nEvents) {
            // distinct (event, thread, stack), each one sample with its counts summed
            LongIntMap index = new LongIntMap(1 << 12);
            List<long[]> keys = new ArrayList<>();
            long[] counts = new long[1024];
            long[] weights = new long[1024];
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (int i = 0; i < profile.sampleCount(); i++) {
                int et = profile.event(i) * Math.max(1, profile.threadCount()) + profile.thread(i);
                long key = ((long) et << 32) | (profile.stack(i) & 0xffffffffL);
                int at = index.get(key, -1);
                if (at < 0) {
                    at = keys.size();
                    index.put(key, at);
                    keys.add(new long[] {profile.event(i), profile.thread(i), profile.stack(i)});
                    if (at == counts.length) {
                        counts = Arrays.copyOf(counts, at * 2);
                        weights = Arrays.copyOf(weights, at * 2);
                    }
                }
                counts[at]++;
                weights[at] += profile.weight(i);
                long t = profile.time(i);
                if (t >= 0) {
                    first = Math.min(first, t);
                    last = Math.max(last, t);
                }
            }
            if (first <= last) {
                p.setDurationNanos(last - first);
            }
            long pidKey = str("pid");
            long tidKey = str("tid");
            long commKey = str("comm");
            for (int k = 0; k < keys.size(); k++) {
                long[] key = keys.get(k);
                int event = (int) key[0];
                int thread = (int) key[1];
                ProfileProto.Sample.Builder s = ProfileProto.Sample.newBuilder();
                for (long loc : locations((int) key[2])) {
                    s.addLocationId(loc);
                }
                for (int e = 0; e < nEvents; e++) {
                    s.addValue(e == event ? counts[k] : 0);
                    s.addValue(e == event ? weights[k] : 0);
                }
                s.addLabel(ProfileProto.Label.newBuilder().setKey(pidKey).setNum(profile.pid(thread)));
                s.addLabel(ProfileProto.Label.newBuilder().setKey(tidKey).setNum(profile.tid(thread)));
                s.addLabel(ProfileProto.Label.newBuilder().setKey(commKey).setStr(str(profile.comm(thread))));
                p.addSample(s);
            }
        }

        /** The stack's location ids, leaf first: runs of inlined frames join the frame they are in. */
        private long[] locations(int stack) {
            long[] known = stackLocations.get(stack);
            if (known != null) {
                return known;
            }
            StackTable stacks = profile.stacks();
            List<Long> out = new ArrayList<>();
            List<Integer> run = new ArrayList<>();
            for (int s = stack; s != StackTable.EMPTY; s = stacks.parent(s)) {
                int frame = stacks.frame(s);
                run.add(frame);
                Symbol sym = profile.frames().get(frame).sym();
                if (sym == null && run.size() > 1) {
                    // inlined functions above an address without a symbol: not lines of a function
                    out.add(location(run.subList(0, run.size() - 1)));
                    out.add(location(List.of(frame)));
                    run = new ArrayList<>();
                } else if (sym == null || !sym.inlined()) {
                    out.add(location(run));
                    run = new ArrayList<>();
                }
            }
            if (!run.isEmpty()) {
                out.add(location(run)); // inlined frames with nothing beneath them
            }
            long[] ids = out.stream().mapToLong(Long::longValue).toArray();
            stackLocations.put(stack, ids);
            return ids;
        }

        private long location(List<Integer> frames) {
            Long id = locations.get(frames);
            if (id != null) {
                return id;
            }
            id = (long) locations.size() + 1;
            locations.put(List.copyOf(frames), id);
            Frame base = profile.frames().get(frames.getLast());
            ProfileProto.Location.Builder l = ProfileProto.Location.newBuilder().setId(id);
            long address = base.sym() != null ? base.sym().start() : base.addr();
            l.setAddress(address);
            if (base.dso() != null) {
                l.setMappingId(mapping(base.dso(), address));
            }
            for (int f : frames) {
                Frame fr = profile.frames().get(f);
                if (fr.sym() != null) {
                    l.addLine(ProfileProto.Line.newBuilder().setFunctionId(function(fr)));
                }
            }
            p.addLocation(l);
            return id;
        }

        private long mapping(Dso dso, long address) {
            ProfileProto.Mapping.Builder m = mappings.get(dso);
            if (m == null) {
                m = ProfileProto.Mapping.newBuilder().setId(mappings.size() + 1)
                        .setFilename(str(dso.longName())).setHasFunctions(true);
                if (dso.buildId().isPresent()) {
                    m.setBuildId(str(dso.buildIdHex()));
                }
                mappings.put(dso, m);
            }
            if (address >= m.getMemoryLimit()) {
                m.setMemoryLimit(address + 1);
            }
            return m.getId();
        }

        private long function(Frame f) {
            String file = f.dso() == null ? "" : f.dso().longName();
            List<Object> key = List.of(f.sym().name(), file);
            Long id = functions.get(key);
            if (id == null) {
                id = (long) functions.size() + 1;
                functions.put(key, id);
                long name = str(f.sym().name());
                p.addFunction(ProfileProto.Function.newBuilder().setId(id).setName(name).setSystemName(name));
            }
            return id;
        }
    }
}
