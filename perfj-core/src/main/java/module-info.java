/**
 * perfj's library: Linux perf.data recordings, ELF objects and BTF, read from the files alone.
 *
 * <p>Start with {@link io.perfj.session.Session}: it opens a recording and hands out its samples
 * resolved against the process model (threads, maps, objects and their symbols) of each
 * sample's moment. The other exported packages are the models it is built on: the recording's
 * file format ({@code io.perfj.perfdata} and its {@code record} and {@code feature} packages),
 * ELF objects ({@code io.perfj.elf}), the process model and symbol tables
 * ({@code io.perfj.symbols}), JIT runtimes' dumps ({@code io.perfj.jit}), Intel PT trace packets ({@code io.perfj.intelpt}), BTF ({@code io.perfj.btf}) and the bounds-checked byte reader whose
 * {@link io.perfj.io.FormatException} every parser throws for bad input. Everything else
 * (perf's text layouts, aggregation, annotation, DWARF, the BTF encoder and C dumper, perf 6.1
 * emulation) is implementation, used by the {@code perfj} command line.
 *
 * <p>Subprocesses: the library starts none of its own, except binutils' {@code addr2line} to
 * name functions inlined at {@code --call-graph dwarf} frames, and, in the annotation code the
 * command line uses, {@code objdump}/{@code llvm-objdump}. Native code: zstd-jni for compressed
 * recordings; libcapstone through the foreign function API when that disassembler is chosen.
 */
module io.perfj.core {
    requires com.github.luben.zstd_jni;
    requires org.tukaani.xz;
    requires com.google.protobuf;

    exports io.perfj.session;
    exports io.perfj.perfdata;
    exports io.perfj.perfdata.record;
    exports io.perfj.perfdata.feature;
    exports io.perfj.elf;
    exports io.perfj.symbols;
    exports io.perfj.btf;
    exports io.perfj.io;
    exports io.perfj.jit;
    exports io.perfj.intelpt;
}
