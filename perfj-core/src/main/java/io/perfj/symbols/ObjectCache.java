package io.perfj.symbols;

import io.perfj.elf.ElfFile;
import io.perfj.elf.ProgramHeader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The object files of one run (a report, a script), each found, opened and mapped once: which
 * file holds a DSO's symbols and which its code, the mapped ELF images, and their PT_LOAD
 * segments. Unwinding and inline-frame naming ask for these once per frame, so without this
 * cache every frame opened, mapped and unmapped the same files again (tens of thousands of
 * {@code openat}/{@code mmap}/{@code munmap} calls per thousand samples, and each unmapping of
 * a shared arena stops every thread).
 *
 * <p>Files are assumed not to change during the run. Entries are per {@link Dso} (identity) and
 * looked up again only when the DSO learns its build-id after the first lookup. Safe for
 * concurrent use. {@link #close()} unmaps everything.
 */
public final class ObjectCache implements AutoCloseable {
    private record ByDso(byte[] buildId, Optional<Path> file) {
    }

    private final DsoFinder finder;
    private final Map<Dso, ByDso> symbolFiles = new ConcurrentHashMap<>();
    private final Map<Dso, ByDso> runtimeFiles = new ConcurrentHashMap<>();
    private final Map<Path, Optional<ElfFile>> elfs = new ConcurrentHashMap<>();
    private final Map<Path, long[]> segments = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public ObjectCache(DsoFinder finder) {
        this.finder = finder;
    }

    public DsoFinder finder() {
        return finder;
    }

    /** The file a DSO's symbols come from ({@link DsoFinder#find}), or null. */
    public Path symbolFile(Dso dso) {
        return cached(symbolFiles, dso, this::findSymbolFile);
    }

    /**
     * The runtime object behind a DSO: the first of {@link DsoFinder#elfCandidates} that is a
     * readable ELF file with the recorded build-id (when both have one) and a {@code .text} with
     * contents, i.e. the file the process mapped rather than a separate debug file. Null when
     * there is none.
     */
    public Path runtimeFile(Dso dso) {
        return cached(runtimeFiles, dso, this::findRuntimeFile);
    }

    /** {@code file} mapped read-only, opened on the first call and kept; null when it cannot be read. */
    public ElfFile elf(Path file) {
        if (closed) {
            throw new IllegalStateException("object cache is closed");
        }
        return elfs.computeIfAbsent(file, f -> {
            if (!Files.isRegularFile(f)) {
                return Optional.empty();
            }
            try {
                return Optional.of(ElfFile.open(f));
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }).orElse(null);
    }

    /**
     * The virtual address of file offset {@code offset} through the PT_LOAD segments of
     * {@code file}; the offset itself when no segment holds it (or the file cannot be read).
     */
    public long fileOffsetToVaddr(Path file, long offset) {
        long[] segs = segments.computeIfAbsent(file, f -> {
            ElfFile elf = elf(f);
            if (elf == null) {
                return new long[0];
            }
            try {
                return elf.programHeaders().stream().filter(ProgramHeader::isLoad)
                        .flatMapToLong(p -> java.util.stream.LongStream.of(p.offset(), p.filesz(), p.vaddr()))
                        .toArray();
            } catch (RuntimeException e) {
                return new long[0];
            }
        });
        for (int i = 0; i + 2 < segs.length; i += 3) {
            if (offset >= segs[i] && offset < segs[i] + Math.max(1, segs[i + 1])) {
                return offset - segs[i] + segs[i + 2];
            }
        }
        return offset;
    }

    private static Path cached(Map<Dso, ByDso> map, Dso dso, java.util.function.Function<Dso, Path> find) {
        byte[] id = dso.buildId().orElse(null);
        ByDso e = map.get(dso);
        if (e == null || e.buildId() != id) {
            e = new ByDso(id, Optional.ofNullable(find.apply(dso)));
            map.put(dso, e);
        }
        return e.file().orElse(null);
    }

    private Path findSymbolFile(Dso dso) {
        try {
            return finder.find(dso);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private Path findRuntimeFile(Dso dso) {
        List<Path> candidates;
        try {
            candidates = finder.elfCandidates(dso);
        } catch (RuntimeException e) {
            return null;
        }
        byte[] want = dso.buildId().orElse(null);
        for (Path p : candidates) {
            ElfFile elf = elf(p);
            if (elf == null) {
                continue;
            }
            try {
                if (want != null) {
                    byte[] have = elf.buildId().orElse(null);
                    if (have != null && !DsoFinder.sameId(want, have)) {
                        continue;
                    }
                }
                if (elf.section(".text").map(x -> x.hasFileData()).orElse(false)) {
                    return p;
                }
            } catch (RuntimeException e) {
                // a broken ELF file: try the next
            }
        }
        return null;
    }

    /** Unmaps every file; the cache must not be used afterwards. */
    @Override
    public void close() {
        closed = true;
        for (Optional<ElfFile> e : elfs.values()) {
            e.ifPresent(ElfFile::close);
        }
        elfs.clear();
    }
}
