package io.perfj.fleet;

import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The Spark session of a fleet command: embedded in local mode ({@code local[*]}) with no setup,
 * or the driver of an application on a cluster ({@code spark://HOST:PORT}, {@code yarn}). The
 * UI is off, addresses are the loopback's unless a cluster is named, and few shuffle
 * partitions: a fleet report's shuffle is small (one row per distinct sort-key value).
 */
public final class FleetSpark {
    private FleetSpark() {
    }

    /** The JVM options of {@code fleet.options} (module openings Spark needs), one per element. */
    public static List<String> jvmOptions() {
        List<String> out = new ArrayList<>();
        try (InputStream in = FleetSpark.class.getResourceAsStream("/fleet.options")) {
            if (in == null) {
                return out;
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String l = line.strip();
                if (!l.isEmpty() && !l.startsWith("#")) {
                    out.add(l);
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    /**
     * This JVM's class path, as the executors of a cluster get it ({@code
     * spark.executor.extraClassPath}): the workers must see the same paths (a shared or
     * identical installation).
     */
    public static List<String> classPath() {
        return List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator));
    }

    /**
     * A session on {@code master} (null: {@code local[*]}); {@code jars}: the class path the
     * executors of a cluster need (perfj's and its libraries' jars), null in local mode.
     */
    public static SparkSession start(String master, List<String> jars) {
        String m = master == null ? "local[*]" : master;
        SparkSession.Builder b = SparkSession.builder().appName("perfj fleet").master(m)
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.sql.shuffle.partitions", "8")
                .config("spark.sql.adaptive.enabled", "true")
                .config("spark.sql.debug.maxToStringFields", "100");
        if (m.startsWith("local")) {
            b.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1");
        } else {
            b.config("spark.executor.extraJavaOptions", String.join(" ", jvmOptions()));
            if (jars != null && !jars.isEmpty()) {
                b.config("spark.executor.extraClassPath", String.join(java.io.File.pathSeparator, jars));
            }
        }
        return b.getOrCreate();
    }
}
