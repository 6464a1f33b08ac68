package io.perfj.testing;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes small synthetic perf.data files (file or pipe mode, either byte order) for tests that
 * need layouts no fixture has: big-endian files, odd sizes, deliberately broken fields.
 */
public final class PerfDataBuilder {
    public static final long MAGIC2 = 0x32454c4946524550L;

    private final ByteOrder order;
    private final List<byte[]> attrs = new ArrayList<>();
    private final List<long[]> ids = new ArrayList<>();
    private final List<byte[]> records = new ArrayList<>();
    private final Map<Integer, byte[]> features = new TreeMap<>();

    public PerfDataBuilder(ByteOrder order) {
        this.order = order;
    }

    public ByteOrder order() {
        return order;
    }

    /** A 128-byte perf_event_attr (VER7). {@code flags} uses little-endian bit numbering. */
    public byte[] attr(int type, long config, long period, long sampleType, long readFormat, long flags) {
        ByteBuffer b = ByteBuffer.allocate(128).order(order);
        b.putInt(type).putInt(128).putLong(config).putLong(period).putLong(sampleType).putLong(readFormat);
        b.putLong(order == ByteOrder.BIG_ENDIAN ? Long.reverse(flags) : flags);
        return b.array();
    }

    public PerfDataBuilder addAttr(byte[] attr, long... sampleIds) {
        attrs.add(attr);
        ids.add(sampleIds);
        return this;
    }

    /** A record with the given header fields and body made of u64 words. */
    public byte[] record(int type, int misc, long... words) {
        ByteBuffer b = ByteBuffer.allocate(8 + 8 * words.length).order(order);
        b.putInt(type).putShort((short) misc).putShort((short) (8 + 8 * words.length));
        for (long w : words) {
            b.putLong(w);
        }
        return b.array();
    }

    /** A record with a raw body (size taken from the body). */
    public byte[] recordRaw(int type, int misc, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(8 + body.length).order(order);
        b.putInt(type).putShort((short) misc).putShort((short) (8 + body.length)).put(body);
        return b.array();
    }

    public PerfDataBuilder add(byte[] record) {
        records.add(record);
        return this;
    }

    /** A feature payload in perf's string form: u32 length (padded to 64), bytes, NULs. */
    public byte[] perfString(String s) {
        byte[] str = s.getBytes(StandardCharsets.UTF_8);
        int len = (str.length + 1 + 63) / 64 * 64;
        ByteBuffer b = ByteBuffer.allocate(4 + len).order(order);
        b.putInt(len).put(str);
        return b.array();
    }

    public PerfDataBuilder feature(int id, byte[] payload) {
        features.put(id, payload);
        return this;
    }

    public byte[] buildFile() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int attrEntry = 128 + 16;
        long attrsOff = 104;
        long idsOff = attrsOff + (long) attrEntry * attrs.size();
        long idsLen = 0;
        for (long[] i : ids) {
            idsLen += 8L * i.length;
        }
        long dataOff = idsOff + idsLen;
        long dataLen = 0;
        for (byte[] r : records) {
            dataLen += r.length;
        }
        ByteBuffer h = ByteBuffer.allocate(104).order(order);
        h.putLong(MAGIC2);
        h.putLong(104).putLong(attrEntry);
        h.putLong(attrsOff).putLong((long) attrEntry * attrs.size());
        h.putLong(dataOff).putLong(dataLen);
        h.putLong(0).putLong(0);
        long[] bits = new long[4];
        for (int f : features.keySet()) {
            bits[f >>> 6] |= 1L << (f & 63);
        }
        for (long w : bits) {
            h.putLong(w);
        }
        out.writeBytes(h.array());
        long idPos = idsOff;
        for (int i = 0; i < attrs.size(); i++) {
            out.writeBytes(attrs.get(i));
            ByteBuffer s = ByteBuffer.allocate(16).order(order);
            s.putLong(idPos).putLong(8L * ids.get(i).length);
            out.writeBytes(s.array());
            idPos += 8L * ids.get(i).length;
        }
        for (long[] i : ids) {
            ByteBuffer s = ByteBuffer.allocate(8 * i.length).order(order);
            for (long v : i) {
                s.putLong(v);
            }
            out.writeBytes(s.array());
        }
        for (byte[] r : records) {
            out.writeBytes(r);
        }
        long featOff = dataOff + dataLen + 16L * features.size();
        ByteBuffer table = ByteBuffer.allocate(16 * features.size()).order(order);
        for (byte[] p : features.values()) {
            table.putLong(featOff).putLong(p.length);
            featOff += p.length;
        }
        out.writeBytes(table.array());
        for (byte[] p : features.values()) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    public byte[] buildPipe() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(16).order(order);
        h.putLong(MAGIC2).putLong(16);
        out.writeBytes(h.array());
        for (int i = 0; i < attrs.size(); i++) {
            ByteBuffer body = ByteBuffer.allocate(128 + 8 * ids.get(i).length).order(order);
            body.put(attrs.get(i));
            for (long v : ids.get(i)) {
                body.putLong(v);
            }
            out.writeBytes(recordRaw(64, 0, body.array()));
        }
        for (Map.Entry<Integer, byte[]> f : features.entrySet()) {
            ByteBuffer body = ByteBuffer.allocate(8 + f.getValue().length).order(order);
            body.putLong(f.getKey()).put(f.getValue());
            out.writeBytes(recordRaw(80, 0, body.array()));
        }
        for (byte[] r : records) {
            out.writeBytes(r);
        }
        return out.toByteArray();
    }

    /** Overwrites 8 bytes at {@code off} in {@code file} in this builder's byte order. */
    public void putU64(byte[] file, int off, long v) {
        ByteBuffer.wrap(file).order(order).putLong(off, v);
    }

    public void putU16(byte[] file, int off, int v) {
        ByteBuffer.wrap(file).order(order).putShort(off, (short) v);
    }
}
