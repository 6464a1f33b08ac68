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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.perfj.dwarf.InlineChains;
import io.perfj.elf.ElfFile;

/**
 * Inline-function chains as the system's {@code addr2line -f -i} gives them — what perf (built
 * without libbfd) runs to name inlined frames. A file with DWARF of its own is read here
 * ({@link InlineChains}, binutils' answers without a process, on a thread of its own as a
 * process would work: questions asked ahead are answered meanwhile); addr2line itself is asked about
 * the others: a file whose DWARF it finds elsewhere (build-id directory, debuglink, debuginfod),
 * uses dwz or split DWARF, or which the reader cannot answer for at some address (then from
 * that question on: decided once per file). One process per such file,
 * kept open; each address is followed by a sentinel address so the end of its answer is known,
 * and answers are cached. Questions may be asked ahead ({@link #prefetch}): they are written at
 * once and a reader thread per process collects the answers in order, so the process works while
 * the asker does something else, and {@link #functions} waits only for what is not in yet. A
 * process is started by its reader thread, not the asker (a JVM's first process start takes
 * tens of milliseconds); questions asked before it runs wait in a buffer.
 * Without addr2line there is no inline expansion.
 */
public final class Addr2Line implements AutoCloseable {
    private static final String SENTINEL = "0xffffffffffffffff";
    private static final CompletableFuture<List<Level>> NONE = CompletableFuture.completedFuture(List.of());

    /**
     * An addr2line: the answers still to come are for {@code pending}, in order. Its process and
     * streams are null until its reader thread has started it (set under the Addr2Line's lock);
     * questions asked before wait in {@code early}.
     */
    private static final class Proc {
        Process process;
        Writer in;
        BufferedReader out;
        final StringBuilder early = new StringBuilder();
        final Queue<CompletableFuture<List<Level>>> pending = new ConcurrentLinkedQueue<>();
        volatile boolean closed;
        boolean unflushed;
    }

    /**
     * One function of an address's inline chain and its source line as perf names it from
     * addr2line's answer ({@code file:line}, the file without its directories): the address's own
     * line for the innermost function, the call site of the next inner one for the others.
     */
    public record Level(String function, String srcline) {
    }

    private final String tool;
    private final Map<Path, Proc> procs = new HashMap<>();
    private final Map<Path, Map<Long, CompletableFuture<List<Level>>>> cache = new HashMap<>();
    /** The reader of each file asked about; empty for a file addr2line answers for. */
    private final Map<Path, Optional<Native>> natives = new HashMap<>();

    /**
     * A file read by {@link InlineChains}, kept open for its questions. They are answered in the
     * order asked, one after the other (binutils' answers may depend on the questions before), on
     * a thread of {@link #READERS}: the asker goes on meanwhile, as it does while an addr2line
     * process works.
     */
    private static final class Native {
        final ElfFile elf;
        final InlineChains chains;
        /** The last question's answer (guarded by the Addr2Line). */
        CompletableFuture<List<Level>> tail = CompletableFuture.completedFuture(List.of());
        /** Set by a question the reader could not answer: the later ones go to addr2line. */
        volatile boolean unanswerable;

        Native(ElfFile elf, InlineChains chains) {
            this.elf = elf;
            this.chains = chains;
        }
    }

    /** Where the files' own DWARF is read (threads end when idle). */
    private static final java.util.concurrent.ExecutorService READERS = java.util.concurrent.Executors
            .newCachedThreadPool(r -> {
                java.lang.Thread t = new java.lang.Thread(r, "perfj-inline-dwarf");
                t.setDaemon(true);
                return t;
            });
    private volatile boolean broken;
    private boolean closed;

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
    public List<String> functions(Path file, long vaddr) {
        return levels(file, vaddr).stream().map(Level::function).toList();
    }

    /**
     * The functions at {@code vaddr} in {@code file} with their source lines, innermost first;
     * empty when unknown.
     */
    public List<Level> levels(Path file, long vaddr) {
        CompletableFuture<List<Level>> f;
        synchronized (this) {
            f = ask(file, vaddr);
            if (!f.isDone()) {
                flush(procs.get(file));
            }
        }
        return f.join();
    }

    /**
     * Asks for {@code vaddr} in {@code file} now, for a later {@link #functions} call; nothing
     * once closed (an unwinder still running ahead must not start processes nobody ends).
     */
    public synchronized void prefetch(Path file, long vaddr) {
        if (!closed) {
            ask(file, vaddr);
        }
    }

    /** The addresses asked about so far, per file, in the order first asked. */
    public synchronized Map<Path, List<Long>> asked() {
        Map<Path, List<Long>> out = new LinkedHashMap<>();
        cache.forEach((f, c) -> out.put(f, List.copyOf(c.keySet())));
        return out;
    }

    /** Sends what {@link #prefetch} asked for to the processes. */
    public synchronized void flush() {
        for (Proc p : procs.values()) {
            flush(p);
        }
    }

    private CompletableFuture<List<Level>> ask(Path file, long vaddr) {
        // in the order asked: binutils' answers may depend on the questions before (see asked())
        Map<Long, CompletableFuture<List<Level>>> c = cache.computeIfAbsent(file, x -> new LinkedHashMap<>());
        CompletableFuture<List<Level>> hit = c.get(vaddr);
        if (hit != null) {
            return hit;
        }
        CompletableFuture<List<Level>> f = local(file, vaddr);
        if (f == null) {
            if (broken) {
                return NONE;
            }
            f = send(file, vaddr);
        }
        c.put(vaddr, f);
        return f;
    }

    /** The answer of the file's own DWARF, to come; null when addr2line is to be asked. */
    private CompletableFuture<List<Level>> local(Path file, long vaddr) {
        if (closed) {
            return null; // used after close: addr2line answers, as it did before
        }
        Optional<Native> o = natives.computeIfAbsent(file, Addr2Line::openNative);
        if (o.isEmpty()) {
            return null;
        }
        Native n = o.get();
        n.tail = n.tail.thenApplyAsync(x -> answer(n, file, vaddr), READERS);
        return n.tail;
    }

    /**
     * The reader's answer on its thread; where it cannot answer (DWARF it does not follow as
     * binutils does), addr2line's, for this question and every later one of the file.
     */
    private List<Level> answer(Native n, Path file, long vaddr) {
        if (!n.unanswerable) {
            try {
                List<InlineChains.Level> levels = n.chains.levels(vaddr);
                return levels == null ? List.of() : levels(levels);
            } catch (InlineChains.Unanswerable e) {
                n.unanswerable = true;
            }
        }
        CompletableFuture<List<Level>> f;
        synchronized (this) {
            if (natives.get(file) != null && natives.get(file).orElse(null) == n) {
                natives.put(file, Optional.empty());
                n.tail.whenComplete((x, e) -> n.elf.close());
            }
            if (broken) {
                return List.of();
            }
            f = send(file, vaddr);
            flush(procs.get(file));
        }
        return f.join();
    }

    /** The reader's levels as addr2line's answer reads: its "??" functions left out. */
    private static List<Level> levels(List<InlineChains.Level> levels) {
        List<Level> out = new ArrayList<>(levels.size());
        for (InlineChains.Level l : levels) {
            if (l.function() != null && !l.function().isEmpty() && !l.function().equals("??")) {
                out.add(new Level(l.function(), srcline(l.place())));
            }
        }
        return List.copyOf(out);
    }

    private static Optional<Native> openNative(Path file) {
        if (!Files.isRegularFile(file) || !ElfFile.isElf(file)) {
            return Optional.empty();
        }
        ElfFile elf;
        try {
            elf = ElfFile.open(file);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        Optional<InlineChains> chains = InlineChains.open(elf);
        if (chains.isEmpty()) {
            elf.close();
            return Optional.empty();
        }
        return Optional.of(new Native(elf, chains.get()));
    }

    private CompletableFuture<List<Level>> send(Path file, long vaddr) {
        Proc p = procs.get(file);
        try {
            if (p == null) {
                if (!Files.isRegularFile(file)) {
                    return NONE;
                }
                Proc started = new Proc();
                p = started;
                procs.put(file, p);
                java.lang.Thread reader = new java.lang.Thread(() -> run(started, file), "perfj-addr2line");
                reader.setDaemon(true);
                reader.start();
            }
            CompletableFuture<List<Level>> f = new CompletableFuture<>();
            // queued before it is written: the reader may see the answer at once
            p.pending.add(f);
            String question = "0x" + Long.toHexString(vaddr) + "\n" + SENTINEL + "\n";
            if (p.in == null) {
                p.early.append(question);
            } else {
                p.in.write(question);
                p.unflushed = true;
            }
            if (broken) {
                failAll(p);
            }
            return f;
        } catch (IOException e) {
            broken = true;
            if (p != null) {
                failAll(p);
            }
            return NONE;
        }
    }

    private void flush(Proc p) {
        if (p == null || !p.unflushed || p.in == null) {
            return;
        }
        try {
            p.unflushed = false;
            p.in.flush();
        } catch (IOException e) {
            broken = true;
            failAll(p);
        }
    }

    /** The reader thread of one process: starts it, sends what was asked meanwhile, then reads. */
    private void run(Proc p, Path file) {
        Process pr;
        try {
            pr = new ProcessBuilder(tool, "-f", "-i", "-a", "-e", file.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            broken = true;
            failAll(p);
            return;
        }
        synchronized (this) {
            if (p.closed) {
                pr.destroy();
                failAll(p);
                return;
            }
            p.process = pr;
            p.out = new BufferedReader(new InputStreamReader(pr.getInputStream(), StandardCharsets.UTF_8));
            p.in = new OutputStreamWriter(pr.getOutputStream(), StandardCharsets.UTF_8);
            try {
                p.in.write(p.early.toString());
                p.in.flush();
            } catch (IOException e) {
                broken = true;
            }
            p.early.setLength(0);
        }
        read(p);
    }

    /** Reads one process's answers: each completes the oldest question. */
    private void read(Proc p) {
        try {
            while (true) {
                List<Level> names = answer(p.out);
                if (names == null) {
                    break;
                }
                CompletableFuture<List<Level>> f = p.pending.poll();
                if (f == null) {
                    break; // an answer nobody asked for: the stream is out of step
                }
                f.complete(names);
            }
        } catch (IOException e) {
            // as the end of the stream
        }
        if (!p.closed) {
            broken = true;
        }
        failAll(p);
    }

    /** One answer (the address line, name and place pairs, the sentinel's three lines), or null at the end. */
    private static List<Level> answer(BufferedReader out) throws IOException {
        if (out.readLine() == null) {
            return null;
        }
        List<Level> names = new ArrayList<>();
        while (true) {
            String fn = out.readLine();
            if (fn == null) {
                return null;
            }
            if (fn.equals(SENTINEL)) {
                if (out.readLine() == null || out.readLine() == null) {
                    return null;
                }
                return List.copyOf(names);
            }
            String place = out.readLine();
            if (place == null) {
                return null;
            }
            if (!fn.equals("??")) {
                names.add(new Level(fn, srcline(place)));
            }
        }
    }

    /**
     * perf's text of addr2line's {@code FILE:LINE} (maybe followed by {@code (discriminator N)}):
     * the file without its directories, the line's number ({@code 0} where it is {@code ?}).
     */
    static String srcline(String place) {
        int colon = place.lastIndexOf(':');
        if (colon < 0) {
            return place;
        }
        String file = place.substring(0, colon);
        file = file.substring(file.lastIndexOf('/') + 1);
        int end = colon + 1;
        while (end < place.length() && Character.isDigit(place.charAt(end))) {
            end++;
        }
        String n = place.substring(colon + 1, end);
        return file + ":" + (n.isEmpty() ? "0" : Long.parseLong(n));
    }

    /** Answers every question still open on {@code p} with nothing (the process is gone). */
    private static void failAll(Proc p) {
        for (CompletableFuture<List<Level>> f; (f = p.pending.poll()) != null; ) {
            f.complete(List.of());
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        // questions left open now are asked again if the object is used after all
        for (Map<Long, CompletableFuture<List<Level>>> c : cache.values()) {
            c.values().removeIf(f -> !f.isDone());
        }
        for (Proc p : procs.values()) {
            p.closed = true;
            if (p.process != null) {
                p.process.destroy();
            }
            failAll(p);
        }
        procs.clear();
        for (Optional<Native> n : natives.values()) {
            // once its questions are answered
            n.ifPresent(x -> x.tail.whenComplete((l, e) -> x.elf.close()));
        }
        natives.clear();
    }
}
