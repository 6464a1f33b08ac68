package io.perfj.bpf;

import java.util.Optional;

/**
 * bpftool's callbacks for xlated dumps (src/xlated_dumper.c {@code print_call},
 * {@code print_imm}): calls named through kernel symbols, map references as
 * {@code map[id:N]} / {@code map[id:N][0]+OFF}, callback addresses as {@code subprog[+N]}.
 *
 * @param symbols    kernel symbols by address (including the program's own sub-programs)
 * @param jitedKsyms jited start address of each sub-program ({@code jited_ksyms}); empty for
 *                   interpreted programs
 * @param syntax     which bpftool's formats to follow
 */
public record XlatedCallbacks(KernelSymbols symbols, long[] jitedKsyms, Syntax syntax) implements DisasmCallbacks {

    @Override
    public Optional<String> call(BpfInsn insn) {
        long base = symbols.callBase().orElse(0);
        long address = base + insn.imm();
        boolean pseudo = insn.src() == BpfInsn.PSEUDO_CALL;
        if (pseudo && Integer.toUnsignedLong(insn.imm()) < jitedKsyms.length) {
            address = jitedKsyms[insn.imm()];
        }
        Optional<String> sym = symbols.at(address);
        String off = insn.off() >= 0 ? "+" + insn.off() : Integer.toString(insn.off());
        if (pseudo) {
            if (jitedKsyms.length == 0) {
                return Optional.of(off);
            }
            return Optional.of(off + "#" + sym.orElse("0x" + Long.toHexString(address)));
        }
        return Optional.of(sym.orElse("0x" + Long.toHexString(address)));
    }

    @Override
    public String imm(BpfInsn insn, BpfInsn next, long fullImm) {
        return switch (insn.src()) {
            case BpfInsn.PSEUDO_MAP_FD -> "map[id:" + num(insn.imm()) + "]";
            case BpfInsn.PSEUDO_MAP_VALUE -> "map[id:" + num(insn.imm()) + "][0]+" + num(next.imm());
            case BpfInsn.PSEUDO_MAP_IDX_VALUE -> "map[idx:" + num(insn.imm()) + "]+" + num(next.imm());
            case BpfInsn.PSEUDO_FUNC -> "subprog[" + (insn.imm() >= 0 ? "+" : "") + insn.imm() + "]";
            default -> "0x" + Long.toHexString(fullImm);
        };
    }

    /** bpftool 7.1 prints map ids and offsets with %u, newer ones with %d. */
    private String num(int v) {
        return syntax == Syntax.BPFTOOL_7_1 ? Integer.toUnsignedString(v) : Integer.toString(v);
    }
}
