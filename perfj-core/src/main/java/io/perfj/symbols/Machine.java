package io.perfj.symbols;

import io.perfj.io.Bytes;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.Features;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.Sample;
import io.perfj.perfdata.record.UserRecord;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The recorded machine as perf models it ({@code struct machine}): threads with their address
 * spaces, the kernel's maps, and the DSOs, updated by the non-sample records in delivery order
 * the way {@code machine__process_*_event} does, and used to resolve sample addresses.
 *
 * <ul>
 * <li>FORK: the child shares its process's maps when it is a thread of the parent's process,
 *     and gets a copy of the parent's maps when it is a new process; a thread already known
 *     under the child's tid is dropped first.</li>
 * <li>COMM: sets the comm; with PERF_RECORD_MISC_COMM_EXEC it is an exec. perf keeps the old
 *     maps across an exec (the new image's mmaps displace what they overlap); with
 *     {@link #execClearsMaps(boolean)} an exec starts an empty address space instead.</li>
 * <li>EXIT: marks the thread exited (it stays findable, as in perf).</li>
 * <li>MMAP/MMAP2 in kernel mode: {@code [kernel.kallsyms]_text} places the kernel map,
 *     other names add module maps; in user mode a map is inserted into the thread's maps with
 *     {@link Maps#fixupOverlapAndInsert}. Anonymous executable memory becomes the JIT DSO
 *     {@code /tmp/perf-PID.map}; a build-id in MMAP2 sets the DSO's build-id.</li>
 * <li>KSYMBOL: registers a BPF program (a map and a DSO {@code bpf_prog_TAG_NAME} with one
 *     symbol) in the kernel maps; unregister removes it. BPF_EVENT is noted.</li>
 * </ul>
 * Build-ids from the BUILD_ID header table (or HEADER_BUILD_ID records) are attached to the
 * DSOs by file name. Resolution takes place through {@link #resolve}; DSO symbols load lazily
 * through a {@link DsoFinder}.
 */
public final class Machine {
    public static final int CPUMODE_UNKNOWN = 0;
    public static final int CPUMODE_KERNEL = 1;
    public static final int CPUMODE_USER = 2;
    public static final int CPUMODE_HYPERVISOR = 3;
    public static final int CPUMODE_GUEST_KERNEL = 4;
    public static final int CPUMODE_GUEST_USER = 5;
    /** FORK misc bit perf sets on synthesized forks: do not clone the parent's maps. */
    public static final int MISC_FORK_EXEC = 1 << 13;
    /** KSYMBOL flag: unregister. */
    public static final int KSYMBOL_FLAGS_UNREGISTER = 1;
    public static final int KSYMBOL_TYPE_BPF = 1;
    public static final int KSYMBOL_TYPE_OOL = 2;
    /** The kernel's MMAP name prefix and its DSO name. */
    public static final String KERNEL_MMAP_NAME = "[kernel.kallsyms]";

    private final SymbolOptions opts;
    private final DsoFinder finder;
    private final ConcurrentHashMap<Integer, Thread> threads = new ConcurrentHashMap<>();
    /**
     * The threads found last, by the low bits of their tid (under this object's lock, like every
     * change to {@link #threads}): a sample's thread is then found without boxing its tid or
     * hashing, most of a lookup's cost where samples come from a few threads.
     */
    private final Thread[] recent = new Thread[64];
    private final ConcurrentHashMap<String, Dso> dsos = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, byte[]> userBuildIds = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, byte[]> kernelBuildIds = new ConcurrentHashMap<>();
    private final Maps kernelMaps = new Maps();
    private final Dso kernelDso;
    private final Map kernelMap;
    private final List<KernelRecord.BpfEvent> bpfEvents = new CopyOnWriteArrayList<>();
    private final List<Dso> allDsos = new CopyOnWriteArrayList<>();
    /** JIT code from jitdump files, by the file name its maps carry ({@link #jitCode}). */
    private final ConcurrentHashMap<String, io.perfj.jit.JitCode> jitCodes = new ConcurrentHashMap<>();
    private volatile boolean commExec;
    private volatile boolean execClearsMaps;

    public Machine(PerfData data, SymbolOptions opts) {
        this(data, opts, new DefaultSymbolLoader(opts, UserSymbolRules.PERFJ));
    }

    public Machine(PerfData data, SymbolOptions opts, SymbolLoader loader) {
        this(data, opts, new DsoFinder(opts, loader));
    }

    public Machine(PerfData data, SymbolOptions opts, DsoFinder finder) {
        this.opts = opts;
        this.finder = finder;
        if (data != null) {
            readBuildIdTable(data);
        }
        kernelDso = newDso(KERNEL_MMAP_NAME, DsoKind.KERNEL, kernelBuildIds.get(KERNEL_MMAP_NAME));
        finder.kernel(kernelDso);
        // perf starts with a kernel map over everything; the kernel MMAP narrows it
        kernelMap = Map.builder(0, -1L, kernelDso).mapping(Map.Mapping.IDENTITY).build();
        kernelMaps.insert(kernelMap);
        // perf registers the idle task as 0/0 "swapper"
        thread(0, 0).setComm("swapper", 0, false);
    }

    private void readBuildIdTable(PerfData data) {
        Bytes payload = data.features().get(FeatureId.BUILD_ID);
        if (payload == null) {
            return;
        }
        try {
            if (Features.decode(FeatureId.BUILD_ID, payload, data) instanceof Feature.BuildIds ids) {
                for (Feature.BuildIds.BuildId e : ids.entries()) {
                    noteBuildId(e.misc(), e.filename(),
                            java.util.Arrays.copyOf(e.buildId(), Math.min(e.size(), e.buildId().length)));
                }
            }
        } catch (RuntimeException e) {
            // a damaged table only costs build-ids; perf goes on as well
        }
    }

    private void noteBuildId(int misc, String filename, byte[] id) {
        int cpumode = misc & KernelRecord.MISC_CPUMODE_MASK;
        boolean kernel = cpumode == CPUMODE_KERNEL || cpumode == CPUMODE_GUEST_KERNEL;
        (kernel ? kernelBuildIds : userBuildIds).put(filename, id);
        Dso existing = kernel ? (filename.equals(KERNEL_MMAP_NAME) ? kernelDso : dsos.get("k:" + filename))
                : dsos.get(filename);
        if (existing != null) {
            existing.buildId(id);
        }
    }

    /**
     * Starts loading, on {@code pool}, the symbol tables the samples will need: the kernel's and
     * those of the user objects in the recording's build-id table (perf record lists the objects
     * that had samples). A lookup of a table still loading waits for it; the tables are the ones
     * loading on first use gives, so the answers do not change. Returns how many were started.
     */
    /**
     * Starts loading the kernel's symbols on {@code pool} now, before any record is read, when
     * the recording's header names the kernel's build-id (a record may only add one that is
     * missing, so which kallsyms is read is settled): the first sample with a kernel frame
     * otherwise waits for kallsyms on the reading thread.
     *
     * @return whether the load was started
     */
    public boolean preloadKernel(java.util.concurrent.Executor pool) {
        if (kernelDso.buildId().isEmpty() && opts.kallsyms() == null) {
            return false;
        }
        pool.execute(kernelDso::preload);
        return true;
    }

    public int preloadSymbols(java.util.concurrent.Executor pool) {
        List<Dso> todo = new ArrayList<>();
        todo.add(kernelDso);
        synchronized (this) {
            for (String name : userBuildIds.keySet()) {
                if (name.startsWith("/") && !isAnon(name) && !isNoDso(name)) {
                    todo.add(dsos.computeIfAbsent(name, n -> new Dso(n, DsoKind.USER, userBuildIds.get(n), finder::load)));
                }
            }
        }
        for (Dso d : todo) {
            pool.execute(d::preload);
        }
        return todo.size();
    }

    /** The symbol file finder (for annotate and tests). */
    public DsoFinder finder() {
        return finder;
    }

    public SymbolOptions options() {
        return opts;
    }

    /** perf keeps maps across exec; true makes an exec COMM start an empty address space. */
    public void execClearsMaps(boolean v) {
        execClearsMaps = v;
    }

    /** Whether a COMM record with the exec bit was seen (perf's {@code comm_exec}). */
    public boolean commExec() {
        return commExec;
    }

    public Maps kernelMaps() {
        return kernelMaps;
    }

    public Dso kernelDso() {
        return kernelDso;
    }

    public Map kernelMap() {
        return kernelMap;
    }

    public List<KernelRecord.BpfEvent> bpfEvents() {
        return Collections.unmodifiableList(bpfEvents);
    }

    /** Every DSO created so far. */
    public List<Dso> dsos() {
        return List.copyOf(allDsos);
    }

    /** One message per DSO whose symbols failed to load (load attempts so far). */
    public List<String> warnings() {
        List<String> out = new ArrayList<>();
        for (Dso d : allDsos) {
            if (d.loadError() != null && d.used()) {
                out.add(d.loadError());
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ threads

    /** The thread with this tid, created if new ({@code machine__findnew_thread}). */
    public synchronized Thread thread(int pid, int tid) {
        Thread th = known(tid);
        if (th != null) {
            updatePid(th, pid);
            return th;
        }
        th = new Thread(pid, tid);
        threads.put(tid, th);
        recent[tid & (recent.length - 1)] = th;
        if (pid == -1 || pid == tid) {
            th.maps(new Maps());
        } else {
            Thread leader = thread(pid, pid);
            th.maps(leader.maps());
        }
        return th;
    }

    /** The thread with this tid, or null ({@code machine__find_thread}). */
    public synchronized Thread findThread(int pid, int tid) {
        Thread th = known(tid);
        if (th != null) {
            updatePid(th, pid);
        }
        return th;
    }

    /** The thread with this tid, or null; under the lock. */
    private Thread known(int tid) {
        int slot = tid & (recent.length - 1);
        Thread th = recent[slot];
        if (th != null && th.tid() == tid) {
            return th;
        }
        th = threads.get(tid);
        if (th != null) {
            recent[slot] = th;
        }
        return th;
    }

    public List<Thread> threads() {
        return List.copyOf(threads.values());
    }

    /** {@code machine__update_thread_pid}: a thread first seen without pid joins its leader's maps. */
    private void updatePid(Thread th, int pid) {
        if (pid == th.pid() || pid == -1 || th.pid() != -1) {
            return;
        }
        th.pid(pid);
        if (pid == th.tid()) {
            return;
        }
        Thread leader = thread(pid, pid);
        if (th.maps() != leader.maps()) {
            th.maps(leader.maps());
        }
    }

    private synchronized void removeThread(Thread th) {
        threads.remove(th.tid(), th);
        int slot = th.tid() & (recent.length - 1);
        if (recent[slot] == th) {
            recent[slot] = null;
        }
    }

    /**
     * Makes maps of {@code filename} objects of JIT code: their symbol, bytes and source lines
     * come from {@code code}, not from a file (the session names jitdump loads so, as perf
     * inject names the ELF files it writes for them).
     */
    public void jitCode(String filename, io.perfj.jit.JitCode code) {
        jitCodes.put(filename, code);
    }

    // ------------------------------------------------------------------ records

    /** Updates the model with one record; samples and records that do not concern it are ignored. */
    public void process(PerfRecord r) {
        // instanceof, not a pattern switch: a type switch is bootstrapped at its first run
        // (SwitchBootstraps spins a class), start-up that every command would pay here
        if (r instanceof Sample) {
            return;
        }
        if (r instanceof KernelRecord.Mmap2 m) {
            processMmap2(m);
        } else if (r instanceof KernelRecord.Comm c) {
            processComm(c);
        } else if (r instanceof KernelRecord.Fork f) {
            processFork(f);
        } else if (r instanceof KernelRecord.Exit e) {
            processExit(e);
        } else if (r instanceof KernelRecord.Mmap m) {
            processMmap(m);
        } else if (r instanceof KernelRecord.Ksymbol k) {
            processKsymbol(k);
        } else if (r instanceof KernelRecord.BpfEvent b) {
            bpfEvents.add(b);
        } else if (r instanceof UserRecord.BuildId b) {
            noteBuildId(b.raw().misc(), b.filename(), b.buildId());
        }
    }

    private static long time(KernelRecord r) {
        return r.sampleId().time();
    }

    private void processComm(KernelRecord.Comm c) {
        Thread th = thread(c.pid(), c.tid());
        boolean exec = c.exec();
        if (exec) {
            commExec = true;
            if (execClearsMaps) {
                Maps fresh = new Maps();
                th.maps(fresh);
            }
        }
        th.setComm(c.comm(), time(c), exec);
    }

    private void processFork(KernelRecord.Fork f) {
        Thread existing = findThread(f.pid(), f.tid());
        Thread parent = thread(f.ppid(), f.ptid());
        if (parent.pid() != f.ppid()) {
            // not really the parent (lost or reordered events): start over
            removeThread(parent);
            parent = thread(f.ppid(), f.ptid());
        }
        if (existing != null) {
            removeThread(existing);
        }
        Thread th = thread(f.pid(), f.tid());
        boolean cloneMaps = (f.raw().misc() & MISC_FORK_EXEC) == 0;
        // thread__fork
        if (parent.commSet()) {
            th.setComm(parent.comm(), time(f), false);
        }
        th.ppid(parent.tid());
        if (th.pid() == parent.pid()) {
            return; // a thread of the same process shares its maps already
        }
        if (th.maps() == parent.maps()) {
            return;
        }
        if (cloneMaps) {
            th.maps().copyFrom(parent.maps());
        }
    }

    private void processExit(KernelRecord.Exit e) {
        Thread th = findThread(e.pid(), e.tid());
        if (th != null) {
            th.exited(true);
        }
    }

    private void processMmap(KernelRecord.Mmap m) {
        int cpumode = m.misc() & KernelRecord.MISC_CPUMODE_MASK;
        if (cpumode == CPUMODE_KERNEL || cpumode == CPUMODE_GUEST_KERNEL) {
            kernelMmap(m.filename(), m.start(), m.start() + m.len(), m.pgoff(), null);
            return;
        }
        int prot = m.data() ? 0 : Map.PROT_EXEC;
        userMmap(m.pid(), m.tid(), m.filename(), m.start(), m.len(), m.pgoff(), prot, 0, 0, 0, 0, 0, null);
    }

    private void processMmap2(KernelRecord.Mmap2 m) {
        int cpumode = m.misc() & KernelRecord.MISC_CPUMODE_MASK;
        if (cpumode == CPUMODE_KERNEL || cpumode == CPUMODE_GUEST_KERNEL) {
            kernelMmap(m.filename(), m.start(), m.start() + m.len(), m.pgoff(), m.buildId());
            return;
        }
        userMmap(m.pid(), m.tid(), m.filename(), m.start(), m.len(), m.pgoff(), m.prot(), m.flags(), m.maj(),
                m.min(), m.ino(), m.inoGeneration(), m.buildId());
    }

    /** {@code machine__process_kernel_mmap_event}. */
    private void kernelMmap(String name, long start, long end, long pgoff, byte[] bid) {
        boolean isKernel = name.startsWith(KERNEL_MMAP_NAME.substring(0, KERNEL_MMAP_NAME.length() - 1));
        if (name.startsWith("/") || (!isKernel && name.startsWith("["))) {
            Dso dso = moduleDso(name);
            if (bid != null) {
                dso.buildId(bid);
            }
            kernelMaps.insert(Map.builder(start, end, dso).mapping(Map.Mapping.IDENTITY).build());
        } else if (isKernel) {
            kernelMapped = true;
            kernelMaps.mutate(kernelMap, e -> {
                e.start(start);
                e.end(start == 0 && end == 0 ? -1L : end);
                e.pgoff(pgoff);
            });
            if (bid != null) {
                kernelDso.buildId(bid);
            }
        }
    }

    /** A kernel module's DSO: short name [mod] (dashes as underscores), long name the path. */
    private Dso moduleDso(String filename) {
        return dsos.computeIfAbsent("k:" + filename, k -> {
            Dso d = new Dso(filename, moduleName(filename), DsoKind.KERNEL_MODULE, kernelBuildIds.get(filename),
                    finder::load);
            if (kernelBuildIds.containsKey(filename)) {
                d.name(filename);
            }
            allDsos.add(d);
            return d;
        });
    }

    /** perf's short name for a module path or [name]. */
    public static String moduleName(String filename) {
        if (filename.startsWith("[")) {
            return filename;
        }
        int slash = filename.lastIndexOf('/');
        String base = filename.substring(slash + 1);
        int dot = base.indexOf('.');
        if (dot > 0) {
            base = base.substring(0, dot);
        }
        return "[" + base.replace('-', '_') + "]";
    }

    static boolean isAnon(String filename) {
        return filename.equals("//anon") || filename.startsWith("/dev/zero") || filename.startsWith("/anon_hugepage");
    }

    static boolean isNoDso(String filename) {
        return filename.startsWith("[stack") || filename.startsWith("/SYSV") || filename.equals("[heap]");
    }

    static boolean isVdso(String filename) {
        return filename.equals("[vdso]") || filename.equals("[vdso32]") || filename.equals("[vdsox32]");
    }

    /** {@code map__new} + {@code thread__insert_map}. */
    private void userMmap(int pid, int tid, String filename, long start, long len, long pgoff, int prot, int flags,
                          int maj, int min, long ino, long inoGen, byte[] bid) {
        Thread th = thread(pid, tid);
        boolean anon = isAnon(filename) || (flags & Map.MAP_HUGETLB) != 0;
        boolean noDso = isNoDso(filename);
        boolean vdso = isVdso(filename);
        boolean exec = (prot & Map.PROT_EXEC) != 0;
        String name = filename;
        DsoKind kind = DsoKind.USER;
        if ((anon || noDso) && exec) {
            name = "/tmp/perf-" + th.pid() + ".map";
            kind = DsoKind.JIT_MAP;
        } else if (anon || noDso) {
            kind = DsoKind.ANON;
        } else if (vdso) {
            kind = DsoKind.VDSO;
            pgoff = 0;
        }
        io.perfj.jit.JitCode jit = kind == DsoKind.USER ? jitCodes.get(name) : null;
        Dso dso = jit != null ? jitDso(name, jit) : userDso(name, kind);
        if (bid != null) {
            dso.buildId(bid);
        }
        Map.Builder b = Map.builder(start, start + len, dso).pgoff(pgoff).prot(prot).flags(flags)
                .inode(maj, min, ino, inoGen).buildId(bid);
        if (anon || noDso) {
            b.mapping(Map.Mapping.IDENTITY);
        }
        th.maps().fixupOverlapAndInsert(b.build());
    }

    private Dso newDso(String name, DsoKind kind, byte[] bid) {
        Dso d = new Dso(name, kind, bid, finder::load);
        d.register();
        allDsos.add(d);
        return d;
    }

    private Dso userDso(String name, DsoKind kind) {
        Dso d = dsos.computeIfAbsent(name, n -> new Dso(n, kind, userBuildIds.get(n), finder::load));
        if (d.register()) {
            allDsos.add(d); // in the order the maps name them, also when preloadSymbols made it
        }
        return d;
    }

    private Dso jitDso(String name, io.perfj.jit.JitCode code) {
        Dso d = dsos.computeIfAbsent(name, n -> new Dso(n, code));
        if (d.register()) {
            allDsos.add(d);
        }
        return d;
    }

    /** {@code machine__process_ksymbol}. */
    private void processKsymbol(KernelRecord.Ksymbol k) {
        if ((k.flags() & KSYMBOL_FLAGS_UNREGISTER) != 0) {
            Map m = kernelMaps.find(k.addr());
            if (m != null && m != kernelMap) {
                kernelMaps.remove(m);
            }
            return;
        }
        Map existing = kernelMaps.find(k.addr());
        if (existing != null && existing != kernelMap) {
            return; // perf adds the symbol to the DSO already there
        }
        Symbol sym = new Symbol(k.addr(), k.addr() + k.len(), k.name(), 'G');
        SymbolTable table = SymbolTable.ofSorted(List.of(sym));
        Dso dso = new Dso(k.name(), DsoKind.BPF, null, d -> table);
        allDsos.add(dso);
        kernelMaps.insert(Map.builder(k.addr(), k.addr() + k.len(), dso).mapping(Map.Mapping.IDENTITY).build());
    }

    // ------------------------------------------------------------------ resolution

    /**
     * Where {@code ip} lands for a sample of thread {@code t} in {@code cpumode}
     * ({@code thread__find_map} + {@code map__find_symbol}): kernel modes search the kernel
     * maps, user modes the thread's maps; guest and hypervisor addresses have no maps here.
     */
    public Location resolve(Thread t, int cpumode, long ip) {
        char level = level(cpumode);
        Maps maps = null;
        if (cpumode == CPUMODE_KERNEL) {
            maps = kernelMaps;
            fixKernelExtent();
        } else if (cpumode == CPUMODE_USER && t != null) {
            maps = t.maps();
        }
        Map map = maps == null ? null : maps.find(ip);
        if (map == kernelMap && !kernelMapped) {
            map = null;
        }
        return locate(map, level, ip);
    }

    /** perf's privilege marker of a cpumode: 'k' kernel, '.' user, 'g'/'u' guest, 'H' the rest. */
    public static char level(int cpumode) {
        return switch (cpumode) {
            case CPUMODE_KERNEL -> 'k';
            case CPUMODE_USER -> '.';
            case CPUMODE_GUEST_KERNEL -> 'g';
            case CPUMODE_GUEST_USER -> 'u';
            default -> 'H';
        };
    }

    /**
     * The symbol part of {@link #resolve}: {@code ip} in {@code map} (as {@link #findMap} found
     * it, null for none) with the privilege marker {@code level}. A map found earlier answers as
     * it did then: a live profile finds maps as records arrive and looks symbols up later.
     */
    public Location locate(Map map, char level, long ip) {
        if (map == null) {
            return new Location(null, null, null, ip, ip, level);
        }
        long mapIp = map.mapIp(ip);
        Dso dso = map.dso();
        Symbol sym = dso == null ? null : dso.symbols().find(mapIp);
        if (dso != null && dso.kind() == DsoKind.KERNEL_MODULE && dso.symbols().size() == 0) {
            // perf makes a module's map identity-mapped only when it loads symbols for it
            // (from the .ko or kallsyms); without any, the address is the offset in the module
            mapIp = ip - map.start();
        }
        return new Location(map, dso, sym, ip, mapIp, level);
    }

    private volatile boolean kernelExtentFixed;
    /**
     * Whether the kernel's MMAP has been read. perf makes the kernel map from that record when
     * it reads a file, so without one (e.g. a recording of user space only, by a perf that
     * writes no kernel MMAP then) a kernel address is in no map: DSO {@code [unknown]}.
     */
    private volatile boolean kernelMapped;

    /**
     * Once the kernel's symbols are loaded, its map spans from the first to the end of the last
     * symbol, as perf's {@code map__fixup_start/end} after loading kallsyms: init code and data
     * past {@code _etext} then resolve too.
     */
    private void fixKernelExtent() {
        if (kernelExtentFixed) {
            return;
        }
        synchronized (this) {
            if (kernelExtentFixed) {
                return;
            }
            kernelExtentFixed = true;
            SymbolTable t = kernelDso.symbols();
            if (t.size() > 0 && kernelMap.start() != 0) {
                long first = t.firstStart();
                long last = t.lastEnd();
                kernelMaps.mutate(kernelMap, e -> {
                    e.start(first);
                    e.end(last);
                });
            }
        }
    }

    /**
     * The map {@code ip} falls in for this thread and cpumode, without looking up a symbol (the
     * kernel's symbols are loaded once, as they set the kernel map's extent).
     */
    public Map findMap(Thread t, int cpumode, long ip) {
        if (cpumode == CPUMODE_KERNEL) {
            fixKernelExtent();
            Map m = kernelMaps.find(ip);
            return m == kernelMap && !kernelMapped ? null : m;
        }
        if (cpumode == CPUMODE_USER && t != null) {
            return t.maps().find(ip);
        }
        return null;
    }

    /** Resolves a sample's own ip in its thread. */
    public Location resolve(Sample s) {
        return resolve(thread(s.pid(), s.tid()), s.cpumode(), s.ip());
    }
}
