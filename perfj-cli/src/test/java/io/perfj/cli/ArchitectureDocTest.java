package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/ARCHITECTURE.md draws the code as built: every class-like name it mentions (a CamelCase
 * word such as {@code MachineResolver} or {@code wire.TypeSection}) is a type declared in the
 * project's sources or a JDK class. A class renamed or deleted without the document following
 * fails here.
 */
class ArchitectureDocTest {
    /** CamelCase words with at least two humps: how the document names classes. */
    private static final Pattern NAME = Pattern.compile("\\b([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+)\\b");
    private static final Pattern DECLARED = Pattern.compile(
            "\\b(?:class|record|interface|enum)\\s+([A-Z][A-Za-z0-9]*)");
    /** Words of the document's prose that look like class names and are not. */
    private static final Set<String> NOT_CLASSES = Set.of("GiB", "MiB", "KiB", "TiB", "JavaScript");
    private static final String[] JDK_PACKAGES = {
            "java.lang.", "java.lang.foreign.", "java.lang.invoke.", "java.util.", "java.util.concurrent.",
            "java.util.concurrent.locks.", "java.util.zip.", "java.nio.", "java.nio.channels.",
            "java.nio.file.", "java.io.", "java.lang.classfile."};

    @Test
    void everyClassTheArchitectureNamesExists() throws IOException {
        Path root = Fixtures.dir().getParent();
        Set<String> declared = declaredTypes(root);
        assertTrue(declared.size() > 300, "found the sources: " + declared.size());
        String doc = Files.readString(root.resolve("docs/ARCHITECTURE.md"));
        Set<String> missing = new TreeSet<>();
        Matcher m = NAME.matcher(doc);
        while (m.find()) {
            String n = m.group(1);
            if (!declared.contains(n) && !NOT_CLASSES.contains(n) && !isJdkClass(n)) {
                missing.add(n);
            }
        }
        assertEquals(Set.of(), missing, "names in docs/ARCHITECTURE.md that are no class of the project or the JDK");
    }

    @Test
    void aRemovedClassIsCaught() throws IOException {
        Set<String> declared = declaredTypes(Fixtures.dir().getParent());
        assertTrue(declared.contains("Session") && declared.contains("MachineResolver"));
        assertTrue(!declared.contains("RecordStream") && !isJdkClass("RecordStream"));
    }

    private static final Pattern PROTO_DECLARED =
            Pattern.compile("(?m)^(?:option java_outer_classname = \"|message )([A-Za-z0-9_]+)");

    private static Set<String> declaredTypes(Path root) throws IOException {
        Set<String> out = new TreeSet<>();
        for (String module : new String[] {"perfj-core", "perfj-cli", "perfj-fleet"}) {
            try (Stream<Path> s = Files.walk(root.resolve(module).resolve("src"))) {
                for (Path p : (Iterable<Path>) s.filter(f -> f.toString().endsWith(".java")
                        || f.toString().endsWith(".proto"))::iterator) {
                    // protoc's classes: the outer class and one per message of a .proto file
                    Matcher m = (p.toString().endsWith(".proto") ? PROTO_DECLARED : DECLARED).matcher(Files.readString(p));
                    while (m.find()) {
                        out.add(m.group(1));
                    }
                }
            }
        }
        return out;
    }

    private static boolean isJdkClass(String simpleName) {
        for (String pkg : JDK_PACKAGES) {
            try {
                Class.forName(pkg + simpleName, false, ClassLoader.getPlatformClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                // not in this package
            }
        }
        return false;
    }
}
