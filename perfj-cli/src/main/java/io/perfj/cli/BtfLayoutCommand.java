package io.perfj.cli;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfFiles;
import io.perfj.btf.layout.BtfLayout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code perfj btf layout FILE TYPE [--base FILE]}: a struct's layout as {@code pahole -C TYPE FILE} prints it. */
@Command(name = "layout", mixinStandardHelpOptions = true,
        description = {"Print a struct or union's layout (offsets, sizes, holes, cachelines) like "
                + "'pahole -F btf -C TYPE FILE'.",
                "FILE is raw BTF (/sys/kernel/btf/*) or an ELF object with a .BTF section."})
public final class BtfLayoutCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "BTF or ELF file.")
    Path file;

    @Parameters(index = "1", paramLabel = "TYPE", description = "Struct or union name.")
    String type;

    @Option(names = {"-B", "--base", "--base-btf"}, paramLabel = "FILE",
            description = "Base BTF for split BTF (e.g. a module's).")
    Path base;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        spec.commandLine().getOut().flush();
        return run(file, type, base, Main.stdout(spec), spec.commandLine().getErr());
    }

    static int run(Path file, String type, Path base, OutputStream out, java.io.PrintWriter err) throws IOException {
        Btf baseBtf = base == null ? null : BtfFiles.load(exists(base), null);
        Btf btf = BtfFiles.load(exists(file), baseBtf);
        String text;
        try {
            text = BtfLayout.layout(btf, BtfLayout.find(btf, type));
        } catch (IllegalArgumentException e) {
            err.println("perfj: " + e.getMessage());
            err.flush();
            return 1;
        }
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
        return 0;
    }

    private static Path exists(Path p) {
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw new java.io.UncheckedIOException(new IOException("failed to open " + p + ": "
                    + (Files.exists(p) ? "not a readable file" : "No such file or directory")));
        }
        return p;
    }
}
