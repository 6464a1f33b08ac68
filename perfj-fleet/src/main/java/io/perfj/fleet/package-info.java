/**
 * Many recordings as one profile, on Apache Spark: {@code PerfjSource} is the Spark data source
 * ({@code spark.read.format("perfj")}) whose table {@code FleetSchema} describes, one row per
 * sample, read by {@code SampleReader} through a perfj session per recording (split by time
 * where large: {@code RecordingPartition}); aggregate push-down ({@code Pushed},
 * {@code Grouped}) sums in each task. {@code FleetReport} and {@code FleetFlame} are the report
 * and flame graph over every recording, {@code FleetSpark} the Spark session.
 *
 * {@code FleetCommand} is {@code perfj fleet}, which perfj's command line finds as a
 * {@code io.perfj.cli.Subcommand} ({@code FleetSubcommand}, a {@link java.util.ServiceLoader}
 * provider).
 *
 * <p>Depends on perfj-core's {@code session}, {@code symbols}, {@code report} and {@code profile},
 * and on perfj-cli's command models.
 */
package io.perfj.fleet;
