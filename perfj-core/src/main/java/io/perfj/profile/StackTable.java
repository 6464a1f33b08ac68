package io.perfj.profile;

import io.perfj.util.LongIntMap;

import java.util.Arrays;

/**
 * Interns stacks as nodes of a trie of frame ids: a stack is (parent stack, frame), so a sample
 * carries one int however deep its callchain is. Stacks are stored leaf first: the root node of
 * a stack is its leaf frame, each child adds the next caller.
 */
public final class StackTable {
    public static final int EMPTY = -1;

    private final LongIntMap index = new LongIntMap(1 << 12);
    private int[] parent = new int[1024];
    private int[] frame = new int[1024];
    private int[] depth = new int[1024];
    private int size;

    /** The stack {@code parentStack} extended by one more caller frame. */
    public int push(int parentStack, int frameId) {
        long key = ((long) parentStack << 32) | (frameId & 0xffffffffL);
        int id = index.get(key);
        if (id >= 0) {
            return id;
        }
        if (size == parent.length) {
            parent = Arrays.copyOf(parent, size * 2);
            frame = Arrays.copyOf(frame, size * 2);
            depth = Arrays.copyOf(depth, size * 2);
        }
        parent[size] = parentStack;
        frame[size] = frameId;
        depth[size] = parentStack == EMPTY ? 1 : depth[parentStack] + 1;
        index.put(key, size);
        return size++;
    }

    public int depth(int stack) {
        return stack == EMPTY ? 0 : depth[stack];
    }

    /** Frames of the stack, leaf first. */
    public int[] frames(int stack) {
        int[] out = new int[depth(stack)];
        int i = out.length - 1;
        for (int s = stack; s != EMPTY; s = parent[s]) {
            out[i--] = frame[s];
        }
        return out;
    }

    /**
     * The stack's prefixes into {@code out}: {@code out[i]} is the stack of its frames 0..i
     * (leaf first), so {@code out[depth - 1]} is the stack itself.
     */
    public void prefixes(int stack, int[] out) {
        int i = depth(stack) - 1;
        for (int s = stack; s != EMPTY; s = parent[s]) {
            out[i--] = s;
        }
    }

    /**
     * The stack's frames, leaf first, each as its {@link FrameTable#chainNode} frame, into
     * {@code out}, and as they are into {@code own} unless it is null.
     */
    public void canonicalFrames(int stack, FrameTable frames, int[] out, int[] own) {
        int i = depth(stack) - 1;
        for (int s = stack; s != EMPTY; s = parent[s]) {
            out[i] = frames.chainNode(frame[s]);
            if (own != null) {
                own[i] = frame[s];
            }
            i--;
        }
    }

    /** The stack this one extends by its last frame ({@link #EMPTY} for a one-frame stack). */
    public int parent(int stack) {
        return parent[stack];
    }

    /** The last frame pushed (the outermost caller so far). */
    public int frame(int stack) {
        return frame[stack];
    }

    public int size() {
        return size;
    }
}
