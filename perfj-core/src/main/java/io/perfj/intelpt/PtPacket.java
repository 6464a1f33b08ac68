package io.perfj.intelpt;

/**
 * One decoded Intel PT packet, reused from packet to packet so a walk over megabytes of trace
 * allocates nothing. The fields are the packet's, as perf's decoder keeps them:
 * <ul>
 * <li>{@code payload}: the value (an IP packet's compressed IP bytes as they are, a TSC, a CBR
 *     ratio, ...); for TNT the taken/not-taken bits, the first at bit 63;</li>
 * <li>{@code count}: a second field: TNT's number of bits, an IP packet's IPBytes, TMA's FastCounter,
 *     the MODE.Exec byte, BIP's ID, BBP's size bit, CFE/EVD's type;</li>
 * <li>{@code length}: the bytes it took, with the PAD bytes after it that perf folds into it.</li>
 * </ul>
 */
public final class PtPacket {
    PtPacketType type = PtPacketType.BAD;
    long payload;
    int count;
    int length;

    public PtPacketType type() {
        return type;
    }

    public long payload() {
        return payload;
    }

    public int count() {
        return count;
    }

    public int length() {
        return length;
    }

    void clear() {
        type = PtPacketType.BAD;
        payload = 0;
        count = 0;
        length = 0;
    }

    @Override
    public String toString() {
        return PtPacketText.describe(this);
    }
}
