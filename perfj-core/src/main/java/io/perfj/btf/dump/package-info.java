/**
 * BTF as text: bpftool's raw dump ({@code BtfRawDumper}) and its {@code -j} JSON
 * ({@code BtfJsonDumper}), byte for byte.
 *
 * <p>Depends on {@code btf} and {@code btf.wire}. Used by {@code perfj btf dump}. Internal: not
 * exported.
 */
package io.perfj.btf.dump;
