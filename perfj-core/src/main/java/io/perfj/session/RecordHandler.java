package io.perfj.session;

import io.perfj.perfdata.record.PerfRecord;

/**
 * What consumes a {@link Session}'s records. The session delivers every record in perf's order
 * (its ordered-events rules) and keeps the process model current: a sample is handed over after
 * every record before it has updated the model, so resolving its addresses gives the answer of
 * that moment. Every method is called on the thread that called {@link Session#run}, one record
 * at a time, whatever the session does on its other threads.
 */
public interface RecordHandler {
    /** A sample; {@code s} is valid only during the call. */
    void sample(SampleRef s);

    /** Any other record, before the process model has seen it. */
    default void beforeModel(PerfRecord r) {
    }

    /** Any other record, after the process model has seen it. */
    default void record(PerfRecord r) {
    }

    /**
     * Whether most samples will be decoded whole ({@link SampleRef#sample()}: callchains, stacks);
     * the session then decodes records on a second thread ahead of the handler. Handlers that
     * read only a sample's fixed fields return false, and the mapped recording is read in place.
     */
    default boolean decodesSamples() {
        return true;
    }

    /**
     * Whether the handler unwinds the user stacks of {@code --call-graph dwarf} samples
     * ({@link FrameResolver#unwindUser}); the session then unwinds them on its second thread,
     * ahead of the handler, and {@code unwindUser} hands over those frames (the same ones). By
     * default, handlers that decode samples do.
     */
    default boolean unwindsUserStacks() {
        return decodesSamples();
    }

    /**
     * Whether the handler names the functions inlined at callchain addresses ({@link
     * MachineResolver#withInlines}, and {@link MachineResolver#withRecordedInlines} where the
     * session's {@link RecordedInlines} names them); the session then asks addr2line for them on
     * its second thread as it decodes and unwinds. A handler that shows no inlined frames (report
     * {@code --no-inline}, a report without callchains) returns false, and no addr2line is
     * started for them.
     */
    default boolean namesInlinedFrames() {
        return unwindsUserStacks();
    }

    /**
     * Whether the handler prints the LOST records itself (perf script {@code --show-lost-events}):
     * the session's warnings then leave out perf's "lost N chunks".
     */
    default boolean showsLostRecords() {
        return false;
    }

    /**
     * Whether the records come as stored instead of in perf's order (perf script
     * {@code --show-round-events} turns perf's ordered-events queue off).
     */
    default boolean inFileOrder() {
        return false;
    }

    /**
     * Whether the session may load the symbol tables of the objects the recording lists as hit
     * (its build-id table) on a second thread once samples start, ahead of the lookups. Handlers
     * that load tables selectively (annotate with symbol names) return false.
     */
    default boolean preloadsSymbols() {
        return true;
    }
}
