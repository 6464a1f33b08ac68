package io.perfj.symbols;

import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;

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
 * of symbols then loads only the objects that may hold them. Only for plain names (letters,
 * digits, '_', '$', '@'): those come from the string table as they are, or from a C++ name
 * demangled without parameters ({@code _Z3fooi} shows as {@code foo}), which the probe also
 * looks for. Whenever in doubt (other names, compressed MiniDebugInfo symbols, unreadable files) the answer is yes.
 */
public final class NameProbe {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_$@]+");
    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private NameProbe() {
    }

    /** Whether {@code name} is one the probe can look for. */
    public static boolean plain(String name) {
        return PLAIN.matcher(name).matches();
    }

    /**
     * False only when the object's symbols certainly include none of {@code names} (all plain):
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
     * Whether samples in kernel mode could land in a symbol of one of {@code names} (all plain):
     * false only when the kallsyms file (which also lists the modules' symbols) names none of
     * them, no module map has an ELF file that may, and none is a BPF program.
     */
    public static boolean kernelMayHold(Machine machine, Set<String> names) {
        for (String n : names) {
            if (!plain(n) || n.startsWith("bpf_prog_")) {
                return true;
            }
        }
        if (kallsymsMayHold(machine.finder(), machine.kernelDso(), names)) {
            return true;
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
            byte[] text = java.nio.file.Files.readAllBytes(p);
            for (String n : names) {
                // "ADDRESS TYPE NAME" then a newline, or a tab and the module
                if (contains(text, (" " + n + "\n").getBytes(StandardCharsets.ISO_8859_1))
                        || contains(text, (" " + n + "\t").getBytes(StandardCharsets.ISO_8859_1))) {
                    return true;
                }
            }
            return false;
        } catch (java.io.IOException | RuntimeException e) {
            return true;
        }
    }

    static boolean elfMayHold(Path file, Set<String> names) {
        List<byte[]> needles = new ArrayList<>();
        for (String n : names) {
            if (!plain(n)) {
                return true;
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
                io.perfj.io.Bytes data = elf.sectionData(strtab);
                byte[] table = data.bytes(0, data.size());
                for (byte[] needle : needles) {
                    if (contains(table, needle)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** Whether {@code hay} contains {@code needle} (Boyer-Moore-Horspool: skips ahead by the needle's length). */
    static boolean contains(byte[] hay, byte[] needle) {
        int m = needle.length;
        if (m == 0) {
            return true;
        }
        int[] shift = new int[256];
        java.util.Arrays.fill(shift, m);
        for (int i = 0; i < m - 1; i++) {
            shift[needle[i] & 0xff] = m - 1 - i;
        }
        byte lastByte = needle[m - 1];
        for (int i = m - 1; i < hay.length; ) {
            byte b = hay[i];
            if (b == lastByte) {
                int j = m - 2;
                int k = i - 1;
                while (j >= 0 && hay[k] == needle[j]) {
                    j--;
                    k--;
                }
                if (j < 0) {
                    return true;
                }
            }
            i += shift[b & 0xff];
        }
        return false;
    }
}
