package io.perfj.fleet;

import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.Map;
import java.util.Set;

/**
 * {@code spark.read.format("perfj").load(DIR)}: the samples of every recording under DIR
 * ({@link Recordings}), one row each ({@link FleetSchema#SAMPLE}), resolved by perfj's session.
 */
public final class PerfjSource implements TableProvider, DataSourceRegister {
    @Override
    public String shortName() {
        return "perfj";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return FleetSchema.SAMPLE;
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return new SampleTable(new CaseInsensitiveStringMap(properties));
    }

    /** The table of one fleet directory. */
    static final class SampleTable implements Table, SupportsRead {
        private final CaseInsensitiveStringMap options;

        SampleTable(CaseInsensitiveStringMap options) {
            this.options = options;
        }

        @Override
        public String name() {
            return "perfj:" + options.get("path");
        }

        @Override
        public StructType schema() {
            return FleetSchema.SAMPLE;
        }

        @Override
        public Set<TableCapability> capabilities() {
            return Set.of(TableCapability.BATCH_READ);
        }

        @Override
        public ScanBuilder newScanBuilder(CaseInsensitiveStringMap scanOptions) {
            java.util.HashMap<String, String> all = new java.util.HashMap<>(options);
            all.putAll(scanOptions);
            return new SampleScan(new CaseInsensitiveStringMap(all));
        }
    }
}
