package io.perfj.annotate;

import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.BpfProg;
import io.perfj.perfdata.feature.EventGroups;
import io.perfj.perfdata.feature.EventNames;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.Features;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.Sample;
import io.perfj.session.MachineResolver;
import io.perfj.session.RecordHandler;
import io.perfj.session.SampleRef;
import io.perfj.session.Session;
import io.perfj.symbols.Dso;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Location;
import io.perfj.symbols.Machine;
import io.perfj.symbols.Symbol;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code perf annotate}: samples are attributed to the instructions of the symbols they hit,
 * then every symbol with samples (or the ones asked for), hottest first, is disassembled and
 * printed with its percentages. ELF functions go through a {@link Disassembler} backend; BPF
 * programs are disassembled from the JIT image recorded in the BPF_PROG_INFO feature, with source
 * lines from the program's BTF line info.
 */
public final class Annotate {
    /** What to annotate and how. */
    public record Options(Set<String> symbols, Disassembler disassembler, Disassembler.Request request,
                          AnnotationPrinter.Options print, boolean stdio, boolean xlated, byte[] xlatedInsns,
                          io.perfj.bpf.KernelSymbols kernelSymbols, boolean json, boolean printLine,
                          EventGroups.Mode groups) {
        /** Without {@code --print-line}, the recorded groups shown together (JSON: every event on its own). */
        public Options(Set<String> symbols, Disassembler disassembler, Disassembler.Request request,
                       AnnotationPrinter.Options print, boolean stdio, boolean xlated, byte[] xlatedInsns,
                       io.perfj.bpf.KernelSymbols kernelSymbols, boolean json) {
            this(symbols, disassembler, request, print, stdio, xlated, xlatedInsns, kernelSymbols, json, false,
                    json ? EventGroups.Mode.NONE : EventGroups.Mode.RECORDED);
        }
    }

    /** One symbol's samples: offsets into it with their hits and period. */
    static final class Entry {
        final int evsel;
        final Dso dso;
        final Symbol sym;
        final long absStart;
        long period;
        long samples;
        final Map<Long, long[]> hist = new HashMap<>();

        Entry(int evsel, Dso dso, Symbol sym, long absStart) {
            this.evsel = evsel;
            this.dso = dso;
            this.sym = sym;
            this.absStart = absStart;
        }
    }

    private record Key(int evsel, Dso dso, Symbol sym) {
        // equals/hashCode written out: a record's own are bootstrapped at run time (start-up)
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && evsel == k.evsel && java.util.Objects.equals(dso, k.dso)
                    && java.util.Objects.equals(sym, k.sym);
        }

        @Override
        public int hashCode() {
            return (evsel * 31 + java.util.Objects.hashCode(dso)) * 31 + java.util.Objects.hashCode(sym);
        }
    }

    private final Session session;
    private final PerfData data;
    private final MachineResolver resolver;
    private final Options opts;
    private final Consumer<String> warn;
    private final Set<Dso> warnedDsos = new HashSet<>();
    /** The compatibility mode's strategies. */
    private final AnnotateQuirks quirks;
    /** The symbols samples deleted from their tables (perf 6.1's; see {@link #run}), or null. */
    private AnnotateQuirks.Deletions deletions;
    private List<BpfProg> bpfProgs;
    private Map<Long, byte[]> btfById;

    public Annotate(Session session, Options opts, Consumer<String> warn) {
        this.session = session;
        this.quirks = AnnotateQuirks.of(session);
        this.data = session.data();
        this.resolver = session.resolver();
        this.opts = opts;
        this.warn = warn;
    }

    /**
     * Reads the samples and prints every annotation to {@code out}; returns how many were printed.
     * Samples are first counted per (event, DSO, address in the DSO) while the records stream by,
     * without symbol lookups; then the symbol tables of the DSOs hit are loaded in parallel and the
     * addresses bucketed into symbols. The result is what resolving each sample would give.
     */
    public int run(StringBuilderSink out) {
        Counts counts = new Counts();
        // symbol tables load on a helper thread as soon as a DSO is first hit, while samples stream
        java.util.concurrent.ExecutorService loader = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
            java.lang.Thread t = new java.lang.Thread(r, "perfj-symbols");
            t.setDaemon(true);
            return t;
        });
        counts.loader = loader;
        try {
            session.run(new RecordHandler() {
                @Override
                public void sample(SampleRef s) {
                    counts.add(s.event(), s.pid(), s.tid(), s.cpumode(), s.ip(), s.period());
                }

                @Override
                public void beforeModel(PerfRecord rec) {
                    if (changesKernelMaps(rec)) {
                        counts.drainKernel();
                    }
                }

                @Override
                public void record(PerfRecord rec) {
                    if (changesKernelMaps(rec)) {
                        counts.kernelSkipped = false; // decided again for the samples after it
                    }
                }

                @Override
                public boolean decodesSamples() {
                    return false;
                }

                @Override
                public boolean preloadsSymbols() {
                    return false; // its own loader skips objects that cannot hold the symbols asked for
                }
            });
            session.recordWarnings().forEach(w -> warn.accept("warning: " + w));
            counts.drainKernel();
        } finally {
            loader.shutdown();
        }
        counts.dsos.parallelStream().filter(counts::wanted).forEach(Dso::symbols);
        // perf 6.1 deletes the other symbols samples hit
        deletions = quirks.deletions(!opts.symbols().isEmpty(), opts.stdio(),
                data.features().get(FeatureId.BRANCH_STACK) != null);
        io.perfj.symbols.Demangling naming = session.names();
        List<Map<Key, Entry>> byEvsel = new ArrayList<>();
        for (int ev = 0; ev < counts.hits.size(); ev++) {
            Map<Key, Entry> entries = new LinkedHashMap<>();
            byEvsel.add(entries);
            for (Map.Entry<Dso, AddrCounts> d : counts.hits.get(ev).entrySet()) {
                Dso dso = d.getKey();
                if (!counts.wanted(dso)) {
                    continue; // none of the symbols asked for is in it
                }
                AddrCounts ac = d.getValue();
                for (int i = 0; i < ac.size; i++) {
                    long mapIp = ac.addrs[i];
                    long n = ac.samples[i];
                    long period = ac.periods[i];
                    Symbol sym = dso.symbols().find(mapIp);
                    if (!opts.symbols().isEmpty()) {
                        if (sym == null || !naming.isAsked(opts.symbols(), sym.name())) {
                            if (deletions != null) {
                                deletions.hit(dso, sym);
                            }
                            continue; // perf drops samples outside the symbols asked for
                        }
                        counts.totals.get(ev)[0] += n;
                        counts.totals.get(ev)[1] += period;
                    }
                    if (sym == null) {
                        continue;
                    }
                    int evIndex = ev;
                    Entry e = entries.computeIfAbsent(new Key(ev, dso, sym),
                            k -> new Entry(evIndex, dso, sym, sym.start() + counts.ipDelta.get(dso)));
                    e.period += period;
                    e.samples += n;
                    long[] h = e.hist.computeIfAbsent(mapIp - sym.start(), k -> new long[2]);
                    h[0] += n;
                    h[1] += period;
                }
            }
        }
        List<long[]> totals = counts.totals;
        List<String> names = EventNames.names(data);
        EventGroups groups = groups();
        int printed = 0;
        for (int ev = 0; ev < byEvsel.size(); ev++) {
            if (!groups.isLeader(ev)) {
                continue; // its leader's annotations show it
            }
            List<Integer> members = members(groups, ev, byEvsel.size());
            List<Entry> entries = new ArrayList<>(byEvsel.get(ev).values());
            entries.sort(Comparator.comparingLong((Entry e) -> e.period).reversed()
                    .thenComparing(e -> e.dso.shortName())
                    .thenComparingLong(e -> e.sym.start()));
            Evsel evsel = data.evlist().evsels().get(ev);
            String event = groups.isGroupEvent(ev) ? groups.describe(ev, names) : names.get(ev);
            long[] total = quirks.groupTotal(totals, ev, members);
            for (Entry e : entries) {
                Annotation a = annotate(e, totals.get(ev)[0], totals.get(ev)[1]);
                if (a == null) {
                    continue;
                }
                for (int m : members) {
                    Entry me = byEvsel.get(m).get(new Key(m, e.dso, e.sym));
                    long[][] h = me == null ? new long[3][0] : histogram(me);
                    a.accountMember(h[0], h[1], h[2], totals.get(m)[0], totals.get(m)[1]);
                }
                if (!members.isEmpty()) {
                    a = quirks.shown(a); // the members' columns too
                }
                print(a, e, evsel, event, total, groups.nrMembers(ev) > 1, out);
                printed++;
            }
        }
        if (opts.json()) {
            out.accept(new StringBuilder(jsonCount == 0 ? "[]\n" : "\n]\n"));
        }
        return printed;
    }

    /**
     * Prints one symbol's annotation from sums counted elsewhere ({@code perfj top}'s live
     * profile) instead of the session's records: {@code offsets} into {@code sym} (which starts
     * at {@code absStart} in the sampled address space) with their samples and period. The
     * totals are the symbol's own, as when {@link #run} is asked for that symbol by name; the
     * event is the session's (its events joined when there are several). Whether it was printed:
     * when not, a warning said why.
     */
    public boolean printSums(Dso dso, Symbol sym, long absStart, long[] offsets, long[] samples, long[] periods,
                             StringBuilderSink out) {
        Entry e = new Entry(0, dso, sym, absStart);
        for (int i = 0; i < offsets.length; i++) {
            e.hist.put(offsets[i], new long[] {samples[i], periods[i]});
            e.samples += samples[i];
            e.period += periods[i];
        }
        Annotation a = annotate(e, e.samples, e.period);
        if (a == null) {
            return false;
        }
        List<String> names = EventNames.names(data);
        print(a, e, data.evlist().evsels().get(0), String.join(",", names), new long[] {e.samples, e.period}, out);
        if (opts.json()) {
            out.accept(new StringBuilder("\n]\n"));
        }
        return true;
    }

    private static boolean kernelMode(int misc) {
        int cpumode = misc & io.perfj.perfdata.record.KernelRecord.MISC_CPUMODE_MASK;
        return cpumode == Machine.CPUMODE_KERNEL || cpumode == Machine.CPUMODE_GUEST_KERNEL;
    }

    private static boolean changesKernelMaps(PerfRecord rec) {
        // instanceof, not a pattern switch (bootstrapped at its first run: start-up)
        if (rec instanceof io.perfj.perfdata.record.KernelRecord.Mmap2 m) {
            return kernelMode(m.misc());
        }
        if (rec instanceof io.perfj.perfdata.record.KernelRecord.Mmap m) {
            return kernelMode(m.misc());
        }
        return rec instanceof io.perfj.perfdata.record.KernelRecord.Ksymbol;
    }

    /** Samples per event, DSO and address in the DSO, counted while the records stream by. */
    private final class Counts {
        final List<Map<Dso, AddrCounts>> hits = new ArrayList<>();
        final Map<Dso, Long> ipDelta = new HashMap<>();
        final List<long[]> totals = new ArrayList<>();
        final Set<Dso> dsos = new java.util.LinkedHashSet<>();
        java.util.concurrent.ExecutorService loader;
        /**
         * With symbols asked for by plain or qualified names, objects whose string tables hold none of them
         * are not loaded at all (their samples cannot count); decided once per object.
         */
        private final boolean probe = !opts.symbols().isEmpty()
                && opts.symbols().stream().allMatch(io.perfj.symbols.NameProbe::probeable);
        private final java.util.concurrent.ConcurrentHashMap<Dso, Boolean> wanted = new java.util.concurrent.ConcurrentHashMap<>();

        boolean wanted(Dso dso) {
            return !probe || wanted.computeIfAbsent(dso,
                    d -> io.perfj.symbols.NameProbe.mayHold(resolver.machine().finder(), d, opts.symbols()));
        }
        private Dso lastDso;
        private AddrCounts last;
        private int lastEv = -1;

        /**
         * Kernel samples wait here until the kernel's symbols have loaded on the helper thread
         * (loading them sets the kernel map's extent, so locating a kernel address needs them);
         * they are located before anything changes the kernel's maps, so the answer is the same.
         */
        private boolean kernelPending = true;
        private long[] deferred = new long[0];
        private int deferredCount;
        private java.util.concurrent.Future<Boolean> kernelLoad;
        /** No kernel-mode sample can count: held-back ones are dropped unloaded. */
        private boolean kernelSkipped;

        private boolean kernelMayCount() {
            try {
                if (kernelLoad.get()) {
                    return true;
                }
            } catch (InterruptedException e) {
                java.lang.Thread.currentThread().interrupt();
                return true;
            } catch (java.util.concurrent.ExecutionException e) {
                return true;
            }
            // kallsyms was searched on the helper thread
            return io.perfj.symbols.NameProbe.kernelMapsMayHold(resolver.machine(), opts.symbols());
        }

        void add(int ev, int pid, int tid, int cpumode, long ip, long period) {
            if (cpumode == Machine.CPUMODE_KERNEL && kernelPending) {
                if (kernelSkipped) {
                    resolver.seen(pid, tid);
                    return; // cannot count (until a record changes the kernel's maps)
                }
                if (kernelLoad == null) {
                    Dso k = resolver.machine().kernelDso();
                    kernelLoad = loader.submit(() -> {
                        boolean may = !probe || io.perfj.symbols.NameProbe.kallsymsMayHold(
                                resolver.machine().finder(), k, opts.symbols());
                        if (may) {
                            k.symbols();
                        }
                        return may;
                    });
                } else if (kernelLoad.isDone() && !kernelSkipped) {
                    drainKernel();
                    add(ev, pid, tid, cpumode, ip, period);
                    return;
                }
                resolver.seen(pid, tid); // the thread exists from here on, as when located now
                if (deferredCount * 3 + 3 > deferred.length) {
                    deferred = java.util.Arrays.copyOf(deferred, Math.max(3 * 1024, deferred.length * 2));
                }
                deferred[deferredCount * 3] = ev;
                deferred[deferredCount * 3 + 1] = ip;
                deferred[deferredCount * 3 + 2] = period;
                deferredCount++;
                return;
            }
            count(ev, resolver.findMap(pid, tid, cpumode, ip), ip, period);
        }

        /** Locates the kernel samples held back so far (waiting for the kernel's symbols if need be). */
        void drainKernel() {
            if (deferredCount == 0) {
                return;
            }
            if (probe && !kernelMayCount()) {
                // none of the symbols asked for is in the kernel, its modules or BPF programs
                kernelSkipped = true;
                deferredCount = 0;
                return;
            }
            kernelSkipped = false;
            kernelPending = false;
            int n = deferredCount;
            deferredCount = 0;
            for (int i = 0; i < n; i++) {
                long ip = deferred[i * 3 + 1];
                count((int) deferred[i * 3], resolver.machine().findMap(null, Machine.CPUMODE_KERNEL, ip), ip,
                        deferred[i * 3 + 2]);
            }
            deferred = new long[0];
        }

        /** Counts a sample at {@code ip}, in {@code map} (null: no map has it). */
        private void count(int ev, io.perfj.symbols.Map map, long ip, long period) {
            while (totals.size() <= ev) {
                totals.add(new long[2]);
                hits.add(new HashMap<>());
            }
            if (opts.symbols().isEmpty()) {
                totals.get(ev)[0]++;
                totals.get(ev)[1] += period;
            }
            Dso dso = map == null ? null : map.dso();
            if (dso == null) {
                return;
            }
            long mapIp = map.mapIp(ip);
            AddrCounts ac;
            if (dso == lastDso && ev == lastEv) {
                ac = last;
            } else {
                ac = hits.get(ev).computeIfAbsent(dso, k -> new AddrCounts());
                lastDso = dso;
                lastEv = ev;
                last = ac;
                // once the probe has ruled the object out, its samples need no counting
                ac.skip = probe && Boolean.FALSE.equals(wanted.get(dso));
                if (dsos.add(dso)) {
                    ipDelta.put(dso, ip - mapIp);
                    loader.execute(() -> {
                        if (wanted(dso)) {
                            dso.symbols();
                        }
                    });
                }
            }
            if (!ac.skip) {
                ac.add(mapIp, period);
            }
        }
    }

    /** Hits and period per address of one object. */
    private static final class AddrCounts extends AddressCounts {
        /** The probe ruled this object out: its samples are not counted (checked when met again). */
        boolean skip;
    }

    private int jsonCount;

    /** Where text goes; a StringBuilder per annotation keeps memory flat. */
    public interface StringBuilderSink {
        void accept(StringBuilder sb);
    }

    private void print(Annotation a, Entry e, Evsel evsel, String event, long[] total, StringBuilderSink out) {
        print(a, e, evsel, event, total, false, out);
    }

    private void print(Annotation a, Entry e, Evsel evsel, String event, long[] total, boolean group,
                       StringBuilderSink out) {
        StringBuilder sb = new StringBuilder();
        SourceSummary lines = opts.printLine() && !opts.json() ? summary(a, e) : null;
        if (lines != null) {
            sb.append(lines.text());
        }
        if (opts.json()) {
            sb.append(jsonCount++ == 0 ? "[\n" : ",\n");
            AnnotationPrinter.json(a, opts.print(), e.sym.name(), e.dso.longName(), event, sb);
        } else if (opts.stdio()) {
            AnnotationPrinter.stdio(a, opts.print(), e.dso.longName(), event, lines == null ? Map.of() : lines.paths(), sb);
        } else {
            sb.append(title(evsel, event, group, total[0], total[1])).append(", [percent: ")
                    .append(opts.print().percentType().title()).append("]\n");
            sb.append(e.sym.name()).append("() ").append(e.dso.longName()).append('\n');
            AnnotationPrinter.stdio2(a, opts.print(), sb);
        }
        out.accept(sb);
    }

    private SourceLocator sources;

    /**
     * {@code --print-line}'s summary of a function: each hot instruction's source line, as
     * report's srcline prints it (the file without directories, or the object and the address
     * where no line table covers it; {@code -P}: the file as the line table names it).
     */
    private SourceSummary summary(Annotation a, Entry e) {
        if (sources == null) {
            sources = new SourceLocator(resolver.machine().finder(), () -> io.perfj.bpf.RecordedBpf.read(data));
        }
        boolean full = opts.print().fullPaths();
        return SourceSummary.of(a, opts.print().percentType(), off -> {
            SourceLocator.Place p = sources.at(e.dso, e.sym.start() + off);
            return p == null ? e.dso.shortName() + "[" + Long.toHexString(a.start() + off) + "]"
                    : full ? p.file() + ":" + p.line() : p.srcline();
        }, e.dso.longName());
    }

    /**
     * perf's hists title: {@code Samples: 303  of event 'cpu-clock', 999 Hz, Event count (approx.): N};
     * a group's says "events".
     */
    static String title(Evsel evsel, String event, boolean group, long samples, long period) {
        char unit = ' ';
        long n = samples;
        for (char u : new char[] {'K', 'M', 'G'}) {
            if (n > 1000) {
                n /= 1000;
                unit = u;
            }
        }
        return "Samples: " + n + unit + " of event" + (group ? "s" : "") + " '" + event + "', " + (int) evsel.attr().samplePeriod()
                + " Hz, Event count (approx.): " + Long.toUnsignedString(period);
    }

    private Annotation annotate(Entry e, long totalSamples, long totalPeriod) {
        Dso dso = e.dso;
        if (warnedDsos.contains(dso)) {
            return null;
        }
        Annotation a;
        try {
            a = switch (dso.kind()) {
                case BPF -> bpf(e);
                case JIT_CODE -> jit(e);
                case USER, KERNEL_MODULE, VDSO -> elf(e);
                case KERNEL -> {
                    warnOnce(dso, "cannot annotate " + e.sym.name() + ": no vmlinux for " + dso.longName()
                            + " (perfj reads kernel code from a vmlinux or .ko, not from kallsyms)");
                    yield null;
                }
                default -> {
                    warnOnce(dso, "cannot annotate " + e.sym.name() + ": " + dso.longName()
                            + " has no code on disk (JIT or anonymous memory)");
                    yield null;
                }
            };
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        if (a == null) {
            return null;
        }
        long[][] h = histogram(e);
        a.account(h[0], h[1], h[2], totalSamples, totalPeriod);
        return quirks.shown(a);
    }

    /** An entry's offsets with their hits and periods. */
    private static long[][] histogram(Entry e) {
        long[][] out = new long[3][e.hist.size()];
        int i = 0;
        for (Map.Entry<Long, long[]> h : e.hist.entrySet()) {
            out[0][i] = h.getKey();
            out[1][i] = h.getValue()[0];
            out[2][i] = h.getValue()[1];
            i++;
        }
        return out;
    }

    /**
     * The groups shown together: the recorded ones (perf annotate's default), all events one
     * group ({@code --group} on a recording without groups), or none.
     */
    private EventGroups groups() {
        int n = data.evlist().evsels().size();
        return switch (opts.groups()) {
            case RECORDED -> EventGroups.recorded(data);
            case FORCED -> EventGroups.recorded(data).forced();
            case NONE -> EventGroups.of(n, List.of());
        };
    }

    /** The events of the group {@code leader} leads, after it, that have samples counted. */
    private static List<Integer> members(EventGroups groups, int leader, int counted) {
        List<Integer> out = new ArrayList<>();
        for (int m = leader + 1; m < counted; m++) {
            if (groups.leader(m) == leader) {
                out.add(m);
            }
        }
        return out;
    }

    private void warnOnce(Dso dso, String msg) {
        if (warnedDsos.add(dso)) {
            warn.accept(msg);
        }
    }

    private Annotation elf(Entry e) throws IOException {
        Dso dso = e.dso;
        Path code = null;
        Path lines = null;
        CodeAddresses at = null;
        String otherObject = null;
        for (Path p : resolver.machine().finder().elfCandidates(dso)) {
            if (!Files.isRegularFile(p)) {
                continue;
            }
            try (ElfFile f = ElfFile.open(p)) {
                if (!sameObject(dso, f)) {
                    // another build of the path (or another object): its bytes are not the samples' code
                    if (otherObject == null) {
                        otherObject = p.toString();
                    }
                    continue;
                }
                CodeAddresses ca = CodeAddresses.of(f, dso.kind() != DsoKind.KERNEL_MODULE);
                if (code == null && hasCode(f, ca.vaddr(e.sym.start()))) {
                    code = p;
                    at = ca;
                }
                if (lines == null && f.section(".debug_line").isPresent()) {
                    lines = p;
                }
            } catch (RuntimeException ex) {
                // not an ELF we can read: try the next candidate
            }
        }
        if (code == null) {
            warnOnce(dso, "cannot annotate " + e.sym.name() + ": no file with the code of " + dso.longName()
                    + " was found" + (otherObject == null ? "" : " (" + otherObject + " has another build-id)")
                    + " (try --symfs or --buildid-dir)");
            return null;
        }
        Disassembler.Request r = opts.request();
        Disassembler.Request req = new Disassembler.Request(r.lineNumbers(), r.source(), r.rawInsn(), r.style(),
                r.prefix(), r.prefixStrip(), lines);
        // the symbol table holds file offsets; objdump shows the ELF's virtual addresses (an
        // ET_EXEC executable's start at its link address, 0x400000 and up, with no load bias)
        long start = at.vaddr(e.sym.start());
        long end = start + (e.sym.end() - e.sym.start());
        List<String> listing = opts.disassembler().listing(code, start, end, req);
        AnnotateQuirks.Deletions gone = deletions;
        CodeAddresses map = at;
        return Annotation.fromListing(listing, e.sym.name(), start, end, code.toString(), a -> {
            Symbol s = dso.symbols().find(map.offset(a));
            return s == null || (gone != null && gone.deleted(dso, s)) ? null : s.name();
        });
    }

    /**
     * Whether {@code f} is the object the samples ran: with build-ids on both sides they must be
     * equal (a same-named function of another file must never be shown in its place).
     */
    private static boolean sameObject(Dso dso, ElfFile f) {
        String want = dso.buildIdHex();
        if (want == null || want.isEmpty()) {
            return true;
        }
        String have = f.buildIdHex().orElse(null);
        return have == null || have.equalsIgnoreCase(want) || trimmedEqual(have, want);
    }

    /** perf pads a recorded build-id to 20 bytes with zeros; compare without the padding. */
    private static boolean trimmedEqual(String a, String b) {
        String x = a.toLowerCase(java.util.Locale.ROOT);
        String y = b.toLowerCase(java.util.Locale.ROOT);
        return x.length() < y.length() ? y.startsWith(x) && y.substring(x.length()).matches("0*")
                : x.startsWith(y) && x.substring(y.length()).matches("0*");
    }

    /**
     * Between the file offsets user objects' symbols are kept in and the ELF's virtual addresses
     * objdump works in, through the PT_LOAD segments of the code file. Equal for most shared
     * objects and PIE executables, not for ET_EXEC ones; objects without program headers (kernel
     * modules) keep their symbols' addresses.
     */
    record CodeAddresses(long[] offsets, long[] vaddrs, long[] sizes) {
        static CodeAddresses of(ElfFile f, boolean fileOffsets) {
            List<io.perfj.elf.ProgramHeader> loads = new ArrayList<>();
            if (fileOffsets) {
                for (io.perfj.elf.ProgramHeader ph : f.programHeaders()) {
                    if (ph.isLoad()) {
                        loads.add(ph);
                    }
                }
            }
            long[] o = new long[loads.size()];
            long[] v = new long[o.length];
            long[] n = new long[o.length];
            for (int i = 0; i < o.length; i++) {
                o[i] = loads.get(i).offset();
                v[i] = loads.get(i).vaddr();
                n[i] = loads.get(i).filesz();
            }
            return new CodeAddresses(o, v, n);
        }

        /** The virtual address of a file offset (unchanged outside every segment). */
        long vaddr(long offset) {
            for (int i = 0; i < offsets.length; i++) {
                if (Long.compareUnsigned(offset - offsets[i], sizes[i]) < 0) {
                    return offset - offsets[i] + vaddrs[i];
                }
            }
            return offset;
        }

        /** The file offset of a virtual address (unchanged outside every segment). */
        long offset(long vaddr) {
            for (int i = 0; i < offsets.length; i++) {
                if (Long.compareUnsigned(vaddr - vaddrs[i], sizes[i]) < 0) {
                    return vaddr - vaddrs[i] + offsets[i];
                }
            }
            return vaddr;
        }
    }

    static boolean hasCode(ElfFile f, long addr) {
        for (SectionHeader s : f.sections()) {
            if (s.hasFileData() && s.isAlloc() && (s.flags() & 4) != 0 && Long.compareUnsigned(addr, s.addr()) >= 0
                    && Long.compareUnsigned(addr, s.addr() + s.size()) < 0) {
                return true;
            }
        }
        return false;
    }

    private Annotation bpf(Entry e) throws IOException {
        BpfProg prog = null;
        int func = -1;
        for (BpfProg p : bpfProgs()) {
            int f = BpfSource.subprogram(p, e.absStart);
            if (f >= 0) {
                prog = p;
                func = f;
                break;
            }
        }
        String name = e.sym.name();
        if (prog == null) {
            warnOnce(e.dso, "cannot annotate " + name + ": the recording has no BPF program info for it"
                    + " (BPF_PROG_INFO feature missing or without its JIT addresses)");
            return null;
        }
        if (opts.xlated()) {
            return xlated(prog, func, e);
        }
        byte[] image = prog.hasArray(BpfProg.JITED_INSNS) ? BpfSource.image(prog, func) : null;
        if (image == null || image.length == 0) {
            warnOnce(e.dso, "cannot annotate " + name + ": the recording has no JIT image for it"
                    + " (BPF_PROG_INFO without JITED_INSNS)");
            return null;
        }
        BpfSource src = new BpfSource(prog);
        BpfSource.Strings strings = bpfStrings(prog);
        if (!src.hasLineInfo()) {
            warn.accept(name + ": no line info recorded; showing instructions only");
        } else if (strings == null) {
            warn.accept(name + ": BTF id " + prog.info().btfId()
                    + " is not in the recording (BPF_BTF feature); showing instructions only");
        }
        long base = e.absStart;
        List<String> listing = opts.disassembler().listing(image, base, name, Disassembler.Request.plain());
        Annotation parsed = Annotation.fromListing(listing, name, base, base + image.length, null, a -> null);
        List<Annotation.Entry> out = new ArrayList<>();
        int skip = 0;
        for (AnnotationLine al : parsed.lines()) {
            if (al.offset < 0) {
                continue;
            }
            long addr = base + al.offset;
            String srcline = null;
            BpfProg.LineInfo li = strings == null ? null : src.find(addr, func, skip);
            if (li != null) {
                srcline = strings.at(li.lineOff());
                skip++;
            }
            if (!opts.print().hideSource() && srcline != null) {
                out.add(new Annotation.Entry(-1, srcline));
            }
            out.add(new Annotation.Entry(al.offset, Annotation.strim(al.line)));
        }
        return Annotation.fromEntries(out, name, base, base + image.length, this::kernelSymbolAt, false);
    }

    /**
     * JIT code from a jitdump: its bytes from the dump through the disassembler path of BPF JIT
     * images, at the address perf inject's ELF image gives it ({@link JitCode#TEXT_OFFSET}, so the
     * offsets are perf's), with the source position of the dump's debug-info records before each
     * instruction that starts a new one. Jump targets inside the code are named after it.
     */
    private Annotation jit(Entry e) throws IOException {
        io.perfj.jit.JitCode c = e.dso.jitCode();
        String name = e.sym.name();
        byte[] code = c.code();
        long base = e.sym.start();
        List<String> listing = opts.disassembler().listing(code, base, name, Disassembler.Request.plain());
        Annotation parsed = Annotation.fromListing(listing, name, base, base + code.length, null, a -> null);
        List<Annotation.Entry> out = new ArrayList<>();
        io.perfj.jit.JitRecord.LineEntry shown = null;
        for (AnnotationLine al : parsed.lines()) {
            if (al.offset < 0) {
                continue;
            }
            io.perfj.jit.JitRecord.LineEntry line = c.lineAt(c.codeAddr() + al.offset);
            if (line != null && line != shown && !opts.print().hideSource()) {
                out.add(new Annotation.Entry(-1, line.srcline()));
            }
            if (line != null) {
                shown = line;
            }
            out.add(new Annotation.Entry(al.offset, JitSource.namedTarget(al.line, base, name)));
        }
        long end = base + code.length;
        return Annotation.fromEntries(out, name, base, end,
                a -> Long.compareUnsigned(a, base) >= 0 && Long.compareUnsigned(a, end) < 0 ? name : null, false);
    }

    /** The kernel or BPF symbol at an address (call targets of JIT code). */
    private String kernelSymbolAt(long addr) {
        Location l = resolver.resolve(-1, -1, io.perfj.symbols.Machine.CPUMODE_KERNEL, addr);
        return l.symbol() == null ? null : l.symbol().name();
    }

    /**
     * The eBPF bytecode view: the sub-program's translated instructions in the verifier's syntax,
     * with function headers and source lines. perf does not record translated instructions, so
     * they come from {@code bpftool prog dump xlated id N file FILE} (--xlated-file) when the
     * recording lacks them. A sample at a JIT address counts for the first instruction of the
     * source line executing there (the jited line info both images share).
     */
    private Annotation xlated(BpfProg prog, int func, Entry e) {
        String name = e.sym.name();
        BpfProg p = prog;
        boolean recorded = prog.hasArray(BpfProg.XLATED_INSNS) && prog.xlatedInsns().length > 0;
        if (!recorded) {
            byte[] file = opts.xlatedInsns();
            if (file == null || file.length != prog.info().xlatedProgLen()) {
                warnOnce(e.dso, "cannot annotate " + name + " as eBPF bytecode: the recording has no translated"
                        + " instructions (perf does not record them); pass --xlated-file FILE made by 'bpftool prog dump"
                        + " xlated id " + prog.info().id() + " file FILE' (" + prog.info().xlatedProgLen() + " bytes)");
                return null;
            }
            p = io.perfj.bpf.RecordedBpf.withXlated(prog, file);
        }
        java.util.Map<Long, byte[]> btfs = new HashMap<>();
        bpfStrings(prog);
        btfs.putAll(btfById);
        io.perfj.bpf.RecordedBpf rb = io.perfj.bpf.RecordedBpf.of(bpfProgs(), btfs, java.nio.ByteOrder.LITTLE_ENDIAN);
        var xo = io.perfj.bpf.XlatedPrinter.Options.DEFAULT.withLinum(true);
        List<io.perfj.bpf.XlatedInsn> insns = io.perfj.bpf.XlatedPrinter.instructions(p, rb.btfText(p),
                opts.kernelSymbols() == null ? io.perfj.bpf.KernelSymbols.empty() : opts.kernelSymbols(), xo);
        List<io.perfj.bpf.XlatedInsn> mine = new ArrayList<>();
        for (io.perfj.bpf.XlatedInsn x : insns) {
            if (x.subprog() == func || (func == 0 && insns.stream().allMatch(y -> y.subprog() == 0))) {
                mine.add(x);
            }
        }
        if (mine.isEmpty()) {
            warnOnce(e.dso, "cannot annotate " + name + " as eBPF bytecode: no instructions of sub-program " + func);
            return null;
        }
        int first = mine.get(0).index();
        io.perfj.bpf.XlatedInsn last = mine.get(mine.size() - 1);
        int end = last.index() + last.slots();
        List<Annotation.Entry> out = new ArrayList<>();
        out.add(new Annotation.Entry(-1, "; eBPF bytecode; samples counted at the first instruction of the source"
                + " line running at each sampled JIT address (jited line info)"));
        for (io.perfj.bpf.XlatedInsn x : mine) {
            for (String b : x.before()) {
                if (!opts.print().hideSource()) {
                    out.add(new Annotation.Entry(-1, b));
                }
            }
            out.add(new Annotation.Entry(x.index() - first, x.numbered(xo.syntax()).strip()));
        }
        // move the samples from JIT offsets to instruction indexes
        io.perfj.bpf.JitedLines jl = io.perfj.bpf.JitedLines.of(p);
        Map<Long, long[]> moved = new HashMap<>();
        long unplaced = 0;
        for (Map.Entry<Long, long[]> h : e.hist.entrySet()) {
            java.util.OptionalInt at = jl.xlatedInsnAt(e.absStart + h.getKey());
            if (at.isEmpty() || at.getAsInt() < first || at.getAsInt() >= end) {
                unplaced += h.getValue()[0];
                continue;
            }
            long[] m = moved.computeIfAbsent((long) (at.getAsInt() - first), k -> new long[2]);
            m[0] += h.getValue()[0];
            m[1] += h.getValue()[1];
        }
        if (unplaced > 0) {
            warn.accept(name + ": " + unplaced + " samples have no line info record and are not shown in the bytecode");
        }
        e.hist.clear();
        e.hist.putAll(moved);
        return Annotation.fromEntries(out, name, first, end, a -> null, true);
    }

    List<BpfProg> bpfProgs() {
        if (bpfProgs == null) {
            bpfProgs = new ArrayList<>();
            var b = data.features().get(FeatureId.BPF_PROG_INFO);
            if (b != null) {
                Feature f = Features.decode(FeatureId.BPF_PROG_INFO, b, data);
                if (f instanceof Feature.BpfProgInfo info) {
                    bpfProgs.addAll(info.programs());
                }
            }
        }
        return bpfProgs;
    }

    BpfSource.Strings bpfStrings(BpfProg prog) {
        if (btfById == null) {
            btfById = new HashMap<>();
            var b = data.features().get(FeatureId.BPF_BTF);
            if (b != null) {
                Feature f = Features.decode(FeatureId.BPF_BTF, b, data);
                if (f instanceof Feature.BpfBtf btf) {
                    for (Feature.BpfBtf.Btf x : btf.entries()) {
                        btfById.put(x.id(), x.data());
                    }
                }
            }
        }
        return BpfSource.Strings.of(btfById.get(prog.info().btfId()));
    }
}
