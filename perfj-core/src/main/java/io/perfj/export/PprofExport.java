package io.perfj.export;

import io.perfj.export.pprof.ProfileProto;
import io.perfj.profile.Frame;
import io.perfj.profile.FrameKind;
import io.perfj.profile.Locations;
import io.perfj.profile.Mappings;
import io.perfj.profile.Profile;
import io.perfj.profile.SourcePositions;
import io.perfj.profile.StackTable;
import io.perfj.symbols.DsoKind;
import io.perfj.util.LongIntMap;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
 *       {@code <event> samples}. The count values add up to the recording's samples. The
 *       period type is the first event's, the period its mean period.
 *   <li>Samples: one per distinct (event, thread, stack of addresses), labelled with
 *       {@code pid}, {@code tid} (numbers) and {@code comm}.
 *   <li>Locations: one per address (and mapping) of the stacks, at its runtime address; its
 *       lines the chain of functions inlined there, innermost first and the function holding
 *       the address last (pprof's order), each with its source line when known.
 *   <li>Mappings: one per placement of an object (start, limit, file offset), with its path and
 *       build-id; the sampled command's executable first (pprof's main binary).
 *   <li>Functions: a symbol's name in its object, with the source file and the line of its
 *       first instruction when the object's line table has them.
 * </ul>
 */
public final class PprofExport {
    private final Profile profile;
    private final SourcePositions sources;
    private final long timeNanos;

    /** Without source lines or start time. */
    public PprofExport(Profile profile) {
        this(profile, new SourcePositions(profile, null), 0);
    }

    /**
     * @param sources   where the locations' source lines come from
     * @param timeNanos when the recording started, nanoseconds since the Unix epoch (0: unknown)
     */
    public PprofExport(Profile profile, SourcePositions sources, long timeNanos) {
        this.profile = profile;
        this.sources = sources;
        this.timeNanos = timeNanos;
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
        private final Locations locs = profile.locations();
        /** Per mapping of the profile, its pprof mapping (null: not used yet). */
        private final ProfileProto.Mapping.Builder[] mappings = new ProfileProto.Mapping.Builder[locs.mappings().size()];
        /** The pprof mappings in the order of their ids. */
        private final List<ProfileProto.Mapping.Builder> mappingOrder = new ArrayList<>();
        private final Map<List<Object>, Long> functions = new HashMap<>();
        private final Map<List<Integer>, Long> locations = new HashMap<>();
        /** Per location stack, the location ids of the stack, leaf first. */
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
            if (timeNanos != 0) {
                p.setTimeNanos(timeNanos);
            }
            mainMapping();
            samples(events.size());
            for (ProfileProto.Mapping.Builder m : mappingOrder) {
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
            long firstEventSamples = 0;
            long firstEventWeight = 0;
            for (int i = 0; i < profile.sampleCount(); i++) {
                int et = profile.event(i) * Math.max(1, profile.threadCount()) + profile.thread(i);
                long key = ((long) et << 32) | (profile.locationStack(i) & 0xffffffffL);
                int at = index.get(key, -1);
                if (at < 0) {
                    at = keys.size();
                    index.put(key, at);
                    keys.add(new long[] {profile.event(i), profile.thread(i), profile.locationStack(i)});
                    if (at == counts.length) {
                        counts = Arrays.copyOf(counts, at * 2);
                        weights = Arrays.copyOf(weights, at * 2);
                    }
                }
                counts[at] += profile.count(i);
                weights[at] += profile.weight(i);
                if (profile.event(i) == 0) {
                    firstEventSamples += profile.count(i);
                    firstEventWeight += profile.weight(i);
                }
                long t = profile.time(i);
                if (t >= 0) {
                    first = Math.min(first, t);
                    last = Math.max(last, t);
                }
            }
            if (first <= last) {
                p.setDurationNanos(last - first);
            }
            if (firstEventSamples > 0 && profile.hasPeriod(0)) {
                p.setPeriod(Math.round((double) firstEventWeight / firstEventSamples));
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

        /** The stack's pprof location ids, leaf first: the functions inlined at an address join the location of the address. */
        private long[] locations(int stack) {
            long[] known = stackLocations.get(stack);
            if (known != null) {
                return known;
            }
            StackTable stacks = profile.locationStacks();
            List<Long> out = new ArrayList<>();
            List<Integer> run = new ArrayList<>();
            for (int s = stack; s != StackTable.EMPTY; s = stacks.parent(s)) {
                int loc = stacks.frame(s);
                run.add(loc);
                if (!locs.inlined(loc)) {
                    out.add(location(run));
                    run = new ArrayList<>();
                }
            }
            if (!run.isEmpty()) {
                out.add(location(run)); // inlined functions with nothing beneath them
            }
            long[] ids = out.stream().mapToLong(Long::longValue).toArray();
            stackLocations.put(stack, ids);
            return ids;
        }

        /** The pprof location of a run of locations at one address, innermost function first. */
        private long location(List<Integer> run) {
            Long id = locations.get(run);
            if (id != null) {
                return id;
            }
            id = (long) locations.size() + 1;
            locations.put(List.copyOf(run), id);
            int base = run.getLast();
            ProfileProto.Location.Builder l = ProfileProto.Location.newBuilder().setId(id)
                    .setAddress(locs.address(base));
            ProfileProto.Mapping.Builder m = locs.mapping(base) < 0 ? null : mapping(locs.mapping(base));
            if (m != null) {
                l.setMappingId(m.getId());
            }
            for (int loc : run) {
                int frame = locs.frame(loc);
                Frame fr = profile.frames().get(frame);
                if (fr.sym() == null) {
                    continue;
                }
                SourcePositions.Position at = sources.of(loc);
                ProfileProto.Line.Builder line = ProfileProto.Line.newBuilder().setFunctionId(function(frame, at));
                if (at.line() > 0) {
                    line.setLine(at.line());
                }
                l.addLine(line);
                if (m != null) {
                    m.setHasFunctions(true);
                    m.setHasFilenames(m.getHasFilenames() || at.file() != null);
                    m.setHasLineNumbers(m.getHasLineNumbers() || at.line() > 0);
                    m.setHasInlineFrames(m.getHasInlineFrames() || run.size() > 1);
                }
            }
            p.addLocation(l);
            return id;
        }

        /**
         * The mapping perf's sampled command most likely ran: of the user objects the samples
         * landed in, the one named as the command that has the most samples (else the user
         * object with the most samples), made mapping 1.
         */
        private void mainMapping() {
            int n = locs.mappings().size();
            long[] leafSamples = new long[n];
            Map<String, Long> byComm = new HashMap<>();
            for (int i = 0; i < profile.sampleCount(); i++) {
                int ls = profile.locationStack(i);
                byComm.merge(profile.comm(profile.thread(i)), profile.count(i), Long::sum);
                if (ls == StackTable.EMPTY) {
                    continue;
                }
                int m = locs.mapping(profile.locationStacks().frame(ls));
                if (m >= 0 && locs.kind(profile.locationStacks().frame(ls)) == FrameKind.USER) {
                    leafSamples[m] += profile.count(i);
                }
            }
            String comm = byComm.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
            int best = -1;
            boolean bestNamed = false;
            for (int m = 0; m < n; m++) {
                if (leafSamples[m] == 0 || locs.mappings().dso(m).kind() != DsoKind.USER) {
                    continue;
                }
                String path = locs.mappings().path(m);
                String file = path.substring(path.lastIndexOf('/') + 1);
                boolean named = comm != null && !comm.isEmpty() && file.startsWith(comm);
                if (best < 0 || named && !bestNamed || named == bestNamed && leafSamples[m] > leafSamples[best]) {
                    best = m;
                    bestNamed = named;
                }
            }
            if (best >= 0) {
                mapping(best);
            }
        }

        private ProfileProto.Mapping.Builder mapping(int m) {
            if (mappings[m] == null) {
                Mappings ms = locs.mappings();
                ProfileProto.Mapping.Builder b = ProfileProto.Mapping.newBuilder().setId(mappingOrder.size() + 1)
                        .setMemoryStart(ms.start(m)).setMemoryLimit(ms.end(m)).setFileOffset(ms.fileOffset(m))
                        .setFilename(str(ms.path(m)));
                if (ms.buildId(m) != null) {
                    b.setBuildId(str(ms.buildId(m)));
                }
                mappings[m] = b;
                mappingOrder.add(b);
            }
            return mappings[m];
        }

        /** The function of a frame, its file from where it starts or else from a line of it. */
        private long function(int frame, SourcePositions.Position at) {
            Frame f = profile.frames().get(frame);
            String object = f.dso() == null ? "" : f.dso().longName();
            SourcePositions.Position start = sources.start(frame);
            String file = start.file() != null ? start.file() : at.file();
            List<Object> key = Arrays.asList(f.sym().name(), object, file);
            Long id = functions.get(key);
            if (id == null) {
                id = (long) functions.size() + 1;
                functions.put(key, id);
                long name = str(f.sym().name());
                ProfileProto.Function.Builder fn = ProfileProto.Function.newBuilder().setId(id).setName(name)
                        .setSystemName(name);
                if (file != null) {
                    fn.setFilename(str(file));
                }
                if (start.line() > 0) {
                    fn.setStartLine(start.line());
                }
                p.addFunction(fn);
            }
            return id;
        }
    }
}
