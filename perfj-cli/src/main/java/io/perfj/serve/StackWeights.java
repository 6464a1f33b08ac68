package io.perfj.serve;

import io.perfj.profile.Profile;
import io.perfj.profile.StackTable;

import java.util.function.IntPredicate;

/**
 * The weight of the selected samples per distinct stack: what the function views walk, once
 * per stack instead of once per sample.
 */
final class StackWeights {
    final long[] weight;
    final long total;
    /** The stacks with weight, in id order. */
    final int[] stacks;

    StackWeights(Profile p, IntPredicate keep) {
        weight = new long[p.stacks().size()];
        long sum = 0;
        long empty = 0;
        for (int i = 0; i < p.sampleCount(); i++) {
            if (keep.test(i)) {
                int st = p.stack(i);
                if (st == StackTable.EMPTY) {
                    empty += p.weight(i);
                } else {
                    weight[st] += p.weight(i);
                }
                sum += p.weight(i);
            }
        }
        total = sum;
        int n = 0;
        for (long w : weight) {
            if (w != 0) {
                n++;
            }
        }
        stacks = new int[n];
        n = 0;
        for (int s = 0; s < weight.length; s++) {
            if (weight[s] != 0) {
                stacks[n++] = s;
            }
        }
    }
}
