package io.perfj.unwind;

import io.perfj.dwarf.UnwindObject;
import io.perfj.elf.ElfFile;
import io.perfj.symbols.Dso;
import io.perfj.symbols.ObjectCache;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link UnwindObject} of every object one run unwinds through: found and mapped once (by the
 * run's {@link ObjectCache}), its frame information indexed once per file and shared by every
 * process and DSO entry that maps the same file. Safe for concurrent use.
 */
public final class UnwindObjects {
    private final ObjectCache files;
    private final Map<Path, Optional<UnwindObject>> byFile = new ConcurrentHashMap<>();
    private final Map<Dso, Optional<UnwindObject>> byDso = new ConcurrentHashMap<>();

    /** Counts address-space changes announced by the owner; -1 when nobody announces them. */
    private volatile long generation = -1;

    public UnwindObjects(ObjectCache files) {
        this.files = files;
    }

    /**
     * Tells the unwinders that some process's maps changed (an MMAP, FORK, EXIT... record was
     * processed). Whoever calls this once must call it after every such change: from then on
     * unwinders keep facts derived from a process's maps until the next call.
     */
    public void addressSpacesChanged() {
        generation++;
    }

    /** The number of announced changes, or -1 when they are not announced (nothing may be kept). */
    public long generation() {
        return generation;
    }

    public ObjectCache files() {
        return files;
    }

    /**
     * The runtime object behind a DSO (the file the process mapped, not a separate debug file,
     * which has no call frame information or code of its own), or null when it cannot be found
     * or read.
     */
    public UnwindObject of(Dso dso) {
        if (dso == null) {
            return null;
        }
        Optional<UnwindObject> o = byDso.get(dso);
        if (o == null) {
            Path p = files.runtimeFile(dso);
            o = p == null ? Optional.empty() : byFile.computeIfAbsent(p, this::load);
            // only a DSO with its build-id known is settled (an id learnt later may pick another file)
            if (dso.buildId().isPresent()) {
                byDso.put(dso, o);
            }
        }
        return o.orElse(null);
    }

    private Optional<UnwindObject> load(Path file) {
        ElfFile elf = files.elf(file);
        if (elf == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(UnwindObject.of(elf));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
