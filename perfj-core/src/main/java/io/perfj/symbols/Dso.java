package io.perfj.symbols;

import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Function;

/**
 * A binary object samples land in: an ELF file, the kernel, a module, the vDSO, a JIT map or a
 * BPF program. Symbols load lazily, once, through the loader the {@code Machine} gives it; a load
 * failure leaves an empty table and a message (one warning per DSO, the report goes on).
 */
public final class Dso {
    private static final java.util.concurrent.atomic.AtomicLong CREATED = new java.util.concurrent.atomic.AtomicLong();

    private final long ordinal = CREATED.incrementAndGet();
    private final String longName;
    private final String shortName;
    private final DsoKind kind;
    private volatile byte[] buildId;
    private volatile SymbolTable symbols;
    private volatile String loadError;
    private volatile String symbolSource;
    private final Function<Dso, SymbolTable> loader;
    private final io.perfj.jit.JitCode jitCode;

    public Dso(String longName, DsoKind kind, byte[] buildId, Function<Dso, SymbolTable> loader) {
        this(longName, shortName(longName, kind), kind, buildId, loader);
    }

    /** With a short name of its own (kernel modules: {@code [name]}). */
    public Dso(String longName, String shortName, DsoKind kind, byte[] buildId, Function<Dso, SymbolTable> loader) {
        this.longName = longName;
        this.shortName = shortName;
        this.kind = kind;
        this.buildId = buildId;
        this.loader = loader;
        this.jitCode = null;
    }

    /**
     * The object of one piece of JIT code from a jitdump: one symbol, its name, over the code at
     * {@link io.perfj.jit.JitCode#TEXT_OFFSET} (where perf inject's ELF image puts it).
     */
    public Dso(String longName, io.perfj.jit.JitCode code) {
        this.longName = longName;
        this.shortName = shortName(longName, DsoKind.JIT_CODE);
        this.kind = DsoKind.JIT_CODE;
        this.jitCode = code;
        long start = io.perfj.jit.JitCode.TEXT_OFFSET;
        SymbolTable table = SymbolTable.ofSorted(java.util.List.of(
                new Symbol(start, start + code.codeSize(), code.name(), 'L')));
        this.loader = d -> table;
    }

    /** The JIT code this object stands for ({@link DsoKind#JIT_CODE}), or null. */
    public io.perfj.jit.JitCode jitCode() {
        return jitCode;
    }

    /** perf's short name: the base name for files, the name itself for [kernel.kallsyms] etc. */
    static String shortName(String longName, DsoKind kind) {
        if (longName.startsWith("[") || kind == DsoKind.BPF) {
            return longName;
        }
        int slash = longName.lastIndexOf('/');
        String base = slash >= 0 ? longName.substring(slash + 1) : longName;
        // perf names JIT map files after the thread: /tmp/perf-1234.map is "[JIT] tid 1234".
        if (base.startsWith("perf-") && base.endsWith(".map")) {
            String pid = base.substring(5, base.length() - 4);
            if (!pid.isEmpty() && pid.chars().allMatch(Character::isDigit)) {
                return "[JIT] tid " + pid;
            }
        }
        return base;
    }

    /**
     * Creation order. perf orders some ties by the address of its dso structures, which follows
     * the order they were made in; this stands in for it.
     */
    public long ordinal() {
        return ordinal;
    }

    public String longName() {
        return longName;
    }

    public String shortName() {
        return shortName;
    }

    private volatile String name;

    /**
     * perf's {@code dso->name}, which perf script prints: the path for files; for a kernel module
     * {@code [name]}, unless the recording's build-id table listed its path (perf then made the
     * DSO under that path before the module's MMAP named it).
     */
    public String name() {
        String n = name;
        return n != null ? n : kind == DsoKind.KERNEL_MODULE ? shortName : longName;
    }

    /** Sets {@link #name()}. */
    public void name(String n) {
        this.name = n;
    }

    public DsoKind kind() {
        return kind;
    }

    public Optional<byte[]> buildId() {
        return Optional.ofNullable(buildId);
    }

    public String buildIdHex() {
        byte[] b = buildId;
        return b == null ? null : HexFormat.of().formatHex(b);
    }

    public void buildId(byte[] id) {
        if (this.buildId == null) {
            this.buildId = id;
        }
    }

    /** The symbol table, loaded on first use. */
    public SymbolTable symbols() {
        if (!used) {
            used = true;
        }
        return load();
    }

    private volatile boolean used;
    private boolean registered;

    /** Whether {@link #symbols()} was asked for (a load that only {@link #preload()} started is not reported). */
    public boolean used() {
        return used;
    }

    /** Loads the symbol table ahead of use (on another thread); the table is the one {@link #symbols()} returns. */
    public void preload() {
        load();
    }

    /** Marks the DSO as known to the process model; true the first time. */
    synchronized boolean register() {
        if (registered) {
            return false;
        }
        registered = true;
        return true;
    }

    private SymbolTable load() {
        SymbolTable t = symbols;
        if (t == null) {
            synchronized (this) {
                t = symbols;
                if (t == null) {
                    try {
                        t = loader == null ? SymbolTable.EMPTY : loader.apply(this);
                    } catch (RuntimeException e) {
                        loadError = e.getMessage();
                        t = SymbolTable.EMPTY;
                    }
                    if (t == null) {
                        t = SymbolTable.EMPTY;
                    }
                    symbols = t;
                }
            }
        }
        return t;
    }

    public boolean loaded() {
        return symbols != null;
    }

    /** Why symbols could not be loaded, or null. */
    public String loadError() {
        return loadError;
    }

    public void loadError(String message) {
        this.loadError = message;
    }

    /**
     * perf's letter for where the symbols came from ({@code dso__symtab_origin}, printed by
     * report -v): 'k' kallsyms, 'B' the build-id cache's copy, 'D' its debug file, 'l' a
     * .gnu_debuglink file, 'b' /usr/lib/debug/.build-id, 'f' /usr/lib/debug/PATH.debug,
     * 'u' /usr/lib/debug/PATH, 'd' the object's own path, 'j' a perf map; '!' none found.
     */
    public char symtabOrigin() {
        return symtabOrigin;
    }

    public void symtabOrigin(char origin) {
        this.symtabOrigin = origin;
    }

    private volatile char symtabOrigin = '!';

    /** The file symbols were read from (for messages and annotate), or null. */
    public String symbolSource() {
        return symbolSource;
    }

    public void symbolSource(String path) {
        this.symbolSource = path;
    }

    @Override
    public String toString() {
        return "Dso[" + longName + ", " + kind + "]";
    }
}
