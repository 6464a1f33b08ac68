package io.perfj.bpf;

import io.perfj.perfdata.feature.BpfProg;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The kernel symbol names of a program's sub-programs, {@code bpf_prog_<tag>_<name>}, at their
 * jited addresses: the kernel's {@code bpf_get_prog_name} (and perf's
 * {@code synthesize_bpf_prog_name}): the tag of each sub-program, then its BTF function name
 * from func_info, else the program's name.
 */
public final class BpfProgSymbols {
    private BpfProgSymbols() {
    }

    /** The name of sub-program {@code sub}. */
    public static String name(BpfProg p, BtfText btf, int sub) {
        StringBuilder sb = new StringBuilder("bpf_prog_");
        if (sub < p.progTags().size()) {
            sb.append(p.tagHex(sub));
        } else {
            sb.append(java.util.HexFormat.of().formatHex(p.info().tag()));
        }
        String shortName = null;
        if (btf.present() && sub < p.funcInfo().size()) {
            shortName = btf.typeName(p.funcInfo().get(sub).typeId()).orElse(null);
        } else if (!btf.present() && p.info().nrJitedKsyms() <= 1 && !p.info().name().isEmpty()) {
            shortName = p.info().name();
        } else if (!btf.present()) {
            shortName = "F";
        }
        if (shortName != null && !shortName.isEmpty()) {
            sb.append('_').append(shortName);
        }
        return sb.toString();
    }

    /** Jited address to name, for every sub-program the recording has an address for. */
    public static Map<Long, String> byAddress(BpfProg p, BtfText btf) {
        Map<Long, String> m = new LinkedHashMap<>();
        long[] ksyms = p.jitedKsyms();
        for (int i = 0; i < ksyms.length; i++) {
            m.putIfAbsent(ksyms[i], name(p, btf, i));
        }
        return m;
    }
}
