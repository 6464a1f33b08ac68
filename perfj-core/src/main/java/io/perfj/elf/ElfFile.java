package io.perfj.elf;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * An ELF file (32 or 64 bit, either byte order), mapped read-only. Header, program headers and
 * section headers are decoded when opened; symbols, notes and the other parts on request. Every
 * malformed structure fails with a {@link FormatException} naming the file, the structure and
 * the offset.
 */
public final class ElfFile implements AutoCloseable {
    private final String name;
    private final Arena arena;
    private final Bytes file;
    private final ElfHeader header;
    private final List<ProgramHeader> programHeaders;
    private final List<SectionHeader> sections;
    private final int shstrndx;

    private ElfFile(String name, Arena arena, Bytes file) {
        this.name = name;
        this.arena = arena;
        ElfHeader h = ElfHeader.read(file);
        this.file = file.withOrder(h.order()).named("ELF file");
        this.header = h;
        SectionHeader first = readFirstSection();
        int shnum = h.shnum();
        int strndx = h.shstrndx();
        int phnum = h.phnum();
        if (first != null) {
            if (shnum == 0) {
                shnum = clampCount(first.size(), "section count (from section 0)", h.shoff());
            }
            if (strndx == Elf.SHN_XINDEX) {
                strndx = first.link();
            }
            if (phnum == Elf.PN_XNUM && first.info() != 0) {
                phnum = first.info();
            }
        }
        this.shstrndx = strndx;
        this.programHeaders = readProgramHeaders(phnum);
        this.sections = readSections(shnum);
    }

    /** Maps {@code path} read-only. */
    public static ElfFile open(Path path) {
        String n = path.toString();
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            MemorySegment seg = size == 0 ? MemorySegment.NULL.reinterpret(0)
                    : ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            return new ElfFile(n, arena, Bytes.of(seg, ByteOrder.LITTLE_ENDIAN, n, "ELF file", 0));
        } catch (IOException e) {
            arena.close();
            throw new UncheckedIOException("failed to open " + n + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** An ELF image held in memory; {@code name} is used in error messages. */
    public static ElfFile of(byte[] data, String name) {
        return new ElfFile(name, null, Bytes.of(data, ByteOrder.LITTLE_ENDIAN, name, "ELF file"));
    }

    /** Whether {@code path} starts with the ELF magic (false for unreadable or short files). */
    public static boolean isElf(Path path) {
        try (var in = java.nio.file.Files.newInputStream(path)) {
            byte[] m = in.readNBytes(4);
            return m.length == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
    }

    public String name() {
        return name;
    }

    public ElfHeader header() {
        return header;
    }

    public boolean is64() {
        return header.is64();
    }

    public ByteOrder order() {
        return header.order();
    }

    /** e_type: {@link Elf#ET_EXEC}, {@link Elf#ET_DYN}, {@link Elf#ET_REL}, ... */
    public int type() {
        return header.type();
    }

    public int machine() {
        return header.machine();
    }

    /** The whole file, bounds-checked. */
    public Bytes bytes() {
        return file;
    }

    public List<ProgramHeader> programHeaders() {
        return programHeaders;
    }

    public List<SectionHeader> sections() {
        return sections;
    }

    /** The first section named {@code sectionName}. */
    public Optional<SectionHeader> section(String sectionName) {
        for (SectionHeader s : sections) {
            if (s.name().equals(sectionName)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** Section {@code index}; a missing index is a format error about {@code what}. */
    public SectionHeader section(int index, String what) {
        if (index < 0 || index >= sections.size()) {
            throw new FormatException(name, what, header.shoff(),
                    "section index " + index + " is out of range (" + sections.size() + " sections)");
        }
        return sections.get(index);
    }

    /** A section's bytes (empty for SHT_NOBITS and SHT_NULL). */
    public Bytes sectionData(SectionHeader s) {
        String what = "section " + (s.name().isEmpty() ? "#" + s.index() : s.name());
        if (!s.hasFileData()) {
            return file.slice(0, 0, what);
        }
        if (!file.has(s.offset(), s.size())) {
            throw new FormatException(name, what, header.shoff(),
                    "section data [0x" + Long.toHexString(s.offset()) + ", +0x" + Long.toHexString(s.size())
                            + ") lies outside the " + file.size() + "-byte file");
        }
        return file.slice(s.offset(), s.size(), what);
    }

    /** The PT_LOAD segment containing virtual address {@code addr}, as perf looks it up. */
    public Optional<ProgramHeader> loadSegmentFor(long addr) {
        for (ProgramHeader p : programHeaders) {
            if (p.isLoad() && p.containsVaddr(addr)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The .symtab (SHT_SYMTAB) section, if any. */
    public Optional<SectionHeader> symtabSection() {
        return firstOfType(Elf.SHT_SYMTAB);
    }

    /** The .dynsym (SHT_DYNSYM) section, if any. */
    public Optional<SectionHeader> dynsymSection() {
        return firstOfType(Elf.SHT_DYNSYM);
    }

    private Optional<SectionHeader> firstOfType(int type) {
        for (SectionHeader s : sections) {
            if (s.type() == type) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** All entries of .symtab (empty without one). */
    public List<ElfSymbol> symtab() {
        return symtabSection().map(this::symbols).orElse(List.of());
    }

    /** All entries of .dynsym with their GNU versions (empty without one). */
    public List<ElfSymbol> dynsym() {
        return dynsymSection().map(this::symbols).orElse(List.of());
    }

    /** All entries of a SHT_SYMTAB or SHT_DYNSYM section. */
    public List<ElfSymbol> symbols(SectionHeader symtab) {
        return ElfSymbolReader.read(this, symtab);
    }

    /** The entries of a SHT_SYMTAB or SHT_DYNSYM section as columns (names read on demand). */
    public ElfSymbolColumns symbolColumns(SectionHeader symtab) {
        return ElfSymbolColumns.read(this, symtab);
    }

    /** Notes from SHT_NOTE sections, or from PT_NOTE segments when there are no section headers. */
    public List<ElfNote> notes() {
        List<ElfNote> out = new ArrayList<>();
        boolean any = false;
        for (SectionHeader s : sections) {
            if (s.type() == Elf.SHT_NOTE) {
                any = true;
                out.addAll(ElfNote.parse(sectionData(s), s.addralign()));
            }
        }
        if (!any) {
            for (ProgramHeader p : programHeaders) {
                if (p.type() == Elf.PT_NOTE && p.filesz() > 0) {
                    if (!file.has(p.offset(), p.filesz())) {
                        throw new FormatException(name, "PT_NOTE segment", header.phoff(),
                                "segment lies outside the " + file.size() + "-byte file");
                    }
                    out.addAll(ElfNote.parse(file.slice(p.offset(), p.filesz(), "PT_NOTE segment"), p.align()));
                }
            }
        }
        return out;
    }

    /** The NT_GNU_BUILD_ID note's descriptor. */
    public Optional<byte[]> buildId() {
        for (ElfNote n : notes()) {
            if (n.isGnuBuildId()) {
                return Optional.of(n.desc());
            }
        }
        return Optional.empty();
    }

    public Optional<String> buildIdHex() {
        return buildId().map(b -> HexFormat.of().formatHex(b));
    }

    /** .gnu_debuglink: the separate debug file's name and CRC. */
    public Optional<DebugLink> debugLink() {
        return section(".gnu_debuglink").filter(SectionHeader::hasFileData)
                .map(s -> DebugLink.parse(sectionData(s)));
    }

    /** The ELF image embedded xz-compressed in .gnu_debugdata (MiniDebugInfo). */
    public Optional<ElfFile> debugData() {
        return section(".gnu_debugdata").filter(SectionHeader::hasFileData)
                .map(s -> MiniDebugInfo.decode(this, s));
    }

    /** A NUL-terminated string at {@code off} of a string table. */
    static String string(Bytes strtab, long off, String what) {
        if (off < 0 || off >= strtab.size()) {
            if (off == 0 && strtab.size() == 0) {
                return "";
            }
            throw strtab.error(0, what + " offset 0x" + Long.toHexString(off) + " is outside the "
                    + strtab.size() + "-byte string table");
        }
        return strtab.cstring(off, strtab.size() - off);
    }

    private int clampCount(long n, String what, long at) {
        if (n < 0 || n > Integer.MAX_VALUE / 2) {
            throw new FormatException(name, "ELF header", at, what + " " + Long.toUnsignedString(n) + " is absurd");
        }
        return (int) n;
    }

    private SectionHeader readFirstSection() {
        if (header.shoff() == 0 || header.shentsize() == 0) {
            return null;
        }
        int want = header.is64() ? 64 : 40;
        if (header.shentsize() < want) {
            throw new FormatException(name, "ELF header", header.is64() ? 58 : 46,
                    "e_shentsize " + header.shentsize() + " is smaller than " + want);
        }
        Bytes t = table(header.shoff(), header.shentsize(), "section header table");
        return SectionHeader.read(t, 0, 0, header.is64());
    }

    private Bytes table(long off, long len, String what) {
        if (!file.has(off, len)) {
            throw new FormatException(name, what, off, "needs " + len + " bytes at 0x" + Long.toHexString(off)
                    + " but the file has " + file.size());
        }
        return file.slice(off, len, what);
    }

    private List<ProgramHeader> readProgramHeaders(int phnum) {
        if (phnum == 0 || header.phoff() == 0) {
            return List.of();
        }
        int want = header.is64() ? 56 : 32;
        if (header.phentsize() < want) {
            throw new FormatException(name, "ELF header", header.is64() ? 54 : 42,
                    "e_phentsize " + header.phentsize() + " is smaller than " + want);
        }
        long len = (long) phnum * header.phentsize();
        Bytes t = table(header.phoff(), len, "program header table");
        List<ProgramHeader> out = new ArrayList<>(phnum);
        for (int i = 0; i < phnum; i++) {
            out.add(ProgramHeader.read(t, (long) i * header.phentsize(), i, header.is64()));
        }
        return Collections.unmodifiableList(out);
    }

    private List<SectionHeader> readSections(int shnum) {
        if (shnum == 0 || header.shoff() == 0) {
            return List.of();
        }
        long len = (long) shnum * header.shentsize();
        Bytes t = table(header.shoff(), len, "section header table");
        List<SectionHeader> raw = new ArrayList<>(shnum);
        for (int i = 0; i < shnum; i++) {
            raw.add(SectionHeader.read(t, (long) i * header.shentsize(), i, header.is64()));
        }
        if (shstrndx == Elf.SHN_UNDEF || shstrndx >= shnum) {
            if (shstrndx != Elf.SHN_UNDEF) {
                throw new FormatException(name, "ELF header", header.is64() ? 62 : 50,
                        "e_shstrndx " + shstrndx + " is out of range (" + shnum + " sections)");
            }
            return Collections.unmodifiableList(raw);
        }
        SectionHeader strSec = raw.get(shstrndx);
        Bytes strtab;
        if (!strSec.hasFileData()) {
            strtab = file.slice(0, 0, "section name string table");
        } else if (!file.has(strSec.offset(), strSec.size())) {
            throw new FormatException(name, "section name string table", header.shoff(),
                    "data [0x" + Long.toHexString(strSec.offset()) + ", +0x" + Long.toHexString(strSec.size())
                            + ") lies outside the " + file.size() + "-byte file");
        } else {
            strtab = file.slice(strSec.offset(), strSec.size(), "section name string table");
        }
        List<SectionHeader> out = new ArrayList<>(shnum);
        for (SectionHeader s : raw) {
            out.add(s.withName(string(strtab, s.nameOffset(), "section name")));
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public String toString() {
        return "ElfFile[" + name + ", " + (is64() ? "ELF64" : "ELF32") + " " + header.typeName() + "]";
    }
}
