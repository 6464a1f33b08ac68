package io.perfj.trace;

/**
 * Names kernel addresses for {@code %ps}/{@code %pS}: perf script gives libtraceevent a resolver
 * over its own kernel map (kallsyms or vmlinux), not the tracing data's (empty) kallsyms.
 */
@FunctionalInterface
public interface KernelFunctions {
    /** The function containing {@code addr}, or null. */
    Function find(long addr);

    /** A kernel function's name and start address. */
    record Function(String name, long start) {
    }

    /** Resolves nothing: every {@code %ps} prints its address. */
    KernelFunctions NONE = addr -> null;
}
