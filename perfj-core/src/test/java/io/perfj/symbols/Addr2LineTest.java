package io.perfj.symbols;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * {@link Addr2Line}'s protocol with the process and its questions asked ahead, against a stand-in
 * for {@code addr2line -f -i -a} (a shell script answering every address with two functions, and
 * with {@code ??} for 0x99) so that the test needs no binutils and knows every answer.
 */
class Addr2LineTest {
    @TempDir
    Path dir;

    private Path tool(String body) throws Exception {
        Path t = dir.resolve("fake-addr2line");
        Files.writeString(t, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rwx------"));
        return t;
    }

    private static final String ANSWERS = """
            while read a; do
              echo "$a"
              case "$a" in
                0xffffffffffffffff|0x99) echo '??'; echo '??:0' ;;
                *) echo "inl_$a"; echo 'a.c:1'; echo "outer_$a"; echo 'a.c:2' ;;
              esac
            done
            """;

    @Test
    void answersAskedAheadComeBackInOrder() throws Exception {
        Path file = Files.writeString(dir.resolve("obj"), "x");
        try (Addr2Line a = new Addr2Line(tool(ANSWERS).toString())) {
            for (long v = 0x1000; v < 0x1000 + 500; v++) {
                a.prefetch(file, v);
            }
            a.flush();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                for (long v = 0x1000 + 499; v >= 0x1000; v--) {
                    String h = "0x" + Long.toHexString(v);
                    assertEquals(List.of("inl_" + h, "outer_" + h), a.functions(file, v));
                }
                // asked without a prefetch, unknown, and asked twice
                assertEquals(List.of("inl_0x5", "outer_0x5"), a.functions(file, 5));
                assertEquals(List.of(), a.functions(file, 0x99));
                assertEquals(List.of("inl_0x1000", "outer_0x1000"), a.functions(file, 0x1000));
            });
        }
    }

    @Test
    void aProcessThatDiesAnswersNothingAndNoQuestionHangs() throws Exception {
        Path file = Files.writeString(dir.resolve("obj"), "x");
        try (Addr2Line a = new Addr2Line(tool("read a\nexit 0\n").toString())) {
            for (long v = 1; v <= 50; v++) {
                a.prefetch(file, v);
            }
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                for (long v = 1; v <= 50; v++) {
                    assertEquals(List.of(), a.functions(file, v));
                }
                assertEquals(List.of(), a.functions(file, 1000));
            });
        }
    }

    @Test
    void closedItStartsNothingAheadButStillAnswers() throws Exception {
        Path file = Files.writeString(dir.resolve("obj"), "x");
        Addr2Line a = new Addr2Line(tool(ANSWERS).toString());
        a.close();
        a.prefetch(file, 7);
        a.flush();
        assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> assertEquals(List.of("inl_0x7", "outer_0x7"), a.functions(file, 7)));
        a.close();
    }

    @Test
    void aMissingFileOrToolIsNoInlineExpansion() throws Exception {
        try (Addr2Line a = new Addr2Line(tool(ANSWERS).toString())) {
            assertEquals(List.of(), a.functions(dir.resolve("absent"), 1));
        }
        Path file = Files.writeString(dir.resolve("obj"), "x");
        try (Addr2Line a = new Addr2Line(dir.resolve("no-such-tool").toString())) {
            a.prefetch(file, 1);
            assertEquals(List.of(), a.functions(file, 1));
        }
    }

    /** Each function comes with perf's text of its line: the file without directories, the number alone. */
    @Test
    void levelsCarryEachFunctionsLine() throws Exception {
        Path file = Files.writeString(dir.resolve("obj"), "x");
        String body = """
                while read a; do
                  echo "$a"
                  case "$a" in
                    0xffffffffffffffff) echo '??'; echo '??:0' ;;
                    *) echo mix; echo '/src/lib/mix.h:6'; echo churn; echo './src/srcline.c:14 (discriminator 2)'
                       echo main; echo 'main.c:?' ;;
                  esac
                done
                """;
        try (Addr2Line a = new Addr2Line(tool(body).toString())) {
            assertEquals(List.of(new Addr2Line.Level("mix", "mix.h:6"), new Addr2Line.Level("churn", "srcline.c:14"),
                    new Addr2Line.Level("main", "main.c:0")), a.levels(file, 0x10));
            assertEquals(List.of("mix", "churn", "main"), a.functions(file, 0x10));
        }
    }
}
