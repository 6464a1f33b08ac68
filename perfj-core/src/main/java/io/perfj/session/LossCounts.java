package io.perfj.session;

import io.perfj.perfdata.RecordType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a run read and what the kernel said it dropped, for the warnings perf prints at the end
 * of every run over a recording that lost events ({@code perf_session__warn_about_errors}):
 * LOST records ("lost N chunks", unless the tool printed them itself, as perf script
 * {@code --show-lost-events} does) and LOST_SAMPLES records dropping more than 5% of the samples.
 */
final class LossCounts {
    private long records;
    private long samples;
    private long lostRecords;
    private long lostSamples;

    /**
     * {@code n} records read, of this type (COMPRESSED records count, and so do the records in
     * them, as in perf).
     */
    void record(int type, int n) {
        records += n;
        if (type == RecordType.SAMPLE) {
            samples += n;
        } else if (type == RecordType.LOST) {
            lostRecords += n;
        }
    }

    /** A LOST_SAMPLES record's count of samples the kernel dropped. */
    void lostSamples(long n) {
        lostSamples += n;
    }

    /** perf's warnings for this run (empty when nothing was lost). */
    List<String> warnings(boolean lostRecordsShown) {
        List<String> out = new ArrayList<>(2);
        if (lostRecords != 0 && !lostRecordsShown) {
            out.add("Warning:\nProcessed " + records + " events and lost " + lostRecords
                    + " chunks!\n\nCheck IO/CPU overload!\n");
        }
        long all = samples + lostSamples;
        if (all > 0) {
            double rate = (double) lostSamples / all;
            if (rate > 0.05) {
                out.add("Warning:\nProcessed " + all + " samples and lost "
                        + String.format(Locale.ROOT, "%3.2f", rate * 100.0) + "%!\n");
            }
        }
        return out;
    }
}
