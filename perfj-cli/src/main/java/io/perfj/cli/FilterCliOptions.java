package io.perfj.cli;

import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.SampleFormat;
import io.perfj.profile.SampleFilter;
import io.perfj.report.SampleSelection;
import io.perfj.report.TimeRanges;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The sample filters perf report and perf script share (--comms, --pid, --tid, --symbols, --cpu,
 * --time; report and export also --dsos), declared once for every command that has them.
 */
final class FilterCliOptions {
    String time;
    List<String> comms;
    List<String> dsos;
    List<String> symbols;
    List<Integer> pids;
    List<Integer> tids;
    String cpus;

    /** Adds these options to a command's model. */
    void declare(CommandModel m) {
        declare(m, true);
    }

    /** Adds these options to a command's model; {@code withDsos}: also -d/--dsos (not perf script's). */
    void declare(CommandModel m, boolean withDsos) {
        m.option("-c", "--comms").label("LIST").split(",").describe("Only these commands.")
                .list(String.class, v -> comms = v);
        if (withDsos) {
            m.option("-d", "--dsos").label("LIST").split(",").describe("Only these DSOs.")
                    .list(String.class, v -> dsos = v);
        }
        m.option("-S", "--symbols").label("LIST").split(",").describe("Only these symbols.")
                .list(String.class, v -> symbols = v);
        m.option("--pid").label("LIST").split(",").describe("Only these process ids.")
                .list(Integer.class, v -> pids = v);
        m.option("--tid").label("LIST").split(",").describe("Only these thread ids.")
                .list(Integer.class, v -> tids = v);
        m.option("-C", "--cpu").label("LIST").describe("Only these CPUs (e.g. 0-3,5).")
                .value(String.class, v -> cpus = v);
        m.option("--time").label("RANGES")
                .describe("Only samples in these time ranges: START,STOP in seconds (either may be empty), "
                        + "several separated by spaces, or percentages: A%%/N (the N-th A%% slice), A%%-B%%, "
                        + "several separated by commas.")
                .value(String.class, v -> time = v);
    }

    /**
     * The samples read at all (--cpu, --time): perf drops the others before counting anything.
     * -C on a recording without CPUs fails as perf's does; a bad --time fails with perf's words.
     */
    /** Whether any filter or selection was given. */
    boolean given() {
        return time != null || comms != null || dsos != null || symbols != null || pids != null || tids != null
                || cpus != null;
    }

    SampleSelection selection(PerfData data) {
        checkCpus(data);
        TimeRanges t = null;
        if (time != null) {
            long first = 0;
            long last = 0;
            io.perfj.io.Bytes payload = data.features().get(io.perfj.perfdata.FeatureId.SAMPLE_TIME);
            if (payload != null && io.perfj.perfdata.feature.Features.decode(io.perfj.perfdata.FeatureId.SAMPLE_TIME,
                    payload, data) instanceof io.perfj.perfdata.feature.Feature.SampleTime st) {
                first = st.first();
                last = st.last();
            }
            try {
                t = TimeRanges.parse(time, first, last);
            } catch (IllegalArgumentException e) {
                throw new CliError(e.getMessage());
            }
        }
        return new SampleSelection(cpuList(cpus), t);
    }

    /** The filter for {@code data}; -C on a recording without CPUs fails as perf's does. */
    SampleFilter filter(PerfData data) {
        checkCpus(data);
        return new SampleFilter(set(comms), set(dsos), set(symbols), set(pids), set(tids), cpuList(cpus));
    }

    private void checkCpus(PerfData data) {
        if (cpus != null && !data.isPipe()) {
            boolean cpu = false;
            for (Evsel e : data.evlist().evsels()) {
                cpu |= (e.attr().sampleType() & SampleFormat.CPU) != 0;
            }
            if (!cpu) {
                // perf's words (perf report -C on such a file fails the same way)
                throw new CliError(data.name() + " does not contain CPU events (no PERF_SAMPLE_CPU); remove -C/--cpu");
            }
        }
    }

    private static <T> Set<T> set(List<T> l) {
        return l == null ? null : new LinkedHashSet<>(l);
    }

    static Set<Integer> cpuList(String spec) {
        if (spec == null) {
            return null;
        }
        Set<Integer> out = new LinkedHashSet<>();
        for (String part : spec.split(",")) {
            String p = part.trim();
            int dash = p.indexOf('-');
            if (dash > 0) {
                int a = Integer.parseInt(p.substring(0, dash));
                int b = Integer.parseInt(p.substring(dash + 1));
                for (int c = a; c <= b; c++) {
                    out.add(c);
                }
            } else if (!p.isEmpty()) {
                out.add(Integer.parseInt(p));
            }
        }
        return out;
    }
}
