package io.perfj.btf.encode;

/**
 * What the current unit's DIEs became, by DIE offset: a type id, or the index of a function,
 * parameter or variable. A DIE is at most one of these, so one array indexed by the offset within
 * the unit serves all four: a lookup is one array read instead of a hash probe, which mattered
 * with a few million lookups per kernel. One per thread; cleared per unit by undoing what was set.
 */
final class DieIndex {
    static final int TYPE = 0;
    static final int FN = 1;
    static final int PARAM = 2;
    static final int VAR = 3;

    /** 0 for nothing, else index * 4 + kind + 1. */
    private int[] slot = new int[1 << 12];
    private final IntBuf used = new IntBuf(1 << 10);
    private long base;
    private int size;

    /** Empties the index for a unit of {@code length} bytes at section offset {@code base}. */
    void reset(long base, long length) {
        for (int i = 0; i < used.size(); i++) {
            slot[used.get(i)] = 0;
        }
        used.clear();
        if (length > slot.length) {
            slot = new int[(int) Math.min(Integer.MAX_VALUE - 16, Math.max(length, 2L * slot.length))];
        }
        this.base = base;
        this.size = (int) length;
    }

    void put(int kind, long offset, int index) {
        long i = offset - base;
        if (i < 0 || i >= size || index >= (1 << 29)) {
            throw new IllegalStateException("DIE at 0x" + Long.toHexString(offset) + " is outside its unit");
        }
        if (slot[(int) i] == 0) {
            used.add((int) i);
        }
        slot[(int) i] = index * 4 + kind + 1;
    }

    /** The index stored for the DIE at {@code offset} as a {@code kind}, or {@code missing}. */
    int get(int kind, long offset, int missing) {
        long i = offset - base;
        if (i < 0 || i >= size) {
            return missing;
        }
        int v = slot[(int) i] - 1;
        return v < 0 || (v & 3) != kind ? missing : v >>> 2;
    }
}
