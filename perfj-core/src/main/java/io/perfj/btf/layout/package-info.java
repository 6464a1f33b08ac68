/**
 * A struct's or union's layout as {@code pahole -F btf -C TYPE} prints it ({@code BtfLayout}):
 * offsets and sizes, holes, bit holes, cacheline boundaries and pahole 1.24's summary.
 *
 * <p>Depends on {@code btf}. Used by {@code perfj btf layout}. Internal: not exported.
 */
package io.perfj.btf.layout;
