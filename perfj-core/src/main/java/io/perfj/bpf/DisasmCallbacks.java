package io.perfj.bpf;

import java.util.Optional;

/**
 * What the disassembler asks its caller (disasm.c {@code struct bpf_insn_cbs}): a name for a
 * call target and the text of a 64-bit immediate. The defaults are what the kernel prints
 * with no callbacks.
 */
public interface DisasmCallbacks {
    /** No callbacks: calls fall back to numbers, immediates to hex. */
    DisasmCallbacks NONE = new DisasmCallbacks() {
    };

    /**
     * The name to print for the call instruction {@code insn} ({@code cb_call}); empty to let
     * the disassembler fall back ({@code pc+imm}, "kernel-function" or "unknown").
     */
    default Optional<String> call(BpfInsn insn) {
        return Optional.empty();
    }

    /**
     * The right-hand side of a 64-bit immediate load ({@code cb_imm}); {@code next} is the
     * second slot and {@code fullImm} the combined value.
     */
    default String imm(BpfInsn insn, BpfInsn next, long fullImm) {
        return "0x" + Long.toHexString(fullImm);
    }
}
