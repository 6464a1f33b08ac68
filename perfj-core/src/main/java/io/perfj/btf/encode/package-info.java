/**
 * BTF from DWARF, as {@code pahole -J} writes it: {@code BtfEncoder} turns each compile unit's
 * DWARF into BTF with pahole's rules (in parallel, the bytes independent of the thread count),
 * {@code BtfDedup} deduplicates as libbpf's {@code btf__dedup} does (split BTF on a base too), and
 * {@code ElfBtfSection} writes the result raw or as a copy of the ELF with a {@code .BTF} section.
 *
 * <p>Depends on {@code dwarf.info} (the DWARF reader), {@code elf}, {@code btf}, {@code btf.wire}
 * and {@code util}. Used by {@code perfj btf encode}. Internal: not exported.
 */
package io.perfj.btf.encode;
