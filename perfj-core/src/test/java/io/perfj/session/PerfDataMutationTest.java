package io.perfj.session;

import io.perfj.perfdata.PerfData;
import io.perfj.print.HeaderPrinter;
import io.perfj.report.CallchainMode;
import io.perfj.testing.Fixtures;
import io.perfj.testing.MutationMain;
import io.perfj.testing.Mutants;
import io.perfj.testing.PerfDataSeeds;
import io.perfj.testing.Pipeline;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Damaged recordings, 10^5 of them, each read in memory the way a command reads it: the header
 * as perf report --header -I prints it, then one command in turn: the dump (-D with its stats),
 * the report (records decoded and ordered, the process model updated, samples resolved and
 * aggregated, entries and callchains printed), the report that reads samples in place
 * (--no-children -g none), the script output, or the resolved samples a library user iterates.
 * The seeds are the committed recordings with a few records of each type. A command may fail
 * only with a FormatException.
 */
class PerfDataMutationTest {
    private static final List<Consumer<PerfData>> COMMANDS = List.of(
            Pipeline::dump,
            d -> Pipeline.report(d, true),
            d -> Pipeline.report(d, false, CallchainMode.NONE),
            Pipeline::script,
            Pipeline::samples);

    static MutationMain.Job job() {
        List<Mutants.Seed> seeds = new ArrayList<>();
        for (String name : Fixtures.RECORDINGS) {
            Path f = Fixtures.dir().resolve(name + ".data");
            try {
                seeds.add(PerfDataSeeds.sampled(name, Files.readAllBytes(f), 3, 12));
            } catch (IOException e) {
                throw new UncheckedIOException("fixture " + f + " is missing", e);
            }
        }
        return new MutationMain.Job(new Mutants("perf.data", 0x5eed_0001L, seeds, 10_000), m -> {
            MemorySegment bytes = MemorySegment.ofArray(m.bytes());
            try (PerfData d = PerfData.of(bytes, m.seed().name())) {
                new HeaderPrinter(d, true, Instant.EPOCH, ZoneOffset.UTC).print(new PrintWriter(OutputStream.nullOutputStream()));
            }
            try (PerfData d = PerfData.of(bytes, m.seed().name())) {
                COMMANDS.get(m.index() % COMMANDS.size()).accept(d);
            }
        });
    }

    @Test
    void hundredThousandMutantsFailOnlyWithFormatException() {
        MutationMain.inChildJvm(PerfDataMutationTest.class, Mutants.count(100_000));
    }
}
