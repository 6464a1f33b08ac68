package io.perfj.report;

import io.perfj.profile.Frame;
import io.perfj.profile.FrameTable;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * perf's stdio callchain views (ui/stdio/hist.c): the graph with its "|" rails and
 * "--NN.NN%--" branch labels, where runs of frames with a single continuation and no chain
 * ending inside print as one block; the fractal view (percentages of the parent); flat (one block
 * per chain end, root first); folded (one "a;b;c" line per chain end).
 */
final class CallchainGraph {
    private static final String MARGIN = "            ";

    private final FrameTable frames;
    private final ReportOptions opts;
    private final long minHit;
    private final PrintWriter out;
    /** What a branch shows ({@code -g}'s value field). */
    private final CallchainValue shown;
    /** At most this many branches under a node, chain ends in the flat and folded views (0: all). */
    private final int printLimit;

    /**
     * perf's order among children with equal period: its children tree puts a new node left of
     * every smaller one by the callchain key's comparison, so ties come out with the larger key
     * first. The function key compares names when either node is an inlined function, else
     * DSOs, then symbol starts or addresses; the address key DSOs, then addresses (inlined
     * functions too); the srcline key the lines' texts, a node without one (an address in no
     * object) before the others, two without one as the function key.
     */
    private final java.util.Comparator<CallchainNode> ties;

    /** What a frame's name prints as (perf 6.1's buffer cuts long ones under --compat). */
    private final UnaryOperator<String> buffer;

    CallchainGraph(FrameTable frames, ReportOptions opts, long minHit, UnaryOperator<String> buffer, PrintWriter out) {
        this.buffer = buffer;
        java.util.Comparator<CallchainNode> byDso = java.util.Comparator.<CallchainNode>comparingLong(n -> {
            Frame f = frames.get(n.frame());
            return f.dso() == null ? Long.MIN_VALUE : f.dso().ordinal();
        }).reversed();
        java.util.Comparator<CallchainNode> byPlace = byDso.thenComparing(
                (a, b) -> Long.compareUnsigned(start(frames.get(b.frame())), start(frames.get(a.frame()))));
        java.util.Comparator<CallchainNode> byFunction = (a, b) -> {
            Frame fa = frames.get(a.frame());
            Frame fb = frames.get(b.frame());
            if (inlined(fa) || inlined(fb)) {
                return fa.sym() != null && fb.sym() != null ? fb.sym().name().compareTo(fa.sym().name()) : 0;
            }
            return byPlace.compare(a, b);
        };
        ReportView v = opts.view() == null ? ReportView.DEFAULT : opts.view();
        this.ties = switch (v.chainKey()) {
            case FUNCTION -> byFunction;
            case ADDRESS -> byDso.thenComparing(
                    (a, b) -> Long.compareUnsigned(frames.address(b.frame()), frames.address(a.frame())));
            case SRCLINE -> (a, b) -> {
                String la = frames.line(a.frame());
                String lb = frames.line(b.frame());
                if (la == null || lb == null) {
                    return la != null ? 1 : lb != null ? -1 : byFunction.compare(a, b);
                }
                return lb.compareTo(la);
            };
        };
        this.frames = frames;
        this.opts = opts;
        this.minHit = minHit;
        this.out = out;
        this.shown = v.chainValue();
        this.printLimit = v.printLimit();
    }

    /** A path-compressed node: consecutive frames printed as one block. */
    private record Block(List<CallchainNode> run) {
        CallchainNode last() {
            return run.getLast();
        }

        long cumul() {
            return run.getFirst().cumul();
        }
    }

    private Block block(CallchainNode start) {
        List<CallchainNode> run = new ArrayList<>();
        CallchainNode n = start;
        run.add(n);
        while (n.hit == 0 && n.childCount() == 1) {
            n = n.children().getFirst();
            run.add(n);
        }
        return new Block(run);
    }

    private List<Block> sortedBlocks(CallchainNode parent, long min) {
        List<Block> out = new ArrayList<>();
        for (CallchainNode c : parent.sortedChildren(min, ties)) {
            out.add(block(c));
        }
        return out;
    }

    private static boolean inlined(Frame f) {
        return f.sym() != null && f.sym().inlined();
    }

    private static long start(Frame f) {
        return f.sym() != null ? f.sym().start() : f.addr();
    }

    private String name(CallchainNode n) {
        return buffer.apply(frames.chainName(n.frame()));
    }

    /** A branch's value: its period as a share of {@code total}, the period itself, or its samples. */
    private String value(long period, int count, long total) {
        return switch (shown) {
            case PERCENT -> StdioReport.fixed2(total == 0 ? 0.0 : period * 100.0 / total) + "%";
            case PERIOD -> Long.toUnsignedString(period);
            case COUNT -> Integer.toString(count);
        };
    }

    /** Whether {@code printed} branches or chain ends are all {@code -g}'s print limit allows. */
    private boolean limitReached(int printed) {
        return printed == printLimit;
    }

    private static String margin(int left) {
        return MARGIN + " ".repeat(left);
    }

    void graph(CallchainNode root, long total, long parentSamples, boolean relative, boolean skipFirst) {
        int left = 0;
        boolean printedAny = false;
        List<Block> top = sortedBlocks(root, relative ? 0 : minHit);
        CallchainNode start = root;
        long nodeTotal = relative ? parentSamples : total;
        if (top.size() == 1 && top.getFirst().cumul() == parentSamples) {
            Block b = top.getFirst();
            boolean printed = false;
            int i = 0;
            // the print limit counts this block's lines too, and then still lets the branches below print
            int lines = 0;
            for (CallchainNode n : b.run()) {
                if (i++ == 0 && skipFirst) {
                    continue;
                }
                if (!printed) {
                    out.print(margin(left) + "|\n");
                    out.print(margin(left) + "---");
                    left += 3;
                    printed = true;
                } else {
                    out.print(margin(left));
                }
                out.print(name(n) + "\n");
                printedAny = true;
                if (limitReached(++lines)) {
                    break;
                }
            }
            start = b.last();
        }
        if (relative) {
            total = parentSamples;
        }
        printedAny |= level(start, total, 1, 1, left, relative);
        if (printedAny) {
            out.print("\n");
        }
    }

    private boolean level(CallchainNode parent, long total, int depth, int depthMask, int left, boolean relative) {
        long min = relative ? (long) Math.ceil(parent.childrenHit * (opts.threshold() / 100.0)) : minHit;
        List<Block> kids = sortedBlocks(parent, min);
        long remaining = total;
        int remainingCount = parent.cumulCount() - parent.selfCount();
        int newMask = depthMask;
        boolean printed = false;
        for (int k = 0; k < kids.size(); k++) {
            Block b = kids.get(k);
            remaining -= b.cumul();
            remainingCount -= b.run().getFirst().cumulCount();
            boolean lastChild = k == kids.size() - 1;
            if (lastChild && (!relative || remaining == 0)) {
                newMask &= ~(1 << (depth - 1));
            }
            out.print(graphLine(depth, depthMask, left));
            int i = 0;
            for (CallchainNode n : b.run()) {
                out.print(chainLine(depth, newMask, i++ == 0, value(b.cumul(), b.run().getFirst().cumulCount(), total),
                        name(n), left));
            }
            long childTotal = relative ? b.last().childrenHit : total;
            level(b.last(), childTotal, depth + 1, newMask | (1 << depth), left, relative);
            printed = true;
            if (limitReached(k + 1)) {
                break;
            }
        }
        // shown as a count, the remainder is the samples of the branches not printed, and none is no line
        if (relative && remaining > 0 && remaining != total && printed
                && (shown != CallchainValue.COUNT || remainingCount > 0)) {
            newMask &= ~(1 << (depth - 1));
            out.print(chainLine(depth, newMask, true, value(remaining, remainingCount, total), "[...]", left));
        }
        return printed;
    }

    private static String graphLine(int depth, int mask, int left) {
        StringBuilder sb = new StringBuilder(margin(left));
        for (int i = 0; i < depth; i++) {
            sb.append((mask & (1 << i)) != 0 ? "|          " : "           ");
        }
        return sb.append('\n').toString();
    }

    private static String chainLine(int depth, int mask, boolean first, String value, String name, int left) {
        StringBuilder sb = new StringBuilder(margin(left));
        for (int i = 0; i < depth; i++) {
            sb.append((mask & (1 << i)) != 0 ? "|" : " ");
            if (first && i == depth - 1) {
                sb.append("--").append(value).append("--");
            } else {
                sb.append("          ");
            }
        }
        return sb.append(name).append('\n').toString();
    }

    /** A chain end with the path of frame names leading to it, root first. */
    private record End(CallchainNode node, List<String> path) {
    }

    /**
     * The chain ends under {@code n} in perf's order before its sort by period
     * ({@code __sort_chain_flat}): a node's children in the {@link #ties} order, each child's
     * ends before the child's own.
     */
    private void ends(CallchainNode n, List<String> prefix, List<End> acc) {
        List<String> here = prefix;
        if (n.frame() >= 0) {
            here = new ArrayList<>(prefix);
            here.add(name(n));
        }
        List<CallchainNode> kids = new ArrayList<>(n.children());
        try {
            kids.sort(ties);
        } catch (IllegalArgumentException notAnOrder) {
            // names of inlined functions against places: no total order (see CallchainNode.sortedChildren)
            kids = new ArrayList<>(n.children());
        }
        for (CallchainNode c : kids) {
            ends(c, here, acc);
        }
        if (n.frame() >= 0 && n.hit > 0 && n.hit >= minHit) {
            acc.add(new End(n, here));
        }
    }

    /** The chain ends, largest period first; equal ones in the order {@link #ends} gives them. */
    private List<End> sortedEnds(CallchainNode root) {
        List<End> list = new ArrayList<>();
        ends(root, List.of(), list);
        list.sort((a, b) -> Long.compare(b.node().hit, a.node().hit));
        return list;
    }

    void flat(CallchainNode root, long total) {
        int printed = 0;
        for (End e : sortedEnds(root)) {
            out.print("           " + value(e.node().cumul(), e.node().cumulCount(), total) + "\n");
            for (String s : e.path()) {
                out.print("                " + s + "\n");
            }
            out.print("\n");
            if (limitReached(++printed)) {
                break;
            }
        }
    }

    void folded(CallchainNode root, long total) {
        int printed = 0;
        for (End e : sortedEnds(root)) {
            out.print(value(e.node().hit, e.node().selfCount(), total) + " " + String.join(";", e.path()) + "\n");
            if (limitReached(++printed)) {
                break;
            }
        }
    }
}
