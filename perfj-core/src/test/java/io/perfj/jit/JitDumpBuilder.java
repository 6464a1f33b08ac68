package io.perfj.jit;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Writes jitdump files in either byte order, record by record, as a JIT runtime would. */
final class JitDumpBuilder {
    private final ByteOrder order;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final int pid;

    JitDumpBuilder(ByteOrder order, int pid) {
        this(order, pid, 0);
    }

    JitDumpBuilder(ByteOrder order, int pid, long flags) {
        this.order = order;
        this.pid = pid;
        ByteBuffer b = buf(JitDump.HEADER_SIZE);
        b.putInt(JitDump.MAGIC).putInt(1).putInt(JitDump.HEADER_SIZE).putInt(62).putInt(0).putInt(pid)
                .putLong(123456789L).putLong(flags);
        write(b);
    }

    private ByteBuffer buf(int n) {
        return ByteBuffer.allocate(n).order(order);
    }

    private void write(ByteBuffer b) {
        out.write(b.array(), 0, b.position());
    }

    private static byte[] cstr(String s) {
        byte[] n = s.getBytes(StandardCharsets.UTF_8);
        return java.util.Arrays.copyOf(n, n.length + 1);
    }

    JitDumpBuilder load(long time, long addr, String name, byte[] code, long index) {
        byte[] n = cstr(name);
        int size = 56 + n.length + code.length;
        ByteBuffer b = buf(size);
        b.putInt(JitRecord.CODE_LOAD).putInt(size).putLong(time).putInt(pid).putInt(pid + 1).putLong(addr)
                .putLong(addr).putLong(code.length).putLong(index).put(n).put(code);
        write(b);
        return this;
    }

    JitDumpBuilder move(long time, long oldAddr, long newAddr, long codeSize, long index) {
        ByteBuffer b = buf(64);
        b.putInt(JitRecord.CODE_MOVE).putInt(64).putLong(time).putInt(pid).putInt(pid).putLong(newAddr)
                .putLong(oldAddr).putLong(newAddr).putLong(codeSize).putLong(index);
        write(b);
        return this;
    }

    /** Entries as (address, line, file); a null file is written as the "same as before" marker. */
    JitDumpBuilder debug(long time, long codeAddr, Object... entries) {
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        for (int i = 0; i < entries.length; i += 3) {
            ByteBuffer x = buf(16);
            x.putLong((Long) entries[i]).putInt((Integer) entries[i + 1]).putInt(7);
            e.write(x.array(), 0, 16);
            byte[] f = entries[i + 2] == null ? new byte[] {(byte) 0xff, 0} : cstr((String) entries[i + 2]);
            e.write(f, 0, f.length);
        }
        int size = 32 + e.size();
        ByteBuffer b = buf(size);
        b.putInt(JitRecord.DEBUG_INFO).putInt(size).putLong(time).putLong(codeAddr).putLong(entries.length / 3)
                .put(e.toByteArray());
        write(b);
        return this;
    }

    JitDumpBuilder unwinding(long time, int dataSize, long hdrSize, long mappedSize) {
        int size = 40 + dataSize;
        ByteBuffer b = buf(size);
        b.putInt(JitRecord.UNWINDING_INFO).putInt(size).putLong(time).putLong(dataSize).putLong(hdrSize)
                .putLong(mappedSize).put(new byte[dataSize]);
        write(b);
        return this;
    }

    JitDumpBuilder close(long time) {
        ByteBuffer b = buf(16);
        b.putInt(JitRecord.CLOSE).putInt(16).putLong(time);
        write(b);
        return this;
    }

    JitDumpBuilder raw(int id, int size, long time) {
        ByteBuffer b = buf(Math.max(size, 16));
        b.putInt(id).putInt(size).putLong(time);
        b.position(Math.max(size, 16));
        write(b);
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }
}
