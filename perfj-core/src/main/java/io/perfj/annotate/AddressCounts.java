package io.perfj.annotate;

/**
 * Samples and period per address, in first-hit order: what annotate counts per object while the
 * records stream by, and what {@code perfj top}'s live profile keeps per symbol. Only addresses
 * actually hit take room.
 */
public class AddressCounts {
    private final io.perfj.util.LongIntMap index = new io.perfj.util.LongIntMap(64);
    long[] addrs = new long[16];
    long[] samples = new long[16];
    long[] periods = new long[16];
    int size;
    private int minValueSlot = -1;

    /** Counts one sample of {@code period} at {@code addr}; whether the address is new. */
    public boolean add(long addr, long period) {
        int i = addr == Long.MIN_VALUE ? minValueSlot : index.get(addr);
        boolean added = i < 0;
        if (added) {
            if (size == addrs.length) {
                addrs = java.util.Arrays.copyOf(addrs, size * 2);
                samples = java.util.Arrays.copyOf(samples, size * 2);
                periods = java.util.Arrays.copyOf(periods, size * 2);
            }
            i = size++;
            addrs[i] = addr;
            if (addr == Long.MIN_VALUE) {
                minValueSlot = i;
            } else {
                index.put(addr, i);
            }
        }
        samples[i]++;
        periods[i] += period;
        return added;
    }

    /** Whether {@code addr} was hit. */
    public boolean has(long addr) {
        return addr == Long.MIN_VALUE ? minValueSlot >= 0 : index.get(addr) >= 0;
    }

    /** How many addresses were hit. */
    public int size() {
        return size;
    }

    /** The addresses hit, in first-hit order. */
    public long[] addresses() {
        return java.util.Arrays.copyOf(addrs, size);
    }

    /** The samples at each of {@link #addresses()}. */
    public long[] samples() {
        return java.util.Arrays.copyOf(samples, size);
    }

    /** The period at each of {@link #addresses()}. */
    public long[] periods() {
        return java.util.Arrays.copyOf(periods, size);
    }
}
