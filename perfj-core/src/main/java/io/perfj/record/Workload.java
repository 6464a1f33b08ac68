package io.perfj.record;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command {@code perfj record -- CMD} runs, started stopped before its exec so that events
 * can be attached to its pid first (perf's {@code evlist__prepare_workload} scheme). A Java
 * program cannot fork without exec, so the child is a shell that blocks reading one line from
 * a private FIFO and then execs the command in place: same pid, and its exec is the one that
 * fires {@code enable_on_exec}. {@link #go} writes the line. The FIFO is opened read-write by
 * the recorder, which never blocks and keeps the line in the pipe whenever the shell gets to
 * read it; if the recorder fails before {@code go}, {@link #abort} ends the shell instead.
 */
final class Workload implements AutoCloseable {
    /** Reads one line from the FIFO named by $0, then becomes the command; 127 if the line never comes. */
    static final String GATE = "read -r _ <\"$0\" || exit 127; exec \"$@\"";
    /** {@link #GATE} with the command's standard output sent to standard error, as perf's pipe mode does. */
    static final String GATE_TO_STDERR = GATE + " >&2";

    private final Path fifo;
    private final Process process;
    private RandomAccessFile gate;

    private Workload(Path fifo, Process process) {
        this.fifo = fifo;
        this.process = process;
    }

    static Workload start(List<String> command) {
        return start(command, false);
    }

    /**
     * @param stdoutToStderr the command writes its standard output to standard error: the
     *                       recorder's own standard output is the recording ({@code -o -})
     */
    static Workload start(List<String> command, boolean stdoutToStderr) {
        Path fifo = makeFifo();
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", stdoutToStderr ? GATE_TO_STDERR : GATE, fifo.toString()));
        argv.addAll(command);
        try {
            Process p = new ProcessBuilder(argv).inheritIO().start();
            return new Workload(fifo, p);
        } catch (IOException e) {
            cleanUp(fifo);
            throw new RecordException("cannot start " + command.getFirst() + ": " + e.getMessage(), e);
        }
    }

    int pid() {
        return (int) process.pid();
    }

    /** Lets the shell exec the command. */
    void go() {
        try {
            gate = new RandomAccessFile(fifo.toFile(), "rw");
            gate.write('\n');
        } catch (IOException e) {
            abort();
            throw new RecordException("cannot start the command through " + fifo + ": " + e.getMessage(), e);
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The command's exit status (waits for it). */
    int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    /** SIGTERM to the command. */
    void terminate() {
        process.destroy();
    }

    void abort() {
        process.destroyForcibly();
    }

    @Override
    public void close() {
        try {
            if (gate != null) {
                gate.close();
            }
        } catch (IOException e) {
            // nothing is left to say through a pipe that is going away
        }
        cleanUp(fifo);
    }

    private static void cleanUp(Path fifo) {
        try {
            Files.deleteIfExists(fifo);
        } catch (IOException e) {
            // a FIFO left behind in the temporary directory is not worth failing the recording for
        }
    }

    private static final java.util.concurrent.atomic.AtomicInteger FIFOS = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * A new FIFO in the temporary directory, readable and writable by this user only. mknod
     * makes it or fails with EEXIST, never following a link, so a name someone else took only
     * means trying the next. (Files.createTempDirectory would seed a SecureRandom first: ~10 ms
     * of every recording's start.)
     */
    private static Path makeFifo() {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir", "/tmp"));
        String stem = "perfj-record-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime()) + "-";
        for (int i = 0; ; i++) {
            Path fifo = tmp.resolve(stem + FIFOS.incrementAndGet());
            try {
                Sys.mkfifo(fifo.toString());
                return fifo;
            } catch (Sys.SysException e) {
                if (e.errno() != Sys.EEXIST || i >= 100) {
                    throw new RecordException("cannot make the command's start gate " + fifo + ": "
                            + Sys.describe(e.errno()), e);
                }
            }
        }
    }
}
