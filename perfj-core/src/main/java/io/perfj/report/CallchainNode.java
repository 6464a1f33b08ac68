package io.perfj.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node of an entry's callchain tree (perf's callchain_node, before path compression): one
 * frame, the period of chains ending here ({@code hit}) and of chains going on below
 * ({@code childrenHit}), and the sample counts likewise.
 */
public final class CallchainNode {
    final int frame;
    final CallchainNode parent;
    long hit;
    long childrenHit;
    long count;
    long childrenCount;
    private Map<Integer, CallchainNode> children;

    CallchainNode(int frame, CallchainNode parent) {
        this.frame = frame;
        this.parent = parent;
    }

    static CallchainNode root() {
        return new CallchainNode(-1, null);
    }

    /** Adds one chain (frame ids in print order) with its period and sample count. */
    void add(int[] chain, int from, int to, int step, long period, long samples) {
        CallchainNode n = this;
        for (int i = from; i != to; i += step) {
            n.childrenHit += period;
            n.childrenCount += samples;
            n = n.child(chain[i]);
        }
        n.hit += period;
        n.count += samples;
    }

    private CallchainNode child(int f) {
        if (children == null) {
            children = new LinkedHashMap<>(4);
        }
        CallchainNode c = children.get(f);
        if (c == null) {
            c = new CallchainNode(f, this);
            children.put(f, c);
        }
        return c;
    }

    public long cumul() {
        return hit + childrenHit;
    }

    public long cumulCount() {
        return count + childrenCount;
    }

    public int frame() {
        return frame;
    }

    public List<CallchainNode> children() {
        return children == null ? List.of() : new ArrayList<>(children.values());
    }

    public int childCount() {
        return children == null ? 0 : children.size();
    }

    /** Children with at least {@code minHit} cumulative period, largest first (stable). */
    List<CallchainNode> sortedChildren(long minHit) {
        List<CallchainNode> out = new ArrayList<>();
        if (children == null) {
            return out;
        }
        for (CallchainNode c : children.values()) {
            if (c.cumul() >= minHit && c.cumul() > 0) {
                out.add(c);
            }
        }
        out.sort((a, b) -> Long.compare(b.cumul(), a.cumul()));
        return out;
    }
}
