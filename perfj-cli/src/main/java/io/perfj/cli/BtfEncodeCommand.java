package io.perfj.cli;

import io.perfj.btf.encode.BtfEncoder;
import io.perfj.btf.encode.ElfBtfSection;
import io.perfj.btf.encode.EncodeOptions;
import io.perfj.elf.ElfFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code perfj btf encode ELF -o OUT [--vars none|percpu|all] [--into-elf] [-j N]}: BTF from
 * the ELF file's DWARF, like {@code pahole -J} (1.24) does.
 */
@Command(name = "encode", mixinStandardHelpOptions = true,
        description = {"Encode BTF from an ELF file's DWARF, like 'pahole -J'.",
                "Writes raw BTF to OUT, or with --into-elf a copy of ELF with a .BTF section (ELF itself is "
                        + "never changed)."})
public final class BtfEncodeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "ELF", description = "An ELF file with DWARF (.debug_info).")
    Path elf;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT", description = "Where to write.")
    Path output;

    @Option(names = "--vars", paramLabel = "none|percpu|all", defaultValue = "percpu",
            description = "Variables to encode: none; percpu (default, as pahole -J: per-CPU variables in a "
                    + ".data..percpu DATASEC); all (every global variable with a static address, one DATASEC "
                    + "per ELF section, as pahole 1.28's global_var).")
    String vars;

    @Option(names = "--into-elf", description = "Write a copy of ELF with the BTF as its .BTF section.")
    boolean intoElf;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N",
            description = "Compile units encoded at once (default: the number of CPUs); the output is the same "
                    + "for every N.")
    Integer jobs;

    @Option(names = "--debug", description = "Print stack traces for errors.")
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

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
            byte[] btf = BtfEncoder.encode(file, new EncodeOptions(mode, n), skipped::add);
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
