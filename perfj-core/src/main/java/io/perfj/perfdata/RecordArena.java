package io.perfj.perfdata;

import io.perfj.io.Bytes;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Keeps the bytes of records that wait in the ordering queue and live on the heap (unpacked from
 * COMPRESSED records or read from a pipe) in a few large blocks instead of as objects: a queue of
 * hundreds of thousands of small record objects that survive several young collections costs
 * the collector more than all the rest of the work. A record goes in as bytes and comes out as a
 * fresh {@link RawRecord} with its own copy; a block is reused once every record in it is out.
 * {@link #held()} is the memory the blocks take, so the queue can be bounded by bytes.
 */
final class RecordArena {
    static final int BLOCK = 1 << 20;
    private static final int BLOCK_SHIFT = 20;
    /** The first blocks are smaller: most recordings that pass here wait with a few records only. */
    private static final int FIRST_BLOCK = 128 << 10;
    /** Before each record: its file offset, its bytes' base, whether it was compressed. */
    private static final int PREFIX = 17;
    /** Emptied blocks kept for reuse, so that blocks the old generation holds are not garbage. */
    private final int spareBlocks;

    private byte[][] blocks = new byte[8][];
    private ByteBuffer[] views = new ByteBuffer[8];
    private int[] live = new int[8];
    private final ArrayDeque<Integer> freeIds = new ArrayDeque<>();
    private final ArrayDeque<byte[]> spare = new ArrayDeque<>();
    private int current = -1;
    private int pos;
    private long held;
    private int made;
    private ByteOrder order;
    private String source;

    /** An arena that keeps up to {@code spareBytes} of emptied blocks for reuse. */
    RecordArena(long spareBytes) {
        this.spareBlocks = (int) Math.max(1, spareBytes / BLOCK);
    }

    /** Stores a copy of {@code r}; the handle (non-negative) gives it back once. */
    long put(RawRecord r) {
        int size = r.size();
        if (order == null) {
            order = r.bytes().order();
            source = r.bytes().source();
        }
        if (current < 0 || pos + PREFIX + size > blocks[current].length) {
            newBlock();
        }
        ByteBuffer v = views[current];
        v.putLong(pos, r.offset());
        v.putLong(pos + 8, r.bytes().base());
        v.put(pos + 16, (byte) (r.compressed() ? 1 : 0));
        MemorySegment.copy(r.bytes().segment(), 0, MemorySegment.ofArray(blocks[current]), pos + PREFIX, size);
        long h = ((long) current << BLOCK_SHIFT) | pos;
        pos += PREFIX + size;
        live[current]++;
        return h;
    }

    /** The record stored under {@code handle}, in an array of its own. */
    RawRecord take(long handle) {
        int id = (int) (handle >>> BLOCK_SHIFT);
        int at = (int) (handle & (BLOCK - 1));
        ByteBuffer v = views[id];
        long offset = v.getLong(at);
        long base = v.getLong(at + 8);
        boolean compressed = v.get(at + 16) != 0;
        int type = v.getInt(at + PREFIX);
        int misc = v.getShort(at + PREFIX + 4) & 0xffff;
        int size = v.getShort(at + PREFIX + 6) & 0xffff;
        byte[] one = Arrays.copyOfRange(blocks[id], at + PREFIX, at + PREFIX + size);
        if (--live[id] == 0 && id != current) {
            release(id);
        }
        Bytes b = Bytes.of(MemorySegment.ofArray(one), order, source, RecordType.structure(type), base);
        return new RawRecord(offset, type, misc, b, compressed);
    }

    /** Bytes of the blocks in use. */
    long held() {
        return held;
    }

    /**
     * Whether a record's bytes are an array of its own (a copy made when it was read, as for
     * unpacked or piped records) rather than a view of a mapping or of a whole recording in
     * memory: only such records cost memory per record while they wait.
     */
    static boolean ownsItsBytes(RawRecord r) {
        MemorySegment s = r.bytes().segment();
        return !s.isNative() && s.heapBase().orElse(null) instanceof byte[] a && a.length == s.byteSize();
    }

    private void newBlock() {
        if (current >= 0 && live[current] == 0) {
            pos = 0; // nothing in it is waiting: start it over
            return;
        }
        int id;
        if (!freeIds.isEmpty()) {
            id = freeIds.pop();
        } else {
            id = allocatedIds++;
            if (id == blocks.length) {
                blocks = Arrays.copyOf(blocks, id * 2);
                views = Arrays.copyOf(views, id * 2);
                live = Arrays.copyOf(live, id * 2);
            }
        }
        byte[] block = !spare.isEmpty() ? spare.pop() : new byte[made++ < 2 ? FIRST_BLOCK : BLOCK];
        blocks[id] = block;
        views[id] = ByteBuffer.wrap(block).order(order);
        live[id] = 0;
        held += block.length;
        current = id;
        pos = 0;
    }

    private int allocatedIds;

    private void release(int id) {
        held -= blocks[id].length;
        if (spare.size() < spareBlocks) {
            spare.push(blocks[id]);
        }
        blocks[id] = null;
        views[id] = null;
        freeIds.push(id);
    }
}
