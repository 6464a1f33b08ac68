package io.perfj.profile;

import io.perfj.symbols.Symbol;
import io.perfj.util.LongIntMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The samples of a profile merged into one call tree, root first, as a flame graph draws it:
 * a node is a function called along one path, children merged by function (its name and
 * object; a frame without a symbol is its object, {@code [name]}), with the weight of the
 * samples that end there ({@link #self}) and that pass through ({@link #total}). Node 0 is the
 * root ("all"); every other node's parent has a smaller id.
 */
public final class FlameTree {
    /** A function as the tree merges frames: its name and the object it is in (null: none). */
    public record Function(String name, String object, boolean kernel, boolean inlined) {
        /** The function a frame belongs to, by the rule the tree merges frames with. */
        public static Function of(Frame f) {
            Symbol sym = f.sym();
            String object = f.dso() == null ? null : f.dso().shortName();
            String name = sym != null ? sym.name()
                    : object == null ? "[unknown]" : object.startsWith("[") ? object : "[" + object + "]";
            return new Function(name, object, f.level() == 'k', sym != null && sym.inlined());
        }
    }

    private final List<Function> functions = new ArrayList<>();
    private int[] parent = new int[1024];
    private int[] function = new int[1024];
    private long[] self = new long[1024];
    private long[] total = new long[1024];
    /** The second recording's weights, for a tree of two (null otherwise). */
    private long[] self2;
    private long[] total2;
    private final Map<String, Integer> functionIds = new HashMap<>();
    private int[] depth = new int[1024];
    private int size;
    private final Map<Long, Integer> children = new HashMap<>();

    private FlameTree() {
        add(-1, -1);
    }

    /**
     * The tree of the profile's samples that {@code keep} accepts (by sample index), each
     * sample's command name as the first level under the root (as flamegraph.pl draws folded
     * stacks), or without it.
     */
    public static FlameTree of(Profile p, IntPredicate keep, boolean byCommand) {
        FlameTree t = new FlameTree();
        t.add(p, keep, byCommand, false);
        t.sum();
        return t;
    }

    /**
     * Two recordings in one tree, as FlameGraph's difffolded.pl pairs their folded stacks: every
     * path of either, with the first one's weights ({@link #self}, {@link #total}) and the
     * second one's ({@link #self2}, {@link #total2}); a path only one of them has weighs 0 in
     * the other.
     */
    public static FlameTree diff(Profile a, IntPredicate keepA, Profile b, IntPredicate keepB, boolean byCommand) {
        FlameTree t = new FlameTree();
        t.self2 = new long[t.self.length];
        t.add(a, keepA, byCommand, false);
        t.add(b, keepB, byCommand, true);
        t.sum();
        return t;
    }

    private void add(Profile p, IntPredicate keep, boolean byCommand, boolean second) {
        FlameTree t = this;
        int[] frameFunction = new int[p.frames().size()];
        Arrays.fill(frameFunction, -1);
        int[] threadNode = new int[p.threadCount()];
        Arrays.fill(threadNode, -1);
        // (node of the stack's first level, stack) -> node
        LongIntMap stackNode = new LongIntMap(1 << 12);
        StackTable stacks = p.stacks();
        int[] path = new int[64];
        for (int i = 0; i < p.sampleCount(); i++) {
            if (!keep.test(i)) {
                continue;
            }
            int base = 0;
            if (byCommand) {
                int th = p.thread(i);
                if (threadNode[th] < 0) {
                    threadNode[th] = t.child(0, t.commFunction(p.comm(th)));
                }
                base = threadNode[th];
            }
            long hi = (long) base << 32;
            int stack = p.stack(i);
            int node = stack == StackTable.EMPTY ? base : stackNode.get(hi | stack, -1);
            if (node < 0) {
                // the stack's nodes from its deepest known prefix down
                int n = 0;
                int s = stack;
                int known = -1;
                while (s != StackTable.EMPTY && (known = stackNode.get(hi | s, -1)) < 0) {
                    if (n == path.length) {
                        path = Arrays.copyOf(path, n * 2);
                    }
                    path[n++] = s;
                    s = stacks.parent(s);
                }
                node = s == StackTable.EMPTY ? base : known;
                for (int k = n - 1; k >= 0; k--) {
                    int frame = stacks.frame(path[k]);
                    int fn = frameFunction[frame];
                    if (fn < 0) {
                        fn = t.function(p.frames().get(frame), t.functionIds);
                        frameFunction[frame] = fn;
                    }
                    node = t.child(node, fn);
                    stackNode.put(hi | path[k], node);
                }
            }
            (second ? t.self2 : t.self)[node] += p.weight(i);
        }
    }

    private void sum() {
        total = new long[self.length];
        for (int n = size - 1; n >= 0; n--) {
            total[n] += self[n];
            if (n > 0) {
                total[parent[n]] += total[n];
            }
        }
        if (self2 != null) {
            total2 = new long[self2.length];
            for (int n = size - 1; n >= 0; n--) {
                total2[n] += self2[n];
                if (n > 0) {
                    total2[parent[n]] += total2[n];
                }
            }
        }
    }


    /** The function of a command's level under the root. */
    private int commFunction(String comm) {
        Integer fn = functionIds.get("\0comm\0" + comm);
        if (fn == null) {
            fn = functions.size();
            functions.add(new Function(comm, null, false, false));
            functionIds.put("\0comm\0" + comm, fn);
        }
        return fn;
    }

    private int function(Frame f, Map<String, Integer> ids) {
        return function(Function.of(f), ids);
    }

    private int function(Function fn, Map<String, Integer> ids) {
        String key = fn.name() + '\0' + fn.object() + '\0' + fn.kernel() + fn.inlined();
        Integer id = ids.get(key);
        if (id == null) {
            id = functions.size();
            functions.add(fn);
            ids.put(key, id);
        }
        return id;
    }

    private int child(int node, int fn) {
        long key = ((long) node << 32) | fn;
        Integer c = children.get(key);
        if (c == null) {
            c = add(node, fn);
            children.put(key, c);
        }
        return c;
    }

    private int add(int parentNode, int fn) {
        if (size == parent.length) {
            int cap = size * 2;
            parent = Arrays.copyOf(parent, cap);
            function = Arrays.copyOf(function, cap);
            self = Arrays.copyOf(self, cap);
            total = Arrays.copyOf(total, cap);
            depth = Arrays.copyOf(depth, cap);
            if (self2 != null) {
                self2 = Arrays.copyOf(self2, cap);
            }
        }
        parent[size] = parentNode;
        function[size] = fn;
        depth[size] = parentNode < 0 ? 0 : depth[parentNode] + 1;
        return size++;
    }

    public int size() {
        return size;
    }

    /** The node's parent (-1 for the root). */
    public int parent(int node) {
        return parent[node];
    }

    /** The node's function (null for the root). */
    public Function function(int node) {
        return node == 0 ? null : functions.get(function[node]);
    }

    /** The index of the node's function among the tree's functions (-1 for the root). */
    public int functionIndex(int node) {
        return node == 0 ? -1 : function[node];
    }

    /** The tree's function with this {@link #functionIndex}. */
    public Function functionAt(int index) {
        return functions.get(index);
    }

    /** How many functions the tree's nodes name. */
    public int functionCount() {
        return functions.size();
    }

    /** Distance from the root (0 for the root). */
    public int depth(int node) {
        return depth[node];
    }

    public long self(int node) {
        return self[node];
    }

    public long total(int node) {
        return total[node];
    }

    /** Whether the tree holds two recordings ({@link #diff}). */
    public boolean paired() {
        return self2 != null;
    }

    /** The second recording's weight ending at the node (0 unless {@link #paired}). */
    public long self2(int node) {
        return self2 == null ? 0 : self2[node];
    }

    /** The second recording's weight through the node (0 unless {@link #paired}). */
    public long total2(int node) {
        return total2 == null ? 0 : total2[node];
    }

    /** Children of every node, each list sorted by function name (as flamegraph.pl orders them). */
    public int[][] children() {
        int[] counts = new int[size];
        for (int n = 1; n < size; n++) {
            counts[parent[n]]++;
        }
        int[][] out = new int[size][];
        for (int n = 0; n < size; n++) {
            out[n] = new int[counts[n]];
        }
        int[] fill = new int[size];
        for (int n = 1; n < size; n++) {
            out[parent[n]][fill[parent[n]]++] = n;
        }
        for (int[] c : out) {
            if (c.length > 1) {
                Integer[] boxed = Arrays.stream(c).boxed().toArray(Integer[]::new);
                Arrays.sort(boxed, (a, b) -> {
                    int k = function(a).name().compareTo(function(b).name());
                    return k != 0 ? k : Integer.compare(a, b);
                });
                for (int i = 0; i < c.length; i++) {
                    c[i] = boxed[i];
                }
            }
        }
        return out;
    }
}
