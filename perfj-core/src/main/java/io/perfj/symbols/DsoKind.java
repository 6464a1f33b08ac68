package io.perfj.symbols;

/** What kind of object a {@link Dso} is; decides where its symbols come from. */
public enum DsoKind {
    /** A user-space ELF file (executable, shared library). */
    USER,
    /** The kernel image ([kernel.kallsyms]). */
    KERNEL,
    /** A kernel module. */
    KERNEL_MODULE,
    /** The vDSO ([vdso]). */
    VDSO,
    /** JIT code described by /tmp/perf-PID.map. */
    JIT_MAP,
    /**
     * One piece of JIT code from a runtime's jitdump file (jit-PID.dump), named as perf inject
     * names the ELF file it would write for it: symbol, code bytes and source lines from the dump.
     */
    JIT_CODE,
    /** A BPF program announced by PERF_RECORD_KSYMBOL (bpf_prog_TAG_NAME). */
    BPF,
    /** Memory without a backing object ([heap], [stack], //anon without a perf map). */
    ANON
}
