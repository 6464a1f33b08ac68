package io.perfj.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs a mutation job (a test class's static {@code job()}) in a child JVM: the JIT's first tier
 * only (the mutants take a different path every few calls, and the second tier spent more
 * processor time compiling than the mutants took to run), a heap of its own, so that a mutant
 * that exhausts memory cannot take the test JVM with it.
 */
public final class MutationMain {
    private MutationMain() {
    }

    /** The mutants of one format and what to do with each. */
    public record Job(Mutants mutants, Consumer<Mutants.Mutant> exercise) {
    }

    /** How long a whole run may take. */
    private static final long RUN_SECONDS = 900;

    /**
     * Runs {@code count} mutants of {@code owner.job()} in a child JVM and fails with what the
     * child reported when any mutant failed; returns the child's summary line.
     */
    public static String inChildJvm(Class<?> owner, int count) {
        List<String> opts = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx1g",
                "-Xss8m", "-Dperfj.mutants=" + count));
        for (String p : List.of("perfj.fixtures", "perfj.mutant")) {
            String v = System.getProperty(p);
            if (v != null) {
                opts.add("-D" + p + "=" + v);
            }
        }
        ChildJvm.Result r = ChildJvm.run(opts, MutationMain.class, RUN_SECONDS, owner.getName());
        System.out.print(r.output());
        assertEquals(0, r.exit(), r.output());
        String last = r.output().strip().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith(owner.getSimpleName() + ": "), r.output());
        return last;
    }

    /** {@code MutationMain CLASS}: runs that class's job with {@code -Dperfj.mutants} mutants. */
    public static void main(String[] args) throws ReflectiveOperationException {
        Class<?> owner = Class.forName(args[0]);
        var m = owner.getDeclaredMethod("job");
        m.setAccessible(true);
        Job job = (Job) m.invoke(null);
        try {
            Mutants.Outcome o = job.mutants().run(Mutants.count(100_000), job.exercise());
            System.out.println(owner.getSimpleName() + ": " + o);
            System.exit(0);
        } catch (AssertionError e) {
            System.out.println(e.getMessage());
            System.exit(1);
        }
    }
}
