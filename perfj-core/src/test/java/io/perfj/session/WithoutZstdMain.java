package io.perfj.session;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RecordInput;

import java.nio.file.Path;

/**
 * Reads a recording the two ways an embedder would, in a JVM started without zstd-jni
 * ({@link MissingZstdTest}): iterating its records, then its resolved samples. Prints one line per
 * way: the count when it finished, or the exception's class and message.
 */
public final class WithoutZstdMain {
    private WithoutZstdMain() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        try {
            Class.forName("com.github.luben.zstd.ZstdDecompressCtx");
            System.out.println("zstd-jni present");
        } catch (ClassNotFoundException e) {
            System.out.println("zstd-jni absent");
        }
        try (PerfData data = PerfData.open(file)) {
            RecordInput in = data.orderedRecords();
            long n = 0;
            while (in.next() != null) {
                n++;
            }
            System.out.println("records: " + n);
        } catch (Throwable t) {
            System.out.println("records: " + t.getClass().getName() + ": " + t.getMessage());
        }
        try (Session s = Session.open(file, SessionOptions.defaults())) {
            long[] n = {0};
            s.forEachSample(r -> n[0]++);
            System.out.println("samples: " + n[0]);
        } catch (Throwable t) {
            System.out.println("samples: " + t.getClass().getName() + ": " + t.getMessage());
        }
    }
}
