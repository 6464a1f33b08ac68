package io.perfj.perfdata;

import io.perfj.io.Bytes;

/**
 * A decoded {@code struct perf_event_attr} (include/uapi/linux/perf_event.h). Fields beyond the
 * recorded {@code size} are zero. {@code flags} is the bitfield word with bit 0 = disabled, in
 * little-endian bit numbering whatever the file's byte order.
 */
public record EventAttr(int type, int size, long config, long samplePeriod, long sampleType,
                        long readFormat, long flags, int wakeupEvents, int bpType, long config1,
                        long config2, long branchSampleType, long sampleRegsUser, int sampleStackUser,
                        int clockid, long sampleRegsIntr, int auxWatermark, int sampleMaxStack,
                        int auxSampleSize, long sigData, long config3) {

    public static final int SIZE_VER0 = 64;
    public static final int SIZE_VER7 = 128;
    public static final int SIZE_VER8 = 136;

    public static final String[] FLAG_NAMES = {
        "disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel", "exclude_hv",
        "exclude_idle", "mmap", "comm", "freq", "inherit_stat", "enable_on_exec", "task", "watermark",
        "precise_ip", "precise_ip", "mmap_data", "sample_id_all", "exclude_host", "exclude_guest",
        "exclude_callchain_kernel", "exclude_callchain_user", "mmap2", "comm_exec", "use_clockid",
        "context_switch", "write_backward", "namespaces", "ksymbol", "bpf_event", "aux_output",
        "cgroup", "text_poke", "build_id", "inherit_thread", "remove_on_exec", "sigtrap",
    };

    public boolean flag(int bit) {
        return (flags & (1L << bit)) != 0;
    }

    public boolean freq() {
        return flag(10);
    }

    public boolean sampleIdAll() {
        return flag(18);
    }

    public int preciseIp() {
        return (int) ((flags >>> 15) & 3);
    }

    public boolean has(long sampleBit) {
        return (sampleType & sampleBit) != 0;
    }

    /**
     * The attr as {@code size} bytes in {@code order} (the layout {@link #read} decodes): what
     * perf_event_open(2) takes and what a perf.data file stores. Fields past {@code size} are
     * left out, so a VER7 (128-byte) attr is what perf 6.1 reads back.
     */
    public byte[] encode(java.nio.ByteOrder order, int size) {
        if (size < SIZE_VER0 || size > SIZE_VER8 || size % 8 != 0) {
            throw new IllegalArgumentException("perf_event_attr size " + size);
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(SIZE_VER8).order(order);
        b.putInt(type).putInt(size).putLong(config).putLong(samplePeriod).putLong(sampleType)
                .putLong(readFormat)
                .putLong(order == java.nio.ByteOrder.BIG_ENDIAN ? Long.reverse(flags) : flags)
                .putInt(wakeupEvents).putInt(bpType).putLong(config1).putLong(config2)
                .putLong(branchSampleType).putLong(sampleRegsUser).putInt(sampleStackUser)
                .putInt(clockid).putLong(sampleRegsIntr).putInt(auxWatermark)
                .putShort((short) sampleMaxStack).putShort((short) 0).putInt(auxSampleSize)
                .putInt(0).putLong(sigData).putLong(config3);
        return java.util.Arrays.copyOf(b.array(), size);
    }

    /**
     * Decodes an attr at the start of {@code b}. The attr's own size field says how many bytes
     * it occupies (0 means the first published layout, 64 bytes).
     */
    public static EventAttr read(Bytes b) {
        long sz = b.u32(4);
        if (sz == 0) {
            sz = SIZE_VER0;
        }
        if (sz < SIZE_VER0 || sz > 4096) {
            throw b.error(4, "perf_event_attr size " + sz + " is not a valid attr size");
        }
        b.check(0, sz);
        long flags = b.u64(40);
        if (b.order() == java.nio.ByteOrder.BIG_ENDIAN) {
            // Bitfields are allocated from the most significant bit on big-endian machines.
            flags = Long.reverse(flags);
        }
        return new EventAttr(
                b.s32(0), (int) sz, b.u64(8), b.u64(16), b.u64(24), b.u64(32), flags,
                b.s32(48), b.s32(52), b.u64(56),
                sz >= 72 ? b.u64(64) : 0,
                sz >= 80 ? b.u64(72) : 0,
                sz >= 96 ? b.u64(80) : 0,
                sz >= 96 ? b.s32(88) : 0,
                sz >= 96 ? b.s32(92) : 0,
                sz >= 104 ? b.u64(96) : 0,
                sz >= 112 ? b.s32(104) : 0,
                sz >= 112 ? b.u16(108) : 0,
                sz >= 120 ? b.s32(112) : 0,
                sz >= 128 ? b.u64(120) : 0,
                sz >= 136 ? b.u64(128) : 0);
    }
}
