/**
 * BTF, the BPF Type Format (linux {@code Documentation/bpf/btf.rst}, {@code include/uapi/linux/btf.h}).
 *
 * <ul>
 *   <li>{@link io.perfj.btf.Btf}: a parsed blob (either byte order, split on a base or not), types by id
 *       and name, strings by offset, size resolution.</li>
 *   <li>{@link io.perfj.btf.BtfType}: a sealed family of records, one per kind.</li>
 *   <li>{@link io.perfj.btf.BtfWriter} and {@link io.perfj.btf.BtfStrings}: serialisation.</li>
 *   <li>{@link io.perfj.btf.BtfExt}: {@code .BTF.ext} func_info, line_info and core_relo.</li>
 *   <li>{@link io.perfj.btf.BtfFiles}: BTF from raw files, ELF {@code .BTF} sections and perf.data BPF_BTF.</li>
 * </ul>
 */
package io.perfj.btf;
