package io.perfj.symbols;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inline-function chains from the system's {@code addr2line -f -i} — what perf (built without
 * libbfd) runs to name inlined frames of DWARF-unwound callchains. One process per debug file,
 * kept open and fed one address at a time (each followed by a sentinel address so the end of
 * the answer is known); answers are cached. Without addr2line there is no inline expansion.
 */
public final class Addr2Line implements AutoCloseable {
    private static final String SENTINEL = "0xffffffffffffffff";

    private record Proc(Process process, Writer in, BufferedReader out) {
    }

    private final String tool;
    private final Map<Path, Proc> procs = new HashMap<>();
    private final Map<Path, Map<Long, List<String>>> cache = new HashMap<>();
    private boolean broken;

    public Addr2Line() {
        this("addr2line");
    }

    public Addr2Line(String tool) {
        this.tool = tool;
    }

    /**
     * The function names at {@code vaddr} in {@code file}, innermost inlined function first and
     * the containing function last; empty when unknown.
     */
    public synchronized List<String> functions(Path file, long vaddr) {
        if (broken) {
            return List.of();
        }
        Map<Long, List<String>> c = cache.computeIfAbsent(file, f -> new HashMap<>());
        List<String> hit = c.get(vaddr);
        if (hit != null) {
            return hit;
        }
        List<String> names = query(file, vaddr);
        c.put(vaddr, names);
        return names;
    }

    private List<String> query(Path file, long vaddr) {
        try {
            Proc p = procs.get(file);
            if (p == null) {
                if (!Files.isRegularFile(file)) {
                    return List.of();
                }
                Process pr = new ProcessBuilder(tool, "-f", "-i", "-a", "-e", file.toString())
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
                p = new Proc(pr, new OutputStreamWriter(pr.getOutputStream(), StandardCharsets.UTF_8),
                        new BufferedReader(new InputStreamReader(pr.getInputStream(), StandardCharsets.UTF_8)));
                procs.put(file, p);
            }
            p.in().write("0x" + Long.toHexString(vaddr) + "\n" + SENTINEL + "\n");
            p.in().flush();
            String first = p.out().readLine();
            if (first == null) {
                broken = true;
                return List.of();
            }
            List<String> names = new ArrayList<>();
            while (true) {
                String fn = p.out().readLine();
                if (fn == null) {
                    broken = true;
                    return List.of();
                }
                if (fn.equals(SENTINEL)) {
                    p.out().readLine();
                    p.out().readLine();
                    break;
                }
                p.out().readLine(); // file:line
                if (!fn.equals("??")) {
                    names.add(fn);
                }
            }
            return List.copyOf(names);
        } catch (IOException e) {
            broken = true;
            return List.of();
        }
    }

    @Override
    public synchronized void close() {
        for (Proc p : procs.values()) {
            p.process().destroy();
        }
        procs.clear();
    }
}
