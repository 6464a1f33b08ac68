package io.perfj.bpf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Kernel symbols by exact address, as bpftool's xlated dumper looks them up: helper and kfunc
 * calls are named by the symbol at {@code __bpf_call_base + imm}, bpf-to-bpf calls by the
 * symbol at the callee's jited address ({@code bpf_prog_<tag>_<name>}). Built from a kallsyms
 * file and/or names added by the caller (e.g. the sub-programs of a recording).
 */
public final class KernelSymbols {
    /** The name bpftool reads the helper call base from. */
    public static final String CALL_BASE = "__bpf_call_base";

    private final Map<Long, String> byAddress;
    private final OptionalLong callBase;

    private KernelSymbols(Map<Long, String> byAddress, OptionalLong callBase) {
        this.byAddress = byAddress;
        this.callBase = callBase;
    }

    /** No symbols: calls print as numbers, as bpftool does without /proc/kallsyms. */
    public static KernelSymbols empty() {
        return new KernelSymbols(Map.of(), OptionalLong.empty());
    }

    /**
     * Parses kallsyms text ({@code ADDRESS TYPE NAME [MODULE]} per line). Like bpftool, lines
     * with address 0 are skipped and the first symbol at an address wins; if
     * {@code __bpf_call_base} is at 0 (kptr_restrict) nothing is kept. Malformed lines are
     * skipped, as {@code sscanf} would.
     */
    public static KernelSymbols parseKallsyms(String text) {
        Map<Long, String> map = new HashMap<>();
        Long base = null;
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 3) {
                continue;
            }
            long addr;
            try {
                addr = Long.parseUnsignedLong(f[0], 16);
            } catch (NumberFormatException e) {
                continue;
            }
            if (f[2].equals(CALL_BASE)) {
                if (addr == 0) {
                    return empty();
                }
                base = addr;
            }
            if (addr != 0) {
                map.putIfAbsent(addr, f[2]);
            }
        }
        return new KernelSymbols(map, base == null ? OptionalLong.empty() : OptionalLong.of(base));
    }

    /** Reads a kallsyms file; see {@link #parseKallsyms(String)}. */
    public static KernelSymbols readKallsyms(Path file) throws IOException {
        return parseKallsyms(Files.readString(file, StandardCharsets.ISO_8859_1));
    }

    /** These symbols plus {@code names} (address to name); names already present win. */
    public KernelSymbols with(Map<Long, String> names) {
        Map<Long, String> map = new HashMap<>(byAddress);
        names.forEach(map::putIfAbsent);
        return new KernelSymbols(map, callBase);
    }

    /** The symbol starting exactly at {@code address}. */
    public Optional<String> at(long address) {
        return Optional.ofNullable(byAddress.get(address));
    }

    /** Address of {@code __bpf_call_base}, when known. */
    public OptionalLong callBase() {
        return callBase;
    }

    /** Number of addresses known. */
    public int size() {
        return byAddress.size();
    }
}
