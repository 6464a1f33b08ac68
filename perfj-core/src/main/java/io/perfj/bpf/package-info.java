/**
 * BPF programs of a recording: the eBPF instruction set in the kernel verifier's syntax, bpftool's
 * {@code prog dump xlated} (plain, linum, opcodes, JSON; {@code XlatedPrinter}), the recorded
 * programs and their sub-programs' samples ({@code RecordedBpf}, {@code BpfSamples}), and the
 * names BTF gives their functions and types ({@code BtfNames}).
 *
 * <p>Depends on {@code perfdata} (BPF_PROG_INFO and BPF_BTF features), {@code btf} and {@code io}.
 * Used by {@code perfj bpf}, {@code annotate} (the xlated view), {@code report}, {@code print},
 * {@code record} and the browser UI. Internal: not exported.
 */
package io.perfj.bpf;
