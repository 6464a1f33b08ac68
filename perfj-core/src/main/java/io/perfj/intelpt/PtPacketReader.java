package io.perfj.intelpt;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

/**
 * Walks the packets of one Intel PT trace buffer (an AUXTRACE payload) in order, keeping the
 * block context a BBP opens. The bytes are read a window at a time, so a payload of any size
 * costs one window of memory.
 *
 * <p>Strict readers ({@link #strict}) throw a {@link FormatException} naming the file, the
 * structure ("Intel PT packet") and the absolute offset at the first bytes that are no packet or
 * a packet cut off by the end of the buffer. Lenient readers ({@link #lenient}) give such bytes
 * as one-byte {@link PtPacketType#BAD} packets and go on with the next byte, as perf's packet dump
 * does.
 */
public final class PtPacketReader {
    /** The structure a malformed packet's error names. */
    public static final String STRUCTURE = "Intel PT packet";
    private static final int WINDOW = 1 << 20;
    /** The longest packet (PSB) with room for the folded PADs after any packet. */
    private static final int LONGEST = 24;

    private final Bytes data;
    private final boolean strict;
    private final PtPacket packet = new PtPacket();
    private byte[] window = new byte[0];
    private long windowStart;
    private long pos;
    private int ctx = PtPacketDecoder.CTX_NONE;

    private PtPacketReader(Bytes data, boolean strict) {
        this.data = data.named(STRUCTURE);
        this.strict = strict;
    }

    /** A reader that throws at the first malformed packet. */
    public static PtPacketReader strict(Bytes data) {
        return new PtPacketReader(data, true);
    }

    /** A reader that gives malformed bytes as one-byte BAD packets. */
    public static PtPacketReader lenient(Bytes data) {
        return new PtPacketReader(data, false);
    }

    /** Offset in the buffer of the packet {@link #next()} decodes next. */
    public long position() {
        return pos;
    }

    /**
     * Decodes the next packet into the reader's one {@link PtPacket} (overwritten by the next
     * call) and returns it, or null at the end of the buffer.
     */
    public PtPacket next() {
        long size = data.size();
        if (pos >= size) {
            return null;
        }
        int at = (int) (pos - windowStart);
        if (at + LONGEST > window.length && windowStart + window.length < size) {
            windowStart = pos;
            window = data.bytes(pos, Math.min(WINDOW, size - pos));
            at = 0;
        }
        int len = PtPacketDecoder.decode(window, at, window.length - at, ctx, packet);
        if (len <= 0) {
            if (strict) {
                throw data.error(pos, len == PtPacketDecoder.NEED_MORE
                        ? "the buffer ends inside a packet (" + (size - pos) + " bytes left)"
                        : "no packet starts with 0x" + hex2(window[at]) + (window.length - at > 1
                                ? " 0x" + hex2(window[at + 1]) : ""));
            }
            packet.clear();
            packet.length = 1;
        } else {
            ctx = PtPacketDecoder.nextContext(packet, ctx);
        }
        pos += packet.length;
        return packet;
    }

    /** The bytes of the packet just returned, {@code i} from its start. */
    int byteOf(int i) {
        return window[(int) (pos - packet.length - windowStart) + i] & 0xff;
    }

    private static String hex2(byte b) {
        return String.format("%02x", b & 0xff);
    }
}
