package io.perfj.session;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;
import org.junit.jupiter.api.Test;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's "Using perfj as a library" example, taken from the README itself, compiled against
 * the module's exported packages only (when the tests run on the module path) and run on a
 * committed recording: it must print the recording's sample count and its hottest functions.
 */
class LibraryExampleTest {
    private static Path root() {
        String p = System.getProperty("perfj.fixtures");
        Path fixtures = Path.of(p != null ? p : "../fixtures").toAbsolutePath().normalize();
        return fixtures.getParent();
    }

    static String example() throws IOException {
        String readme = Files.readString(root().resolve("README.md"), StandardCharsets.UTF_8);
        int section = readme.indexOf("## Using perfj as a library");
        assertTrue(section >= 0, "README has no 'Using perfj as a library' section");
        Matcher m = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertTrue(m.find(section), "no java example in the library section");
        return m.group(1);
    }

    @Test
    void readmeExampleCompilesAgainstTheExportsAndRuns() throws Exception {
        String source = example();
        Matcher cls = Pattern.compile("public class (\\w+)").matcher(source);
        assertTrue(cls.find(), "the example declares no public class");
        String name = cls.group(1);
        Path dir = Files.createTempDirectory("perfj-example");
        Path file = dir.resolve(name + ".java");
        Files.writeString(file, source);

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "no compiler in this JDK");
        List<String> options = new ArrayList<>(List.of("-d", dir.toString(), "-Xlint:all", "-Werror"));
        // as a user of the module: perfj-core's classes (with module-info) and its dependencies
        // on the module path, so only what module-info exports is visible
        List<String> modulePath = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path p = Path.of(e);
            if (Files.isRegularFile(p.resolve("module-info.class")) || e.contains("zstd-jni") || e.contains("xz")) {
                modulePath.add(e);
            }
        }
        assertTrue(modulePath.stream().anyMatch(e -> Files.isRegularFile(Path.of(e, "module-info.class"))),
                "perfj-core's compiled module is not on the class path: " + modulePath);
        options.addAll(List.of("--module-path", String.join(java.io.File.pathSeparator, modulePath),
                "--add-modules", "io.perfj.core"));
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        try (var fm = javac.getStandardFileManager(diags, null, StandardCharsets.UTF_8)) {
            boolean ok = javac.getTask(null, fm, diags, options, null, fm.getJavaFileObjects(file)).call();
            assertTrue(ok, "the README example does not compile: " + diags.getDiagnostics());
        }

        Path recording = root().resolve("fixtures").resolve("c-fp.data");
        assertTrue(Files.isRegularFile(recording), "missing committed fixture " + recording);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
             PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            Method main = loader.loadClass(name).getMethod("main", String[].class);
            System.setOut(ps);
            main.invoke(null, (Object) new String[] {recording.toString()});
        } finally {
            System.setOut(saved);
        }
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(samples(recording) + " samples", lines[0]);
        assertTrue(lines.length >= 2 && lines.length <= 11, "ten functions at most: " + out);
        for (int i = 1; i < lines.length; i++) {
            assertTrue(lines[i].matches(" *\\d+  \\S.*"), "not 'period  name': " + lines[i]);
        }
    }

    /** Samples counted from the raw records, independently of the session. */
    private static long samples(Path recording) {
        long n = 0;
        try (PerfData data = PerfData.open(recording)) {
            RecordInput in = data.records();
            for (RawRecord r; (r = in.next()) != null; ) {
                if (r.type() == RecordType.SAMPLE) {
                    n++;
                }
            }
        }
        return n;
    }
}
