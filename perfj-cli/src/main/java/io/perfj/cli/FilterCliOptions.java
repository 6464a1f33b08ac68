package io.perfj.cli;

import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.SampleFormat;
import io.perfj.report.SampleFilter;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** perf report's sample filters, for every command that aggregates samples (report, export). */
final class FilterCliOptions {
    List<String> comms;
    List<String> dsos;
    List<String> symbols;
    List<Integer> pids;
    List<Integer> tids;
    String cpus;

    /** Adds these options to a command's model. */
    void declare(CommandModel m) {
        m.option("-c", "--comms").label("LIST").split(",").describe("Only these commands.")
                .list(String.class, v -> comms = v);
        m.option("-d", "--dsos").label("LIST").split(",").describe("Only these DSOs.")
                .list(String.class, v -> dsos = v);
        m.option("-S", "--symbols").label("LIST").split(",").describe("Only these symbols.")
                .list(String.class, v -> symbols = v);
        m.option("--pid").label("LIST").split(",").describe("Only these process ids.")
                .list(Integer.class, v -> pids = v);
        m.option("--tid").label("LIST").split(",").describe("Only these thread ids.")
                .list(Integer.class, v -> tids = v);
        m.option("-C", "--cpu").label("LIST").describe("Only these CPUs (e.g. 0-3,5).")
                .value(String.class, v -> cpus = v);
    }

    /** The filter for {@code data}; -C on a recording without CPUs fails as perf's does. */
    SampleFilter filter(PerfData data) {
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
        return new SampleFilter(set(comms), set(dsos), set(symbols), set(pids), set(tids), cpuList(cpus));
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
