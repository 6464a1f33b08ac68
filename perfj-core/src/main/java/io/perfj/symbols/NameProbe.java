package io.perfj.symbols;

import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.io.Bytes;

import java.lang.foreign.Arena;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether an ELF object's symbol table could give a symbol one of a few names, found by looking
 * for the names in its string tables instead of loading the table: a tool asked for a handful
 * of symbols then loads only the objects that may hold them. Two kinds of names can be looked
 * for. Plain names (letters, digits, '_', '$', '@') come from the string table as they are, or
 * from a C++ name demangled without parameters ({@code _Z3fooi} shows as {@code foo}), which the
 * probe also looks for. Qualified names ({@code Node::dominates}, {@code core::ptr::drop_in_place}:
 * identifiers joined by {@code ::}) are demangled C++ or Rust names, whose mangled forms spell the
 * last identifier as its length and itself ({@code 9dominates}) in every scheme perfj demangles
 * (Itanium C++, Rust legacy and v0; a Rust v0 identifier that starts with '_' gets a separator,
 * so such names are not looked for). Whenever in doubt (other names, compressed MiniDebugInfo
 * symbols, unreadable files) the answer is yes.
 */
public final class NameProbe {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_$@]+");
    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private NameProbe() {
    }

    private static final Pattern QUALIFIED = Pattern.compile("(?:[A-Za-z_][A-Za-z0-9_]*::)+[A-Za-z][A-Za-z0-9_]*");

    /** Whether {@code name} is a plain name (see the class comment). */
    public static boolean plain(String name) {
        return PLAIN.matcher(name).matches();
    }

    /** Whether {@code name} is one the probe can look for: plain or qualified. */
    public static boolean probeable(String name) {
        return plain(name) || QUALIFIED.matcher(name).matches();
    }

    /** For a qualified name, what its mangled forms all contain: the last identifier's length and itself. */
    private static String mangledTail(String qualified) {
        String last = qualified.substring(qualified.lastIndexOf("::") + 2);
        return last.length() + last;
    }

    /**
     * False only when the object's symbols certainly include none of {@code names} (all probeable):
     * user objects, the vDSO and kernel modules found as ELF files. Everything else is true.
     */
    public static boolean mayHold(DsoFinder finder, Dso dso, Set<String> names) {
        if (dso.kind() != DsoKind.USER && dso.kind() != DsoKind.VDSO && dso.kind() != DsoKind.KERNEL_MODULE) {
            return true;
        }
        try {
            Path p = finder.find(dso);
            if (p == null) {
                // no file: no symbols, except a module's, which then come from kallsyms
                return dso.kind() == DsoKind.KERNEL_MODULE;
            }
            return elfMayHold(p, names);
        } catch (RuntimeException e) {
            return true;
        }
    }

    /**
     * Whether samples in kernel mode could land in a symbol of one of {@code names} although the
     * kallsyms file ({@link #kallsymsMayHold}, which also lists the modules' symbols) names none
     * of them: false unless a module map has an ELF file that may, or one is a BPF program.
     */
    public static boolean kernelMapsMayHold(Machine machine, Set<String> names) {
        for (String n : names) {
            if (!probeable(n) || n.startsWith("bpf_prog_")) {
                return true;
            }
        }
        for (Map m : machine.kernelMaps().list()) {
            Dso d = m.dso();
            if (d != null && d.kind() == DsoKind.KERNEL_MODULE && d != machine.kernelDso()) {
                try {
                    Path p = machine.finder().find(d);
                    if (p != null && elfMayHold(p, names)) {
                        return true;
                    }
                } catch (RuntimeException e) {
                    return true;
                }
            } else if (d != null && d.kind() == DsoKind.BPF) {
                if (names.contains(d.longName())) {
                    return true; // a BPF program's one symbol is named as its map
                }
            } else if (d != null && d.kind() != DsoKind.KERNEL) {
                return true;
            }
        }
        return false;
    }

    /** Whether the kernel's kallsyms file lists one of {@code names} (true when unreadable). */
    public static boolean kallsymsMayHold(DsoFinder finder, Dso kernel, Set<String> names) {
        try {
            Path p = finder.find(kernel);
            if (p == null) {
                return false; // no kallsyms: the kernel has no symbols
            }
            // a copy in a build-id cache is mapped; /proc/kallsyms (size 0 until read) is read
            try (FileChannel ch = FileChannel.open(p); Arena arena = Arena.ofConfined()) {
                long size = ch.size();
                Bytes text = size > 0
                        ? Bytes.of(ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena), ByteOrder.LITTLE_ENDIAN,
                                p.toString(), "kallsyms", 0)
                        : Bytes.of(java.nio.file.Files.readAllBytes(p), ByteOrder.LITTLE_ENDIAN, p.toString(), "kallsyms");
                for (String n : names) {
                    if (!plain(n)) {
                        // a mangled (Rust) name in kallsyms holds the qualified name's tail
                        if (!probeable(n) || text.indexOf(mangledTail(n).getBytes(StandardCharsets.ISO_8859_1), 0) >= 0) {
                            return true;
                        }
                        continue;
                    }
                    // "ADDRESS TYPE NAME" then a newline, or a tab and the module
                    byte[] needle = (" " + n + "\n").getBytes(StandardCharsets.ISO_8859_1);
                    if (text.indexOf(needle, 0) >= 0) {
                        return true;
                    }
                    needle[needle.length - 1] = '\t';
                    if (text.indexOf(needle, 0) >= 0) {
                        return true;
                    }
                }
                return false;
            }
        } catch (java.io.IOException | RuntimeException e) {
            return true;
        }
    }

    static boolean elfMayHold(Path file, Set<String> names) {
        List<byte[]> needles = new ArrayList<>();
        for (String n : names) {
            if (!plain(n)) {
                if (!probeable(n)) {
                    return true;
                }
                needles.add(mangledTail(n).getBytes(StandardCharsets.ISO_8859_1));
                needles.add((n + "\0").getBytes(StandardCharsets.ISO_8859_1)); // a name stored as it is
                continue;
            }
            String stem = n.endsWith("@plt") ? n.substring(0, n.length() - 4) : n;
            // a name may be the tail of a longer string (linkers share string tails): name + NUL
            needles.add((stem + "\0").getBytes(StandardCharsets.ISO_8859_1));
            if (IDENT.matcher(stem).matches()) {
                // a C++ function shown without its parameters: _Z<length><name>..., _ZL.. if static
                needles.add(("_Z" + stem.length() + stem).getBytes(StandardCharsets.ISO_8859_1));
                needles.add(("_ZL" + stem.length() + stem).getBytes(StandardCharsets.ISO_8859_1));
            }
        }
        try (ElfFile elf = ElfFile.open(file)) {
            // A separate debug file (code sections NOBITS) is searched like any object: its
            // .symtab names everything, and its own .dynstr, being NOBITS, is skipped below.
            if (elf.section(".gnu_debugdata").isPresent()) {
                return true;
            }
            for (Optional<SectionHeader> sym : List.of(elf.symtabSection(), elf.dynsymSection())) {
                if (sym.isEmpty()) {
                    continue;
                }
                SectionHeader strtab = elf.section(sym.get().link(), "string table");
                if (strtab.isNoBits()) {
                    continue;
                }
                Bytes table = elf.sectionData(strtab);
                for (byte[] needle : needles) {
                    if (table.indexOf(needle, 0) >= 0) {
                        return true;
                    }
                }
            }
            return false;
        }
    }
}
