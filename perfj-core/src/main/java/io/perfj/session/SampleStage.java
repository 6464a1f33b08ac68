package io.perfj.session;

import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.Sample;

/**
 * Work done on each record on the thread that decodes the records, ahead of the consumer, in
 * delivery order. Whatever it computes for a sample travels with the sample to the consumer;
 * whatever it throws for a sample is thrown to the consumer when that sample's result is asked
 * for (see {@link DecodedRecords#ahead()}), so that a failure surfaces where it would have in a
 * single thread.
 */
interface SampleStage {
    /** A non-sample record, in delivery order (the stage keeps any model of its own current). */
    void record(PerfRecord r);

    /** The stage's result for a sample (may be null); may throw. */
    Object sample(Sample s);
}
