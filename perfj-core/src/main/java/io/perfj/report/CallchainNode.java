package io.perfj.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A node of an entry's callchain tree (perf's callchain_node, before path compression): one
 * frame, the period of chains ending here ({@code hit}) and of chains going on below
 * ({@code childrenHit}). Kept small — a large report has millions: the first child is a field,
 * further ones an array searched linearly (nodes rarely have more than a few). The children's
 * frames are kept in the parent too, so a search reads only the child it descends into (adding
 * a chain is a walk over nodes scattered across the heap). Children are matched by those frames;
 * a node's own {@link #frame} is the one it prints, which is the same but where frames of
 * different functions make one node ({@code -g srcline}: the first frame that reached it).
 */
public final class CallchainNode {
    final int frame;
    long hit;
    long childrenHit;
    /** The samples of the chains through this node, ending here or going on (perf's count plus children_count). */
    int count;
    private CallchainNode first;
    private int firstFrame;
    private CallchainNode[] more;
    private int[] moreFrames;
    private int nmore;

    CallchainNode(int frame) {
        this.frame = frame;
    }

    static CallchainNode root() {
        return new CallchainNode(-1);
    }

    /**
     * Adds one chain (frame ids, walked from {@code from} to {@code to} by {@code step}) of
     * {@code samples} samples with their period.
     */
    void add(int[] chain, int from, int to, int step, long period, long samples) {
        add(chain, chain, from, to, step, period, samples);
    }

    /**
     * As {@link #add(int[], int, int, int, long, long)}, the nodes matched by {@code chain}'s
     * frames, a node made here printing {@code shown}'s frame at the same index (perf's node
     * keeps the entry of the first chain that reached it).
     */
    void add(int[] chain, int[] shown, int from, int to, int step, long period, long samples) {
        CallchainNode n = this;
        for (int i = from; i != to; i += step) {
            n.childrenHit += period;
            n.count += (int) samples;
            n = n.child(chain[i], shown[i]);
        }
        n.hit += period;
        n.count += (int) samples;
    }

    /** Adds another tree's chains to this one (perf's {@code callchain_merge}). */
    void merge(CallchainNode other) {
        hit += other.hit;
        childrenHit += other.childrenHit;
        count += other.count;
        if (other.first != null) {
            child(other.firstFrame, other.first.frame).merge(other.first);
        }
        for (int i = 0; i < other.nmore; i++) {
            child(other.moreFrames[i], other.more[i].frame).merge(other.more[i]);
        }
    }

    /** The child matched by frame {@code f}, made printing frame {@code shown} when there is none. */
    private CallchainNode child(int f, int shown) {
        if (first == null) {
            first = new CallchainNode(shown);
            firstFrame = f;
            return first;
        }
        if (firstFrame == f) {
            return first;
        }
        int[] mf = moreFrames;
        for (int i = 0; i < nmore; i++) {
            if (mf[i] == f) {
                return more[i];
            }
        }
        if (more == null) {
            more = new CallchainNode[2];
            moreFrames = new int[2];
        } else if (nmore == more.length) {
            more = Arrays.copyOf(more, nmore * 2);
            moreFrames = Arrays.copyOf(moreFrames, nmore * 2);
        }
        CallchainNode c = new CallchainNode(shown);
        moreFrames[nmore] = f;
        more[nmore++] = c;
        return c;
    }

    public long cumul() {
        return hit + childrenHit;
    }

    /** The samples of the chains through this node (perf's {@code callchain_cumul_counts}). */
    public int cumulCount() {
        return count;
    }

    /** The samples of the chains ending at this node (perf's {@code count}). */
    public int selfCount() {
        int n = count;
        for (CallchainNode c : children()) {
            n -= c.count;
        }
        return n;
    }

    public int frame() {
        return frame;
    }

    /** Children in insertion order. */
    public List<CallchainNode> children() {
        if (first == null) {
            return List.of();
        }
        List<CallchainNode> out = new ArrayList<>(1 + nmore);
        out.add(first);
        for (int i = 0; i < nmore; i++) {
            out.add(more[i]);
        }
        return out;
    }

    public int childCount() {
        return first == null ? 0 : 1 + nmore;
    }

    /** Children with at least {@code minHit} cumulative period, largest first (stable). */
    List<CallchainNode> sortedChildren(long minHit) {
        return sortedChildren(minHit, null);
    }

    /**
     * Children with at least {@code minHit} cumulative period, largest first; equal ones in
     * {@code ties} order (perf keeps a node's children ordered by DSO, then symbol start or
     * address, and its sort keeps that order among equals).
     */
    List<CallchainNode> sortedChildren(long minHit, java.util.Comparator<CallchainNode> ties) {
        List<CallchainNode> out = new ArrayList<>();
        for (CallchainNode c : children()) {
            if (c.cumul() >= minHit && c.cumul() > 0) {
                out.add(c);
            }
        }
        java.util.Comparator<CallchainNode> byCumul = (a, b) -> Long.compare(b.cumul(), a.cumul());
        if (ties == null) {
            out.sort(byCumul);
            return out;
        }
        try {
            out.sort(byCumul.thenComparing(ties));
        } catch (IllegalArgumentException notAnOrder) {
            // perf's tie order (names for inlined frames, places for others) is no total order;
            // where the sort finds it contradicting itself, equal children keep insertion order
            out.clear();
            out.addAll(sortedChildren(minHit, null));
        }
        return out;
    }
}
