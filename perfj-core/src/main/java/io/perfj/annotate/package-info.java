/**
 * {@code perfj annotate}: a function's instructions with their share of the samples, in perf
 * annotate's two text layouts and as JSON. {@code Annotate} counts samples per address (a
 * {@code RecordHandler} with its own selective symbol loading), a {@code Disassembler} lists the
 * code ({@code ObjdumpDisassembler} reads objdump's output as perf does; {@code
 * CapstoneDisassembler} calls libcapstone through the foreign function API), source lines come
 * from the DWARF line tables, BTF line info of BPF programs or a jitdump's debug records, and
 * {@code AnnotationPrinter} prints them.
 *
 * <p>Depends on the session and the process model ({@code session}, {@code symbols}), the file
 * readers ({@code elf}, {@code dwarf}, {@code jit}, {@code perfdata}), {@code bpf} and {@code btf}
 * for BPF programs, and {@code compat} for perf 6.1's symbol deletion and global-hits column. Used
 * by the command line's {@code annotate}, the browser UI's annotate view and {@code perfj top}'s
 * live annotation. Internal: not exported.
 */
package io.perfj.annotate;
