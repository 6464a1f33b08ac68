package io.perfj.cli;

import io.perfj.testing.Fixtures;

import io.perfj.testing.BuildIdCacheFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pre-picocli path ({@link AnnotateCommand#fast}) prints what the picocli command prints, or steps aside. */
class AnnotateFastPathTest {
    static CliFixtures.Run fast(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = AnnotateCommand.fast(args, out, new PrintWriter(err));
        return new CliFixtures.Run(rc, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    private static String[] withInput(String... rest) {
        List<String> a = new ArrayList<>(List.of("annotate", "-i", Fixtures.recording("c-fp").toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files"));
        a.addAll(List.of(rest));
        return a.toArray(String[]::new);
    }

    @Test
    void sameAsTheCommandForEveryForm(@TempDir Path tmp) {
        String[][] forms = {
            withInput("compute_a"),
            withInput("--stdio", "leaf_mix", "--hide-src"),
            withInput("--stdio2", "--show-offsets", "--asm-raw", "-s", "compute_a"),
            withInput("--no-source", "compute_a", "leaf_mix"),
            withInput("--", "compute_a"),
            withInput("no_such_symbol"),
            {"annotate", "--input", tmp.resolve("missing.data").toString(), "x"},
        };
        for (String[] args : forms) {
            CliFixtures.Run f = fast(args);
            CliFixtures.Run p = CliFixtures.run(args);
            String what = String.join(" ", args);
            assertTrue(f.rc() >= 0, what);
            assertEquals(p.rc(), f.rc(), what);
            assertEquals(p.out(), f.out(), what);
            assertEquals(p.err(), f.err(), what);
        }
        assertTrue(fast(forms[0]).out().contains("compute_a"));
    }

    @Test
    void anythingElseGoesThroughPicocli() {
        String[][] others = {
            {"report", "-i", "x"},
            {"annotate", "--help"},
            {"annotate", "-i"},
            {"annotate", "--debug", "x"},
            {"annotate", "--input=x", "y"},
            {"annotate", "--percent-type", "global-hits", "x"},
            {"annotate", "--stdio", "--stdio2", "x"},
            {"annotate", "-n", "x"},
        };
        for (String[] args : others) {
            assertEquals(-1, fast(args).rc(), String.join(" ", args));
        }
    }
}
