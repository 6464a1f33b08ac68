package io.perfj.bpf;

/**
 * Which copy of the kernel's BPF disassembler (kernel/bpf/disasm.c {@code print_bpf_insn}) to
 * follow. bpftool builds its own copy, so what it prints depends on its version.
 */
public enum Syntax {
    /**
     * The kernel's disasm.c as of Linux 6.18, plus {@code gotox} (added to disasm.c in
     * November 2025 for 6.19; bpftool 7.7 prints the same): cpu v4 instructions (sign-extending
     * moves and loads, signed division, bswap, gotol), addr_space_cast, the per-CPU address
     * move, load-acquire/store-release and may_goto; bpftool's map ids as signed.
     */
    KERNEL,
    /**
     * bpftool 7.1's copy (Linux 6.2 era): none of the instructions listed for {@link #KERNEL}
     * are known (a 64-bit bswap prints as {@code BUG_alu64_d7}, a sign-extending load as
     * {@code BUG_ldx_..}, movsx and the per-CPU move as plain moves, sdiv/smod as div/mod),
     * map ids print unsigned, and instruction numbers as {@code "% 4d"}.
     */
    BPFTOOL_7_1;

    /** True when the printer knows the cpu v4 and later instructions. */
    public boolean modern() {
        return this == KERNEL;
    }
}
