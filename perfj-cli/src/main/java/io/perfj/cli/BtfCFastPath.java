package io.perfj.cli;

import io.perfj.btf.BtfFiles;
import io.perfj.btf.cdump.BtfCDumper;
import io.perfj.io.FormatException;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code perfj btf dump FILE format c [-B BASE]} for a raw or ELF file, run before picocli builds
 * its command tree. Building that tree (every command's options, by reflection) costs more than
 * the dump of a whole vmlinux, and this command is benchmarked against bpftool, a C program.
 * Only the exact forms below are taken; anything else (other options, perf.data, missing files,
 * {@code --debug}) goes through picocli and {@link BtfDumpCommand}, which prints the same bytes.
 * <pre>
 *   btf dump FILE format c
 *   btf dump FILE format c -B|--base|--base-btf BASE
 *   btf dump -B|--base|--base-btf BASE FILE format c
 * </pre>
 */
final class BtfCFastPath {
    /** The exit code when the arguments were taken. */
    static final int NOT_TAKEN = -1;

    private BtfCFastPath() {
    }

    static int tryRun(String[] args, OutputStream stdout, PrintWriter err) {
        Path file;
        Path base = null;
        if (args.length < 5 || !args[0].equals("btf") || !args[1].equals("dump")) {
            return NOT_TAKEN;
        }
        if (args.length == 5 && plain(args[2]) && args[3].equals("format") && args[4].equals("c")) {
            file = Path.of(args[2]);
        } else if (args.length == 7 && plain(args[2]) && args[3].equals("format") && args[4].equals("c")
                && baseOption(args[5]) && plain(args[6])) {
            file = Path.of(args[2]);
            base = Path.of(args[6]);
        } else if (args.length == 7 && baseOption(args[2]) && plain(args[3]) && plain(args[4])
                && args[5].equals("format") && args[6].equals("c")) {
            base = Path.of(args[3]);
            file = Path.of(args[4]);
        } else {
            return NOT_TAKEN;
        }
        if (base == null && file.toAbsolutePath().startsWith("/sys/kernel/btf/")
                && !file.getFileName().toString().equals("vmlinux")) {
            base = Path.of("/sys/kernel/btf/vmlinux");
        }
        if (!rawOrElf(file) || (base != null && !rawOrElf(base))) {
            return NOT_TAKEN;
        }
        try {
            BtfCDumper.dumpFile(file, base, stdout);
            stdout.flush();
            return 0;
        } catch (FormatException e) {
            flushQuietly(stdout);
            err.println("perfj: " + e.getMessage());
            err.flush();
            return 2;
        } catch (IOException | RuntimeException e) {
            if (Main.isBrokenPipe(e)) {
                return 141;
            }
            flushQuietly(stdout);
            err.println("perfj: " + Main.describe(e));
            err.flush();
            return 1;
        }
    }

    private static boolean plain(String arg) {
        return !arg.isEmpty() && !arg.startsWith("-");
    }

    private static boolean baseOption(String arg) {
        return arg.equals("-B") || arg.equals("--base") || arg.equals("--base-btf");
    }

    private static boolean rawOrElf(Path p) {
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            return false;
        }
        try {
            BtfFiles.Kind k = BtfFiles.kind(p);
            return k == BtfFiles.Kind.RAW || k == BtfFiles.Kind.ELF;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static void flushQuietly(OutputStream out) {
        try {
            out.flush();
        } catch (IOException e) {
            // nothing more can be said on a closed standard output
        }
    }
}
