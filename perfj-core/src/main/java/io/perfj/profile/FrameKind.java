package io.perfj.profile;

import io.perfj.symbols.Dso;

/** What kind of code a location is in, from its object (or, outside any object, its level). */
public enum FrameKind {
    /** The kernel or a kernel module. */
    KERNEL,
    /** A user object: an executable, a shared library, the vDSO, anonymous memory. */
    USER,
    /** JIT code named by a perf map or a jitdump. */
    JIT,
    /** A JITed BPF program. */
    BPF,
    /** An address in no object. */
    UNKNOWN;

    private static final FrameKind[] ALL = values();

    /** The kind of an address in {@code dso} (null: in none) sampled at privilege {@code level}. */
    static FrameKind of(Dso dso, char level) {
        if (dso == null) {
            return level == 'k' || level == 'g' ? KERNEL : UNKNOWN;
        }
        return switch (dso.kind()) {
            case KERNEL, KERNEL_MODULE -> KERNEL;
            case JIT_MAP, JIT_CODE -> JIT;
            case BPF -> BPF;
            case USER, VDSO, ANON -> USER;
        };
    }

    static FrameKind of(int ordinal) {
        return ALL[ordinal];
    }
}
