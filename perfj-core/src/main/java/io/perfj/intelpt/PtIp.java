package io.perfj.intelpt;

/**
 * IP compression of the TIP, TIP.PGE, TIP.PGD and FUP packets (Intel SDM vol. 3, 32.4.2.2,
 * "IP Compression"): the packet's IPBytes field says which low bytes of the IP it carries; the
 * rest come from the last IP a packet gave (zero after a PSB) or, for IPBytes 0b011, from sign
 * extension of bit 47.
 */
public final class PtIp {
    private PtIp() {
    }

    /**
     * The IP that an IP packet of {@code ipBytes} (its {@link PtPacket#count()}) with
     * {@code payload} makes after {@code lastIp}; {@code lastIp} itself for IPBytes 0 (no IP,
     * the IP is out of context).
     */
    public static long decompress(int ipBytes, long payload, long lastIp) {
        return switch (ipBytes) {
            case 1 -> (lastIp & ~0xffffL) | (payload & 0xffffL);
            case 2 -> (lastIp & ~0xffff_ffffL) | (payload & 0xffff_ffffL);
            case 3 -> (payload << 16) >> 16;
            case 4 -> (lastIp & ~0xffff_ffff_ffffL) | (payload & 0xffff_ffff_ffffL);
            case 6 -> payload;
            default -> lastIp;
        };
    }
}
