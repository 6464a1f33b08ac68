/**
 * BTF as a C header, byte for byte what {@code bpftool btf dump file FILE format c} prints:
 * {@code BtfCDumper} emits the types in libbpf's {@code btf_dump} order, forward declarations
 * where a pointer is enough, libbpf's name suffixes for clashes, its padding and packing rules.
 *
 * <p>Depends on {@code btf} and {@code btf.wire}. Used by {@code perfj btf dump ... format c}.
 * Internal: not exported.
 */
package io.perfj.btf.cdump;
