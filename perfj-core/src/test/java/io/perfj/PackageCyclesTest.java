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
 * The import graph of perfj-core's packages, read from the compiled classes: no two packages
 * import each other, directly or around a cycle, whether subpackages are counted on their own
 * ({@code io.perfj.dwarf.info}) or with their parent ({@code dwarf}); the file-format readers
 * import no model or view; and perf's quirks ({@code io.perfj.compat}) are imported by no
 * package of the library: the layers below own the strategy interfaces, compat implements them,
 * and the command line picks them.
 */
class PackageCyclesTest {
    /** Top-level packages (subpackages counted with their parent). */
    private static Map<String, Set<String>> graph;
    /** Every package on its own. */
    private static Map<String, Set<String>> packages;

    @BeforeAll
    static void read() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.perfj");
        graph = new TreeMap<>();
        packages = new TreeMap<>();
        for (JavaClass c : classes) {
            String from = top(c.getPackageName());
            if (from == null) {
                continue;
            }
            Set<String> to = graph.computeIfAbsent(from, k -> new TreeSet<>());
            Set<String> toPackage = packages.computeIfAbsent(c.getPackageName(), k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String pkg = d.getTargetClass().getPackageName();
                String target = top(pkg);
                if (target != null && !target.equals(from)) {
                    to.add(target);
                }
                if (target != null && !pkg.equals(c.getPackageName())) {
                    toPackage.add(pkg);
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
    void noPackagesImportEachOtherInACycle() {
        assertTrue(graph.size() > 15, "packages read: " + graph.keySet());
        assertEquals(List.of(), cycles(graph), "top-level packages that import each other in a cycle");
        assertEquals(List.of(), cycles(packages), "packages that import each other in a cycle");
    }

    @Test
    void nothingInTheLibraryImportsPerfsQuirks() {
        for (Map.Entry<String, Set<String>> e : graph.entrySet()) {
            if (!e.getKey().equals("compat")) {
                assertTrue(!e.getValue().contains("compat"), e.getKey() + " imports compat");
            }
        }
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
