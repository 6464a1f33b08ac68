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
 * looks for. Whenever in doubt (other names, compressed MiniDebugInfo symbols, separate debug
 * files, unreadable files) the answer is yes.
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
            Optional<SectionHeader> text = elf.section(".text");
            if (text.isPresent() && text.get().isNoBits()) {
                return true; // a separate debug file: its runtime object adds symbols too
            }
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

    /** Whether {@code hay} contains {@code needle}. */
    static boolean contains(byte[] hay, byte[] needle) {
        byte first = needle[0];
        int last = hay.length - needle.length;
        outer:
        for (int i = 0; i <= last; i++) {
            if (hay[i] != first) {
                continue;
            }
            for (int j = 1; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
