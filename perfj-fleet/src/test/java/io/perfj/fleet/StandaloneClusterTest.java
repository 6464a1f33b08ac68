package io.perfj.fleet;

import io.perfj.report.SortKey;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Spark standalone cluster on the loopback (a master and two workers, child JVMs on this
 * test's class path, each worker with one core) gives the rows of local mode.
 */
class StandaloneClusterTest {
    private static final List<Process> DAEMONS = new ArrayList<>();
    private static Path work;
    private static String master;

    @BeforeAll
    static void startCluster() throws Exception {
        work = Files.createDirectories(Path.of("target", "fleet-test", "cluster").toAbsolutePath());
        // a worker starts executors with SPARK_HOME/jars on their class path: a directory that
        // holds the test's jars stands in for an installation
        Path home = Files.createDirectories(work.resolve("spark-home"));
        Path jars = Files.createDirectories(home.resolve("jars"));
        for (String e : FleetSpark.classPath()) {
            Path p = Path.of(e);
            Path link = jars.resolve(p.getFileName());
            if (e.endsWith(".jar") && !Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.createSymbolicLink(link, p.toAbsolutePath());
            }
        }
        int port = freePort();
        master = "spark://127.0.0.1:" + port;
        DAEMONS.add(daemon(home, "master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                "--port", Integer.toString(port), "--webui-port", Integer.toString(freePort())));
        awaitPort(port);
        for (int i = 1; i <= 2; i++) {
            Path dir = work.resolve("worker" + i);
            if (Files.exists(dir)) {
                // an earlier run's executors' directories
                try (var old = Files.walk(dir)) {
                    old.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
                }
            }
            Files.createDirectories(dir);
            DAEMONS.add(daemon(home, "worker" + i, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                    "--cores", "1", "--memory", "1g", "--webui-port", Integer.toString(freePort()),
                    "--work-dir", dir.toString(), master));
        }
    }

    /** Waits (up to a minute) until the master accepts connections. */
    private static void awaitPort(int port) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (java.net.Socket s = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("the master did not start; log in " + work.resolve("master.log"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static Process daemon(Path home, String name, String main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.addAll(FleetSpark.jvmOptions());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(work.resolve(name + ".log").toFile());
        pb.environment().put("SPARK_HOME", home.toString());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        // without an installation's build directories the launcher code asks for the Scala version
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        // the executors are started with this JDK, not the first java on the PATH
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("SPARK_LOG_DIR", work.toString());
        return pb.start();
    }

    @AfterAll
    static void stopCluster() throws InterruptedException {
        for (int i = DAEMONS.size() - 1; i >= 0; i--) {
            Process p = DAEMONS.get(i);
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void twoWorkersGiveTheRowsOfLocalMode() throws Exception {
        Path dir = FleetFixtures.fleet(Files.createDirectories(work.resolve("fleet")));
        List<SortKey> keys = List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM);
        System.setProperty("spark.driver.host", "127.0.0.1");
        System.setProperty("spark.driver.bindAddress", "127.0.0.1");
        System.setProperty("spark.executor.memory", "512m");
        System.setProperty("spark.cores.max", "2");
        SparkSession spark = FleetSpark.start(master, FleetSpark.classPath());
        try {
            long deadline = System.nanoTime() + 90_000_000_000L;
            // the driver and one executor per worker
            while (spark.sparkContext().getExecutorMemoryStatus().size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(250);
            }
            assertEquals(3, spark.sparkContext().getExecutorMemoryStatus().size(),
                    "executors: " + spark.sparkContext().getExecutorMemoryStatus() + "; logs in " + work);
            var samples = FleetReport.samples(spark, dir.toString(),
                    Map.of("buildid-dir", FleetFixtures.sourceOptions().get("buildid-dir"),
                            "perf-map-dir", FleetFixtures.sourceOptions().get("perf-map-dir"),
                            "no-system-files", "true", "split-bytes", Long.toString(256 << 10)));
            String cluster = FleetFixtures.text(FleetReportTest.fleetRows(samples, keys, null));
            // local mode's rows are these (FleetReportTest): the per-file reports summed
            assertEquals(FleetFixtures.text(FleetFixtures.perFileRows(keys)), cluster);
        } finally {
            spark.stop();
            for (String p : List.of("spark.driver.host", "spark.driver.bindAddress", "spark.executor.memory",
                    "spark.cores.max")) {
                System.clearProperty(p);
            }
        }
        assertTrue(new File(work.toFile(), "worker1").list().length > 0, "worker1 ran an executor");
        assertTrue(new File(work.toFile(), "worker2").list().length > 0, "worker2 ran an executor");
    }
}
