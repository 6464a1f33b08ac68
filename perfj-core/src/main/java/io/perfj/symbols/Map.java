package io.perfj.symbols;

import java.util.HexFormat;

/**
 * One mapping of a DSO into an address space ({@code struct map}): the range [start, end), the
 * file offset of start, the DSO, and, from PERF_RECORD_MMAP2, protection, flags and either the
 * device/inode or the build-id of the file.
 *
 * <p>Sampled addresses become DSO addresses through {@link #mapIp}: for a file mapping
 * {@code ip - start + pgoff} (perf's {@code map__dso_map_ip}); for the kernel, BPF programs, JIT
 * maps and anonymous memory the identity ({@code identity__map_ip}), minus a relocation for a
 * kernel whose symbols come from a file linked at another address.
 *
 * <p>The boundaries only change through {@link Maps#mutate}, under the maps' write lock, so a
 * lookup never sees a map move under it. A map belongs to at most one {@link Maps}; copying an
 * address space (fork) clones every map.
 */
public final class Map implements MapRef, io.perfj.dwarf.UnwindSpace.Mapping {
    /** How sampled addresses translate to DSO addresses. */
    public enum Mapping {
        /** {@code ip - start + pgoff}: a file mapped at start from offset pgoff. */
        DSO,
        /** {@code ip - reloc}: kernel, modules from kallsyms, BPF, JIT, anonymous memory. */
        IDENTITY
    }

    /** mmap prot bit PROT_EXEC. */
    public static final int PROT_EXEC = 4;
    /** mmap flag MAP_HUGETLB. */
    public static final int MAP_HUGETLB = 0x40000;

    private volatile long start;
    private volatile long end;
    private volatile long pgoff;
    private final Dso dso;
    private final Mapping mapping;
    private final long reloc;
    private final int prot;
    private final int flags;
    private final int maj;
    private final int min;
    private final long ino;
    private final long inoGeneration;
    private final byte[] buildId;

    private Map(Builder b) {
        this.start = b.start;
        this.end = b.end;
        this.pgoff = b.pgoff;
        this.dso = b.dso;
        this.mapping = b.mapping;
        this.reloc = b.reloc;
        this.prot = b.prot;
        this.flags = b.flags;
        this.maj = b.maj;
        this.min = b.min;
        this.ino = b.ino;
        this.inoGeneration = b.inoGeneration;
        this.buildId = b.buildId;
    }

    /** A file mapping: {@code map_ip = ip - start + pgoff}. */
    public static Map of(long start, long end, long pgoff, Dso dso) {
        return builder(start, end, dso).pgoff(pgoff).build();
    }

    /** An identity mapping (kernel, BPF, JIT, anonymous memory). */
    public static Map identity(long start, long end, Dso dso) {
        return builder(start, end, dso).mapping(Mapping.IDENTITY).build();
    }

    public static Builder builder(long start, long end, Dso dso) {
        return new Builder(start, end, dso);
    }

    /** Everything but the boundaries is fixed at construction. */
    public static final class Builder {
        private final long start;
        private final long end;
        private final Dso dso;
        private long pgoff;
        private Mapping mapping = Mapping.DSO;
        private long reloc;
        private int prot = PROT_EXEC;
        private int flags;
        private int maj;
        private int min;
        private long ino;
        private long inoGeneration;
        private byte[] buildId;

        private Builder(long start, long end, Dso dso) {
            this.start = start;
            this.end = end;
            this.dso = dso;
        }

        public Builder pgoff(long v) {
            pgoff = v;
            return this;
        }

        public Builder mapping(Mapping v) {
            mapping = v;
            return this;
        }

        /** Kernel relocation: DSO address = ip - reloc (identity maps only). */
        public Builder reloc(long v) {
            reloc = v;
            return this;
        }

        public Builder prot(int v) {
            prot = v;
            return this;
        }

        public Builder flags(int v) {
            flags = v;
            return this;
        }

        public Builder inode(int maj, int min, long ino, long inoGeneration) {
            this.maj = maj;
            this.min = min;
            this.ino = ino;
            this.inoGeneration = inoGeneration;
            return this;
        }

        public Builder buildId(byte[] v) {
            buildId = v;
            return this;
        }

        public Map build() {
            return new Map(this);
        }
    }

    /** A copy with the same fields (perf's {@code map__clone}), not in any maps. */
    Map copy() {
        Builder b = new Builder(start, end, dso).pgoff(pgoff).mapping(mapping).reloc(reloc).prot(prot)
                .flags(flags).inode(maj, min, ino, inoGeneration).buildId(buildId);
        return b.build();
    }

    @Override
    public long start() {
        return start;
    }

    @Override
    public long end() {
        return end;
    }

    @Override
    public long pgoff() {
        return pgoff;
    }

    @Override
    public boolean mapsObject() {
        return dso != null;
    }

    @Override
    public Dso dso() {
        return dso;
    }

    public Mapping mapping() {
        return mapping;
    }

    public long reloc() {
        return reloc;
    }

    public int prot() {
        return prot;
    }

    public int flags() {
        return flags;
    }

    public int maj() {
        return maj;
    }

    public int min() {
        return min;
    }

    public long ino() {
        return ino;
    }

    public long inoGeneration() {
        return inoGeneration;
    }

    /** The build-id the MMAP2 record carried, or null (the DSO's build-id is {@link Dso#buildId()}). */
    public byte[] buildId() {
        return buildId;
    }

    public boolean executable() {
        return (prot & PROT_EXEC) != 0;
    }

    public long size() {
        return end - start;
    }

    /** Whether ip lies in [start, end), unsigned. */
    public boolean contains(long ip) {
        return Long.compareUnsigned(ip, start) >= 0 && Long.compareUnsigned(ip, end) < 0;
    }

    @Override
    public long mapIp(long ip) {
        return mapping == Mapping.IDENTITY ? ip - reloc : ip - start + pgoff;
    }

    @Override
    public long unmapIp(long dsoAddr) {
        return mapping == Mapping.IDENTITY ? dsoAddr + reloc : dsoAddr + start - pgoff;
    }

    // Boundary changes: only Maps (under its write lock) calls these.
    void setStart(long v) {
        start = v;
    }

    void setEnd(long v) {
        end = v;
    }

    void setPgoff(long v) {
        pgoff = v;
    }

    /** The editable view {@link Maps#mutate} hands to a change. */
    public final class Editor {
        private Editor() {
        }

        public Map map() {
            return Map.this;
        }

        public Editor start(long v) {
            setStart(v);
            return this;
        }

        public Editor end(long v) {
            setEnd(v);
            return this;
        }

        public Editor pgoff(long v) {
            setPgoff(v);
            return this;
        }
    }

    Editor editor() {
        return new Editor();
    }

    @Override
    public String toString() {
        return String.format("Map[%x-%x @%x %s%s]", start, end, pgoff, dso == null ? "-" : dso.longName(),
                buildId == null ? "" : " bid " + HexFormat.of().formatHex(buildId));
    }
}
