/**
 * Unwinding of {@code --call-graph dwarf} samples: the copied user stack of each sample walked
 * over the process model's address space ({@link io.perfj.unwind.Unwinding},
 * {@link io.perfj.unwind.UserStackUnwinder}) by the session's
 * {@link io.perfj.unwind.UnwindMethod} (the call frame information alone, or perf 6.1's
 * libunwind in {@code io.perfj.compat}), each object's frame tables built once per run
 * ({@link io.perfj.unwind.UnwindObjects}). Depends on {@code dwarf} and {@code symbols}; used by
 * {@code session}.
 */
package io.perfj.unwind;
