package io.perfj.report;

import java.util.ArrayList;
import java.util.List;

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
    /** Children in insertion order; most nodes have one or two, so a plain array is searched. */
    private CallchainNode[] kids;
    private int nkids;

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
        for (int i = 0; i < nkids; i++) {
            if (kids[i].frame == f) {
                return kids[i];
            }
        }
        if (kids == null) {
            kids = new CallchainNode[2];
        } else if (nkids == kids.length) {
            kids = java.util.Arrays.copyOf(kids, nkids * 2);
        }
        CallchainNode c = new CallchainNode(f, this);
        kids[nkids++] = c;
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
        return nkids == 0 ? List.of() : java.util.Arrays.asList(java.util.Arrays.copyOf(kids, nkids));
    }

    public int childCount() {
        return nkids;
    }

    /** Children with at least {@code minHit} cumulative period, largest first (stable). */
    List<CallchainNode> sortedChildren(long minHit) {
        List<CallchainNode> out = new ArrayList<>();
        for (int i = 0; i < nkids; i++) {
            CallchainNode c = kids[i];
            if (c.cumul() >= minHit && c.cumul() > 0) {
                out.add(c);
            }
        }
        out.sort((a, b) -> Long.compare(b.cumul(), a.cumul()));
        return out;
    }
}
