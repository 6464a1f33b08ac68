package io.perfj.perfdata;

import java.util.Arrays;

/** Records waiting between arrival and delivery, kept by small int slots that are reused. */
final class RecordSlots {
    private RawRecord[] slots = new RawRecord[64];
    private int[] free = new int[64];
    private int freeCount;
    private int used;

    int put(RawRecord r) {
        int s;
        if (freeCount > 0) {
            s = free[--freeCount];
        } else {
            if (used == slots.length) {
                slots = Arrays.copyOf(slots, used * 2);
            }
            s = used++;
        }
        slots[s] = r;
        return s;
    }

    RawRecord take(int s) {
        RawRecord r = slots[s];
        slots[s] = null;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, free.length * 2);
        }
        free[freeCount++] = s;
        return r;
    }
}
