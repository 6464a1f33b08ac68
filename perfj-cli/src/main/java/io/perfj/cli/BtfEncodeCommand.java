package io.perfj.cli;

import io.perfj.btf.encode.BtfEncoder;
import io.perfj.btf.encode.ElfBtfSection;
import io.perfj.btf.encode.EncodeOptions;
import io.perfj.btf.encode.SplitBase;
import io.perfj.elf.ElfFile;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code perfj btf encode ELF -o OUT [--base BTF] [--vars none|percpu|all] [--into-elf] [-j N]}:
 * BTF from the ELF file's DWARF, like {@code pahole -J} (1.24) does; with {@code --base}, split
 * BTF on that base, like {@code pahole --btf_base}.
 */
public final class BtfEncodeCommand implements Callable<Integer> {
    Path elf;
    Path output;
    Path base;
    String vars;
    boolean intoElf;
    Integer jobs;
    boolean debug;
    final CommandLine.Model.CommandSpec spec;

    BtfEncodeCommand() {
        CommandModel m = CommandModel.command(this, "encode", "Encode BTF from an ELF file's DWARF, like 'pahole -J'.",
                "Writes raw BTF to OUT, or with --into-elf a copy of ELF with a .BTF section (ELF itself is "
                        + "never changed).");
        m.positional("0", "ELF").describe("An ELF file with DWARF (.debug_info).").value(Path.class, v -> elf = v);
        m.option("-o", "--output").required().label("OUT").describe("Where to write.").value(Path.class, v -> output = v);
        m.option("-B", "--base").label("BTF")
                .describe("Encode split BTF on this base, e.g. vmlinux's BTF for a module (raw BTF, or an ELF "
                        + "file's BTF section), like pahole --btf_base: types the base has are not repeated, ids "
                        + "and string offsets continue after the base's.")
                .value(Path.class, v -> base = v);
        m.option("--vars").label("none|percpu|all").defaultValue("percpu")
                .describe("Variables to encode: none; percpu (default, as pahole -J: per-CPU variables in a "
                        + ".data..percpu DATASEC); all (every global variable with a static address, one DATASEC "
                        + "per ELF section, as pahole 1.28's global_var).")
                .value(String.class, v -> vars = v);
        m.option("--into-elf").describe("Write a copy of ELF with the BTF as its .BTF section.").flag(v -> intoElf = v);
        m.option("-j", "--jobs").label("N")
                .describe("Compile units encoded at once (default: the number of CPUs); the output is the same "
                        + "for every N.")
                .value(Integer.class, v -> jobs = v);
        m.option("--debug").describe("Print stack traces for errors.").flag(v -> debug = v);
        spec = m.spec();
    }

    @Override
    public Integer call() throws Exception {
        EncodeOptions.Vars mode = switch (vars) {
            case "none" -> EncodeOptions.Vars.NONE;
            case "percpu" -> EncodeOptions.Vars.PERCPU;
            case "all" -> EncodeOptions.Vars.ALL;
            default -> throw new CommandLine.ParameterException(spec.commandLine(),
                    "--vars must be none, percpu or all, not '" + vars + "'");
        };
        int n = jobs == null ? Runtime.getRuntime().availableProcessors() : jobs;
        if (n < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-j must be at least 1");
        }
        try (ElfFile file = ElfFile.open(elf)) {
            java.util.List<String> skipped = new java.util.ArrayList<>();
            long t0 = System.nanoTime();
            SplitBase splitBase = base == null ? null : SplitBase.load(base);
            if (Boolean.getBoolean("perfj.btf.timing") && base != null) {
                System.err.printf("btf encode: base loaded in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
            }
            byte[] btf = BtfEncoder.encode(file, new EncodeOptions(mode, n), skipped::add, splitBase);
            java.io.PrintWriter err = spec.commandLine().getErr();
            for (int i = 0; i < skipped.size() && i < 20; i++) {
                err.println("perfj: warning: " + skipped.get(i));
            }
            if (skipped.size() > 20) {
                err.println("perfj: warning: ... and " + (skipped.size() - 20) + " more DWARF entries skipped");
            }
            err.flush();
            if (intoElf) {
                ElfBtfSection.write(file, elf, btf, output);
            } else {
                Files.write(output, btf);
            }
        }
        return 0;
    }
}
