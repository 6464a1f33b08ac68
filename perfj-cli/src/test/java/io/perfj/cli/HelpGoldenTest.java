package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The help of every command and subcommand, and picocli's answers to wrong command lines
 * (unknown option or command, missing value or parameter, bad number), byte for byte with exit
 * codes: fixtures/golden/cli-help.txt holds what the annotation-built model printed, which the
 * programmatic model ({@link CommandModel}) must go on printing.
 */
class HelpGoldenTest {
    private record Case(String line, int rc, String out, String err) {
    }

    private static List<Case> cases() throws IOException {
        String text = Files.readString(Fixtures.goldenFile("cli-help.txt"), StandardCharsets.UTF_8);
        List<Case> cases = new ArrayList<>();
        for (String block : text.split("(?m)^### perfj ", -1)) {
            if (block.isEmpty()) {
                continue;
            }
            int nl = block.indexOf('\n');
            String line = block.substring(0, nl);
            int rcEnd = block.indexOf('\n', nl + 1);
            int rc = Integer.parseInt(block.substring(nl + 1 + "rc=".length(), rcEnd));
            int out = block.indexOf("--- out\n", rcEnd) + "--- out\n".length();
            int err = block.indexOf("--- err\n", out);
            cases.add(new Case(line, rc, block.substring(out, err), block.substring(err + "--- err\n".length())));
        }
        return cases;
    }

    @Test
    void everyCommandsHelpAndUsageErrorsAreUnchanged() throws IOException {
        List<Case> cases = cases();
        assertTrue(cases.size() >= 40, "golden has " + cases.size() + " cases");
        for (Case c : cases) {
            String[] args = c.line().isBlank() ? new String[0] : c.line().trim().split(" +");
            CliFixtures.Run r = CliFixtures.run(args);
            assertEquals(c.out(), r.out(), "stdout of perfj " + c.line());
            assertEquals(c.err(), r.err(), "stderr of perfj " + c.line());
            assertEquals(c.rc(), r.rc(), "exit code of perfj " + c.line());
        }
    }

    @Test
    void everyCommandAndSubcommandHasItsHelpPinned() throws IOException {
        List<String> lines = cases().stream().map(Case::line).toList();
        List<String> commands = new ArrayList<>(Main.SUBCOMMANDS.keySet());
        new BtfCommand().spec.subcommands().keySet().forEach(s -> commands.add("btf " + s));
        for (String c : commands) {
            assertTrue(lines.contains(c + " --help"), "no '" + c + " --help' in cli-help.txt");
        }
    }
}
