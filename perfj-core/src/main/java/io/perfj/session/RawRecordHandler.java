package io.perfj.session;

import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.record.PerfRecord;

/**
 * What consumes every record of a {@link Session} as stored ({@link Session#runRecords}): a
 * record dump, which prints each record's bytes and fields. The handler decodes each record
 * itself, so that what it printed of a damaged record comes out before the error; the session
 * then feeds the decoded record to the process model, which the handler can query
 * ({@link Session#resolver()}) for perf's lines that come from the model.
 */
public interface RawRecordHandler {
    /**
     * A record, in delivery order, before the process model has seen it (compressed records
     * come first, then the records they held).
     *
     * @return the record decoded, for the process model (samples are not fed to it), or null when
     *         the model has nothing to learn from it (a compressed record)
     */
    PerfRecord record(RawRecord r);
}
