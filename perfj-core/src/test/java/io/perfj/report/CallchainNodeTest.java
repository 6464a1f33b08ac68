package io.perfj.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CallchainNodeTest {
    private static List<Integer> frames(List<CallchainNode> nodes) {
        return nodes.stream().map(CallchainNode::frame).toList();
    }

    /**
     * Nodes are matched by the chain's frames and print the frame the first chain that reached
     * them gave ({@code -g srcline}: functions of one line text are one node, printed as the first).
     */
    @Test
    void aNodePrintsTheFirstFrameThatReachedIt() {
        CallchainNode root = CallchainNode.root();
        root.add(new int[] {1, 2}, new int[] {10, 20}, 0, 2, 1, 5, 1);
        root.add(new int[] {1, 2}, new int[] {11, 21}, 0, 2, 1, 3, 1);
        root.add(new int[] {1, 3}, new int[] {12, 31}, 0, 2, 1, 2, 1);
        assertEquals(List.of(10), frames(root.children()));
        CallchainNode one = root.children().getFirst();
        assertEquals(10, one.cumul());
        assertEquals(List.of(20, 31), frames(one.children()));

        // merged into another tree, a node there keeps its frame, a new one brings its own
        CallchainNode other = CallchainNode.root();
        other.add(new int[] {1, 3}, new int[] {13, 32}, 0, 2, 1, 1, 1);
        other.merge(root);
        CallchainNode merged = other.children().getFirst();
        assertEquals(13, merged.frame());
        assertEquals(List.of(32, 20), frames(merged.children()));
        assertEquals(11, merged.cumul());
    }
}
