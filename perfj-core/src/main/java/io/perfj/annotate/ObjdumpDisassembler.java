package io.perfj.annotate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Disassembles by running GNU objdump the way perf does ({@code --start-address --stop-address
 * -l -d --no-show-raw-insn -S -C}), or llvm-objdump with the same range; llvm-objdump's source
 * markers come from perfj's own line tables ({@link SourceInterleaver}) so both look alike.
 */
final class ObjdumpDisassembler implements Disassembler {
    private final String program;
    private final boolean llvm;

    ObjdumpDisassembler(String program, boolean llvm) {
        this.program = program;
        this.llvm = llvm;
    }

    @Override
    public String name() {
        return llvm ? "llvm-objdump" : "objdump";
    }

    @Override
    public List<String> listing(Path elf, long start, long end, Request r) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(program);
        if (r.style() != null) {
            cmd.add("-M");
            cmd.add(r.style());
        }
        cmd.add(String.format("--start-address=0x%016x", start));
        cmd.add(String.format("--stop-address=0x%016x", end));
        if (!llvm && r.lineNumbers()) {
            cmd.add("-l");
        }
        cmd.add("-d");
        if (!r.rawInsn()) {
            cmd.add("--no-show-raw-insn");
        }
        if (!llvm && r.source()) {
            cmd.add("-S");
            if (r.prefix() != null) {
                cmd.add("--prefix");
                cmd.add(r.prefix());
            }
            if (r.prefixStrip() != null) {
                cmd.add("--prefix-strip=" + r.prefixStrip());
            }
        }
        cmd.add("-C");
        cmd.add(elf.toString());
        List<String> out = run(cmd);
        if (llvm && (r.lineNumbers() || r.source())) {
            return SourceInterleaver.interleave(out, r.debugFile() != null ? r.debugFile() : elf, r);
        }
        return out;
    }

    @Override
    public List<String> listing(byte[] code, long base, String symbol, Request r) throws IOException {
        if (!llvm) {
            // GNU objdump reads raw bytes itself, as perf's libopcodes path sees them
            Path raw = Files.createTempFile("perfj-code", ".bin");
            try {
                Files.write(raw, code);
                List<String> cmd = new ArrayList<>(List.of(program, "-D", "-b", "binary", "-m", "i386:x86-64",
                        String.format("--adjust-vma=0x%x", base)));
                if (r.style() != null) {
                    cmd.add("-M");
                    cmd.add(r.style());
                }
                if (!r.rawInsn()) {
                    cmd.add("--no-show-raw-insn");
                }
                cmd.add(raw.toString());
                return run(cmd);
            } finally {
                Files.deleteIfExists(raw);
            }
        }
        Path tmp = CodeElf.write(code, base, symbol);
        try {
            Request plain = new Request(false, false, r.rawInsn(), r.style(), null, null, null);
            return listing(tmp, base, base + code.length, plain);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private List<String> run(List<String> cmd) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new MissingException(program + " not found: install binutils (objdump) or llvm (llvm-objdump),"
                    + " or pick another backend with --disassembler");
        }
        List<String> lines = new ArrayList<>();
        try (InputStream in = p.getInputStream();
             BufferedReader br = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String l; (l = br.readLine()) != null; ) {
                lines.add(l);
            }
        }
        try {
            p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for " + program, e);
        }
        return lines;
    }
}
