package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The manuals hold together: every relative link of README.md, docs/**.md and the fixtures' index
 * and pages names a file that exists, and a {@code #fragment} names a heading of that file (as
 * GitHub makes anchors of headings); the README and the architecture stay short enough to read.
 */
class DocsLinksTest {
    private static final int README_MAX = 25 * 1024;
    private static final int ARCHITECTURE_MAX = 30 * 1024;

    /** {@code [text](target)} and {@code ![alt](target)}; the target ends at a space or ')'. */
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```[^\\n]*$");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`\\n]*`");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} +(.+?) *#*$");

    private static Path root() {
        return Fixtures.dir().getParent();
    }

    @Test
    void everyRelativeLinkResolves() throws IOException {
        Path root = root();
        List<Path> docs = documents(root);
        assertTrue(docs.size() > 20, "found the documents: " + docs);
        List<String> dead = new ArrayList<>();
        for (Path doc : docs) {
            dead.addAll(deadLinks(root, doc));
        }
        assertEquals(List.of(), dead, "links to no file or no heading");
    }

    @Test
    void readmeAndArchitectureStayShort() throws IOException {
        long readme = Files.size(root().resolve("README.md"));
        long architecture = Files.size(root().resolve("docs/ARCHITECTURE.md"));
        assertTrue(readme <= README_MAX, "README.md is " + readme + " bytes, over " + README_MAX
                + ": move detail to a manual page under docs/");
        assertTrue(architecture <= ARCHITECTURE_MAX, "docs/ARCHITECTURE.md is " + architecture + " bytes, over "
                + ARCHITECTURE_MAX + ": move detail to docs/decisions/");
    }

    @Test
    void aDeadLinkIsCaught() throws IOException {
        Path dir = Files.createTempDirectory("perfj-docs");
        Files.writeString(dir.resolve("a.md"), "# A title\n\n[ok](b.md#b-heading) [self](#a-title) `[code](x.md)`\n"
                + "[gone](missing.md) [no anchor](b.md#nowhere)\n\n```\n[fenced](also-missing.md)\n```\n");
        Files.writeString(dir.resolve("b.md"), "## B heading\n");
        List<String> dead = deadLinks(dir, dir.resolve("a.md"));
        assertEquals(2, dead.size(), dead.toString());
        assertTrue(dead.get(0).contains("missing.md") && dead.get(1).contains("#nowhere"), dead.toString());
    }

    @Test
    void anchorsAreGitHubs() {
        assertEquals("default-mode-against-perf-72-make-perf72-goldenssh",
                anchor("Default mode against perf 7.2 (`make-perf72-goldens.sh`)"));
        assertEquals("perfs-children-of-inlined-frames", anchor("perf's children of inlined frames"));
        assertEquals("recordings-of-make-fixturessh-docsmake-fixturesmd",
                anchor("Recordings of `make-fixtures.sh`: [docs/make-fixtures.md](docs/make-fixtures.md)"));
    }

    private static List<Path> documents(Path root) throws IOException {
        List<Path> out = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("fixtures/README.md")));
        for (Path dir : List.of(root.resolve("docs"), root.resolve("fixtures/docs"))) {
            try (Stream<Path> s = Files.walk(dir)) {
                s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    private static List<String> deadLinks(Path root, Path doc) throws IOException {
        String text = Files.readString(doc);
        String prose = CODE_SPAN.matcher(FENCE.matcher(text).replaceAll("")).replaceAll("");
        List<String> dead = new ArrayList<>();
        Matcher m = LINK.matcher(prose);
        while (m.find()) {
            String target = m.group(1);
            if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                continue; // https:, mailto:
            }
            int hash = target.indexOf('#');
            String file = hash < 0 ? target : target.substring(0, hash);
            String fragment = hash < 0 ? null : target.substring(hash + 1);
            Path to = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
            String where = root.relativize(doc) + ": " + target;
            if (!to.startsWith(root) || !Files.exists(to)) {
                dead.add(where + " (no such file)");
            } else if (fragment != null && !fragment.isEmpty()
                    && (!Files.isRegularFile(to) || !anchors(Files.readString(to)).contains(fragment))) {
                dead.add(where + " (no such heading)");
            }
        }
        return dead;
    }

    /** The anchors GitHub gives a document's headings, a repeated one with -1, -2, ... */
    private static Set<String> anchors(String markdown) {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        Matcher h = HEADING.matcher(FENCE.matcher(markdown).replaceAll(""));
        while (h.find()) {
            String a = anchor(h.group(1));
            int n = seen.merge(a, 1, Integer::sum) - 1;
            out.add(n == 0 ? a : a + "-" + n);
        }
        return out;
    }

    /**
     * GitHub's rule, on the heading as rendered (a link is its text): lower case, punctuation other
     * than '-' and '_' dropped, spaces to '-'.
     */
    static String anchor(String heading) {
        String rendered = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
        StringBuilder b = new StringBuilder();
        for (char c : rendered.toLowerCase(Locale.ROOT).toCharArray()) {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                b.append(c);
            } else if (c == ' ') {
                b.append('-');
            }
        }
        return b.toString();
    }
}
