package io.perfj.perfdata;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Brings the pages of a mapped file into memory ahead of a sequential reader, on one daemon
 * thread shared by every reader of the process ({@link MemorySegment#load()}: {@code
 * madvise(MADV_WILLNEED)}, then a touch of every page). Without it the reader's own page faults
 * wait for the disk one read-around at a time whenever the file is not (or no longer) in the page
 * cache. Only a hint: a range that cannot be loaded (e.g. its mapping was closed) is skipped.
 */
final class ReadAhead {
    private static volatile ExecutorService loader;

    private ReadAhead() {
    }

    /** Loads {@code range} on the loader thread, some time later. */
    static void load(MemorySegment range) {
        loader().execute(() -> {
            try {
                range.load();
            } catch (RuntimeException | UnsatisfiedLinkError e) {
                // only a hint: the reader faults the pages in itself
            }
        });
    }

    private static ExecutorService loader() {
        ExecutorService l = loader;
        if (l == null) {
            synchronized (ReadAhead.class) {
                l = loader;
                if (l == null) {
                    l = Executors.newSingleThreadExecutor(r -> {
                        Thread t = new Thread(r, "perfj-readahead");
                        t.setDaemon(true);
                        return t;
                    });
                    loader = l;
                }
            }
        }
        return l;
    }
}
