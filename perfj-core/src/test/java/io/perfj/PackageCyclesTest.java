package io.perfj;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The import graph of perfj-core's packages ({@code io.perfj.X}, subpackages counted with X),
 * read from the compiled classes: the packages that import each other in a cycle may only be
 * those still being taken apart into layers (file formats; the process model and the session;
 * the profile; the views; the system calls; the command line). The set only shrinks: a package
 * that joins the cycle, or an arrow that ties two cycles into one, fails here; when a package
 * leaves it, take it out of {@link #STILL_IN_CYCLE}. The goal is an empty set.
 */
class PackageCyclesTest {
    /**
     * The packages of the one cycle left. The profile sits on the session and under report and
     * compat, so it is in the cycle while the session imports report and compat.
     */
    private static final Set<String> STILL_IN_CYCLE = Set.of(
            "annotate", "bpf", "btf", "compat", "dwarf", "print", "profile", "report", "session", "symbols");

    private static Map<String, Set<String>> graph;

    @BeforeAll
    static void read() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.perfj");
        graph = new TreeMap<>();
        for (JavaClass c : classes) {
            String from = top(c.getPackageName());
            if (from == null) {
                continue;
            }
            Set<String> to = graph.computeIfAbsent(from, k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String target = top(d.getTargetClass().getPackageName());
                if (target != null && !target.equals(from)) {
                    to.add(target);
                }
            }
        }
    }

    /** {@code io.perfj.report.x} → {@code report}; null outside perfj-core's packages. */
    private static String top(String pkg) {
        if (!pkg.startsWith("io.perfj.")) {
            return null;
        }
        String rest = pkg.substring("io.perfj.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    @Test
    void onlyThePackagesBeingTakenApartFormACycle() {
        assertTrue(graph.size() > 15, "packages read: " + graph.keySet());
        List<Set<String>> cycles = cycles(graph);
        List<Set<String>> expected = STILL_IN_CYCLE.isEmpty() ? List.of() : List.of(new TreeSet<>(STILL_IN_CYCLE));
        assertEquals(expected, cycles, "packages that import each other in a cycle");
    }

    @Test
    void theFormatReadersImportNoModelOrView() {
        // the bottom layer of the design: these read files and know nothing of what uses them
        Set<String> readers = Set.of("io", "util", "elf", "jit", "trace", "intelpt", "perfdata");
        for (String r : readers) {
            for (String to : graph.getOrDefault(r, Set.of())) {
                assertTrue(readers.contains(to), r + " imports " + to);
            }
        }
    }

    /** The strongly connected components of more than one package (Tarjan's algorithm). */
    static List<Set<String>> cycles(Map<String, Set<String>> g) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> out = new ArrayList<>();
        int[] next = {0};
        for (String v : g.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, g, index, low, stack, onStack, out, next);
            }
        }
        return out;
    }

    private static void connect(String v, Map<String, Set<String>> g, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
                                List<Set<String>> out, int[] next) {
        index.put(v, next[0]);
        low.put(v, next[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : g.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, g, index, low, stack, onStack, out, next);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                out.add(component);
            }
        }
    }

    @Test
    void cyclesAreFoundAndOnlyThem() {
        Map<String, Set<String>> g = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a", "d"),
                "d", Set.of("e"), "e", Set.of());
        assertEquals(List.of(Set.of("a", "b", "c")), cycles(new TreeMap<>(g)));
        assertEquals(List.of(), cycles(new TreeMap<>(Map.of("a", Set.of("b"), "b", Set.of()))));
    }
}
