package io.perfj.cli;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfFiles;
import io.perfj.btf.layout.BtfLayout;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code perfj btf layout FILE TYPE [--base FILE]}: a struct's layout as {@code pahole -C TYPE FILE} prints it. */
public final class BtfLayoutCommand implements Callable<Integer> {
    Path file;
    String type;
    Path base;
    final CommandSpec spec;

    BtfLayoutCommand() {
        CommandModel m = CommandModel.command(this, "layout", "Print a struct or union's layout (offsets, sizes, holes, cachelines) like "
                + "'pahole -F btf -C TYPE FILE'.",
                "FILE is raw BTF (/sys/kernel/btf/*) or an ELF object with a .BTF section.");
        m.positional("0", "FILE").describe("BTF or ELF file.").value(Path.class, v -> file = v);
        m.positional("1", "TYPE").describe("Struct or union name.").value(String.class, v -> type = v);
        m.option("-B", "--base", "--base-btf").label("FILE").describe("Base BTF for split BTF (e.g. a module's).")
                .value(Path.class, v -> base = v);
        spec = m.spec();
    }

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
