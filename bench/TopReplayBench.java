import io.perfj.report.SortKey;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.top.LiveProfile;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A recording replayed through top's LiveProfile (reader and display threads) ROUNDS times in one
 * JVM after WARM untimed replays: the median wall time and process CPU time of one replay.
 * Args: FILE BUILDID_DIR [WARM [ROUNDS]].
 */
public class TopReplayBench {
    public static void main(String[] a) throws Exception {
        Path file = Path.of(a[0]);
        SessionOptions o = SessionOptions.of(new SymbolOptions(null, Path.of(a[1]), null, Path.of("/nonexistent"), false));
        int warm = a.length > 2 ? Integer.parseInt(a[2]) : 5;
        int rounds = a.length > 3 ? Integer.parseInt(a[3]) : 20;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double[] wall = new double[rounds];
        double[] cpu = new double[rounds];
        long samples = 0;
        for (int i = -warm; i < rounds; i++) {
            long c0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            try (Session s = Session.open(file, o); LiveProfile p = new LiveProfile(s).start()) {
                p.awaitEnd();
                samples = p.snapshot(List.of(SortKey.DSO, SortKey.SYM)).samples();
            }
            if (i >= 0) {
                wall[i] = (System.nanoTime() - t0) / 1e6;
                cpu[i] = (os.getProcessCpuTime() - c0) / 1e6;
            }
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        System.out.printf("%d samples: median of %d replays: wall %.1f ms, cpu %.1f ms (min %.1f / %.1f)%n",
                samples, rounds, wall[rounds / 2], cpu[rounds / 2], wall[0], cpu[0]);
    }
}
