package io.perfj.cli;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfFiles;
import io.perfj.btf.cdump.BtfCDumper;
import io.perfj.btf.dump.BtfJsonDumper;
import io.perfj.btf.dump.BtfRawDumper;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code perfj btf dump FILE [format raw|c|json] [--base FILE]}: bpftool's
 * {@code btf dump file FILE [format raw|c]} ({@code -j} for json, {@code -B} for the base).
 */
public final class BtfDumpCommand implements Callable<Integer> {
    Path file;
    List<String> formatWords = List.of();
    Path base;
    boolean json;
    boolean debug;
    final CommandSpec spec;

    BtfDumpCommand() {
        CommandModel m = CommandModel.command(this, "dump", "Print the types of a BTF file like 'bpftool btf dump file FILE'.",
                "FILE is raw BTF (/sys/kernel/btf/*), an ELF object with a .BTF section, or a perf.data "
                        + "(each BPF_BTF entry, after a '# BPF_BTF id N' line).");
        m.positional("0", "FILE").describe("BTF, ELF or perf.data file.").value(Path.class, v -> file = v);
        m.positional("1..*", "format raw|c|json").arity("0..2")
                .describe("Output format as in bpftool: 'format raw' (default), 'format c', 'format json' "
                        + "(bpftool -j).")
                .list(String.class, v -> formatWords = v);
        m.option("-B", "--base", "--base-btf").label("FILE")
                .describe("Base BTF for split BTF (e.g. a module's): raw BTF or an ELF with .BTF. Files under "
                        + "/sys/kernel/btf/ other than vmlinux get /sys/kernel/btf/vmlinux by default, as in bpftool.")
                .value(Path.class, v -> base = v);
        m.option("-j", "--json").describe("Same as 'format json'.").flag(v -> json = v);
        m.option("--debug").describe("Print stack traces for errors.").flag(v -> debug = v);
        spec = m.spec();
    }

    @Override
    public Integer call() throws IOException {
        String format = format();
        spec.commandLine().getOut().flush();
        return run(file, format, base, Main.stdout(spec));
    }

    static int run(Path file, String format, Path base, OutputStream out) throws IOException {
        Btf baseBtf = null;
        Path basePath = base;
        if (basePath == null && file.toAbsolutePath().startsWith("/sys/kernel/btf/")
                && !file.getFileName().toString().equals("vmlinux")) {
            basePath = Path.of("/sys/kernel/btf/vmlinux");
        }
        if (!format.equals("json") && isRawOrElf(exists(file)) && (basePath == null || isRawOrElf(exists(basePath)))) {
            // A single BTF: straight from the file's words to the text, no object model.
            if (format.equals("c")) {
                BtfCDumper.dumpFile(file, basePath, out);
            } else {
                BtfRawDumper.dumpFile(file, basePath, out);
            }
            out.flush();
            return 0;
        }
        if (basePath != null) {
            baseBtf = BtfFiles.load(exists(basePath), null);
        }
        List<BtfFiles.Found> found = BtfFiles.loadAll(exists(file), baseBtf);
        boolean perfData = found.size() != 1 || found.getFirst().id() >= 0;
        if (format.equals("json") && perfData) {
            out.write('[');
        }
        for (int i = 0; i < found.size(); i++) {
            BtfFiles.Found f = found.get(i);
            if (format.equals("json")) {
                if (perfData) {
                    if (i > 0) {
                        out.write(',');
                    }
                    BtfJsonDumper.dumpObject(f.btf(), out, "\"btf_id\":" + f.id());
                } else {
                    BtfJsonDumper.dump(f.btf(), out);
                }
                continue;
            }
            if (perfData) {
                out.write(("# BPF_BTF id " + f.id() + "\n").getBytes(StandardCharsets.US_ASCII));
            }
            if (format.equals("c")) {
                dumpC(f.btf(), out);
            } else {
                BtfRawDumper.dump(f.btf(), out);
            }
        }
        if (format.equals("json") && perfData) {
            out.write(']');
            out.write('\n');
        }
        out.flush();
        return 0;
    }

    private String format() {
        String f = json ? "json" : "raw";
        if (formatWords.isEmpty()) {
            return f;
        }
        if (formatWords.size() != 2 || !formatWords.get(0).equals("format")) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "expected 'format raw|c|json' after FILE, got '" + String.join(" ", formatWords) + "'");
        }
        f = formatWords.get(1);
        if (!List.of("raw", "c", "json").contains(f)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "unrecognized format specifier: '" + f + "', possible values: raw, c, json");
        }
        return json && f.equals("raw") ? "json" : f;
    }

    private static boolean isRawOrElf(Path p) {
        BtfFiles.Kind k = BtfFiles.kind(p);
        return k == BtfFiles.Kind.RAW || k == BtfFiles.Kind.ELF;
    }

    private static Path exists(Path p) {
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw new java.io.UncheckedIOException(new IOException("failed to open " + p + ": "
                    + (Files.exists(p) ? "not a readable file" : "No such file or directory")));
        }
        return p;
    }

    private static void dumpC(Btf btf, OutputStream out) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        BtfCDumper.dump(btf, w);
        w.flush();
    }
}
