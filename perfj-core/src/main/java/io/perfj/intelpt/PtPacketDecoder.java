package io.perfj.intelpt;

/**
 * Decodes one Intel PT packet from bytes (Intel SDM vol. 3, 32.4.2 "Packet Definitions"). The
 * first byte picks the packet: bit 0 clear is PAD (0x00), an extended opcode (0x02, the second
 * byte picks), or a short TNT; bits 0 and 1 set is CYC; otherwise the low five bits name an IP
 * packet (TIP, TIP.PGE, TIP.PGD, FUP, the top three bits saying how many IP bytes follow) or, for
 * 0x19, TSC, MTC or MODE. Inside a block (after a BBP) a first byte ending in 0b100 is a BIP of
 * the block's item size. Where the SDM leaves a choice open this follows perf 6.1's packet decoder
 * (intel-pt-pkt-decoder.c, intel_pt_get_packet), whose output the dump must equal: IPBytes 0b100
 * is read as six bytes like 0b011, and the PAD bytes after a packet, up to eight bytes in all, are
 * folded into it.
 */
final class PtPacketDecoder {
    /** The bytes end inside a packet. */
    static final int NEED_MORE = -1;
    /** The bytes are no packet. */
    static final int BAD = -2;

    /** No block is open. */
    static final int CTX_NONE = 0;
    /** After a BBP of 4-byte items. */
    static final int CTX_BLOCK_4 = 1;
    /** After a BBP of 8-byte items. */
    static final int CTX_BLOCK_8 = 2;

    private PtPacketDecoder() {
    }

    /**
     * Decodes the packet at {@code b[p]}, with {@code n} bytes available there, into {@code pk};
     * returns its length (with folded PADs), {@link #NEED_MORE} or {@link #BAD}.
     */
    static int decode(byte[] b, int p, int n, int ctx, PtPacket pk) {
        pk.clear();
        int len = packet(b, p, n, ctx, pk);
        if (len > 0) {
            while (len < 8 && len < n && b[p + len] == 0) {
                len++;
            }
            pk.length = len;
        }
        return len;
    }

    /** The block context after {@code pk}: a BBP opens one, most packets close it. */
    static int nextContext(PtPacket pk, int ctx) {
        return switch (pk.type) {
            case BAD, PAD, TSC, TMA, MTC, FUP, CYC, CBR, MNT, EXSTOP, EXSTOP_IP, PWRE, PWRX, BIP -> ctx;
            case BBP -> pk.count != 0 ? CTX_BLOCK_4 : CTX_BLOCK_8;
            default -> CTX_NONE;
        };
    }

    private static int packet(byte[] b, int p, int n, int ctx, PtPacket pk) {
        if (n <= 0) {
            return NEED_MORE;
        }
        int h = b[p] & 0xff;
        if (ctx != CTX_NONE && (h & 7) == 4) {
            return bip(b, p, n, ctx == CTX_BLOCK_4 ? 4 : 8, pk);
        }
        if ((h & 1) == 0) {
            if (h == 0) {
                pk.type = PtPacketType.PAD;
                return 1;
            }
            return h == 2 ? extended(b, p, n, pk) : shortTnt(h, pk);
        }
        if ((h & 2) != 0) {
            return cyc(b, p, n, pk);
        }
        return switch (h & 0x1f) {
            case 0x0d -> ip(PtPacketType.TIP, b, p, n, pk);
            case 0x11 -> ip(PtPacketType.TIP_PGE, b, p, n, pk);
            case 0x01 -> ip(PtPacketType.TIP_PGD, b, p, n, pk);
            case 0x1d -> ip(PtPacketType.FUP, b, p, n, pk);
            case 0x19 -> switch (h) {
                case 0x99 -> mode(b, p, n, pk);
                case 0x19 -> fixed(PtPacketType.TSC, b, p, n, 8, 1, 7, pk);
                case 0x59 -> fixed(PtPacketType.MTC, b, p, n, 2, 1, 1, pk);
                default -> BAD;
            };
            default -> BAD;
        };
    }

    /** Little-endian unsigned value of {@code k} bytes (k ≤ 8) at {@code b[p]}. */
    static long le(byte[] b, int p, int k) {
        long v = 0;
        for (int i = k - 1; i >= 0; i--) {
            v = (v << 8) | (b[p + i] & 0xff);
        }
        return v;
    }

    /** A packet of {@code size} bytes whose payload is {@code k} bytes at offset {@code at}. */
    private static int fixed(PtPacketType t, byte[] b, int p, int n, int size, int at, int k, PtPacket pk) {
        if (n < size) {
            return NEED_MORE;
        }
        pk.type = t;
        pk.payload = le(b, p + at, k);
        return size;
    }

    private static int bare(PtPacketType t, PtPacket pk) {
        pk.type = t;
        return 2;
    }

    /** Short TNT: the bits below the highest set bit (the stop bit), bit 0 being the header's 0. */
    private static int shortTnt(int h, PtPacket pk) {
        int stop = 31 - Integer.numberOfLeadingZeros(h);
        int bits = stop - 1;
        pk.type = PtPacketType.TNT;
        pk.count = bits;
        // the bit below the stop bit goes to bit 63
        pk.payload = ((long) h) << (64 - stop);
        return 1;
    }

    /** Long TNT (0x02 0xa3): up to 47 bits below the stop bit in the six payload bytes. */
    private static int longTnt(byte[] b, int p, int n, PtPacket pk) {
        if (n < 8) {
            return NEED_MORE;
        }
        long v = le(b, p, 8);
        int count = 47;
        // the stop bit is the highest set bit of the payload's 48; none set leaves no bits
        while (count > 0 && v >= 0) {
            v <<= 1;
            count--;
        }
        pk.type = PtPacketType.TNT;
        pk.count = count;
        pk.payload = v << 1;
        return 8;
    }

    /** CYC: five bits in the header, seven more per byte while the low bit says another follows. */
    private static int cyc(byte[] b, int p, int n, PtPacket pk) {
        int h = b[p] & 0xff;
        long v = h >>> 3;
        boolean more = (h & 4) != 0;
        int at = 1;
        int shift = 5;
        while (more) {
            if (at > 9) {
                return BAD;
            }
            if (n <= at) {
                return NEED_MORE;
            }
            int x = b[p + at++] & 0xff;
            v |= ((long) (x >>> 1)) << shift;
            shift += 7;
            more = (x & 1) != 0;
        }
        pk.type = PtPacketType.CYC;
        pk.payload = v;
        return at;
    }

    /** TIP, TIP.PGE, TIP.PGD, FUP: IPBytes in bits 7:5 say how many IP bytes follow. */
    private static int ip(PtPacketType t, byte[] b, int p, int n, PtPacket pk) {
        int ipBytes = (b[p] & 0xff) >>> 5;
        int k = switch (ipBytes) {
            case 0 -> 0;
            case 1 -> 2;
            case 2 -> 4;
            case 3, 4 -> 6;
            case 6 -> 8;
            default -> -1;
        };
        if (k < 0) {
            return BAD;
        }
        if (n < k + 1) {
            return NEED_MORE;
        }
        pk.type = t;
        pk.count = ipBytes;
        pk.payload = le(b, p + 1, k);
        return k + 1;
    }

    /** MODE (0x99): bits 7:5 of the second byte say Exec (0) or TSX (1). */
    private static int mode(byte[] b, int p, int n, PtPacket pk) {
        if (n < 2) {
            return NEED_MORE;
        }
        int x = b[p + 1] & 0xff;
        switch (x >>> 5) {
            case 0 -> {
                int width = switch (x & 3) {
                    case 0 -> 16;
                    case 1 -> 64;
                    case 2 -> 32;
                    default -> -1;
                };
                if (width < 0) {
                    return BAD;
                }
                pk.type = PtPacketType.MODE_EXEC;
                pk.count = x;
                pk.payload = width;
            }
            case 1 -> {
                if ((x & 3) == 3) {
                    return BAD;
                }
                pk.type = PtPacketType.MODE_TSX;
                pk.payload = x & 3;
            }
            default -> {
                return BAD;
            }
        }
        return 2;
    }

    private static int bip(byte[] b, int p, int n, int itemSize, PtPacket pk) {
        if (n < itemSize + 1) {
            return NEED_MORE;
        }
        pk.type = PtPacketType.BIP;
        pk.count = (b[p] & 0xff) >>> 3;
        pk.payload = le(b, p + 1, itemSize);
        return itemSize + 1;
    }

    /** The packets whose first byte is 0x02: the second byte says which. */
    private static int extended(byte[] b, int p, int n, PtPacket pk) {
        if (n < 2) {
            return NEED_MORE;
        }
        int x = b[p + 1] & 0xff;
        if ((x & 0x1f) == 0x12) {
            return ptwrite(b, p, n, x, pk);
        }
        return switch (x) {
            case 0xa3 -> longTnt(b, p, n, pk);
            case 0x43 -> fixed(PtPacketType.PIP, b, p, n, 8, 2, 6, pk);
            case 0x83 -> bare(PtPacketType.TRACESTOP, pk);
            case 0x03 -> fixed(PtPacketType.CBR, b, p, n, 4, 2, 2, pk);
            case 0xc8 -> fixed(PtPacketType.VMCS, b, p, n, 7, 2, 5, pk);
            case 0xf3 -> bare(PtPacketType.OVF, pk);
            case 0x82 -> psb(b, p, n, pk);
            case 0x23 -> bare(PtPacketType.PSBEND, pk);
            case 0x73 -> tma(b, p, n, pk);
            case 0xc3 -> threeByte(b, p, n, pk);
            case 0x62 -> bare(PtPacketType.EXSTOP, pk);
            case 0xe2 -> bare(PtPacketType.EXSTOP_IP, pk);
            case 0xc2 -> fixed(PtPacketType.MWAIT, b, p, n, 10, 2, 8, pk);
            case 0x22 -> fixed(PtPacketType.PWRE, b, p, n, 4, 2, 2, pk);
            case 0xa2 -> fixed(PtPacketType.PWRX, b, p, n, 7, 2, 5, pk);
            case 0x63 -> bbp(b, p, n, pk);
            case 0x33 -> bare(PtPacketType.BEP, pk);
            case 0xb3 -> bare(PtPacketType.BEP_IP, pk);
            case 0x13 -> cfe(b, p, n, pk);
            case 0x53 -> evd(b, p, n, pk);
            default -> BAD;
        };
    }

    /** PTWRITE: bits 6:5 of the second byte give the payload size (4 or 8 bytes), bit 7 the IP bit. */
    private static int ptwrite(byte[] b, int p, int n, int x, PtPacket pk) {
        int size = (x >>> 5) & 3;
        if (size > 1) {
            return BAD;
        }
        int k = size == 0 ? 4 : 8;
        if (n < k + 2) {
            return NEED_MORE;
        }
        pk.type = (x & 0x80) != 0 ? PtPacketType.PTWRITE_IP : PtPacketType.PTWRITE;
        pk.count = size;
        pk.payload = le(b, p + 2, k);
        return k + 2;
    }

    /** PSB: the pair 0x02 0x82 eight times. */
    private static int psb(byte[] b, int p, int n, PtPacket pk) {
        if (n < 16) {
            return NEED_MORE;
        }
        for (int i = 2; i < 16; i += 2) {
            if (b[p + i] != 2 || (b[p + i + 1] & 0xff) != 0x82) {
                return BAD;
            }
        }
        pk.type = PtPacketType.PSB;
        return 16;
    }

    /** TMA: CTC in bytes 2-3, FastCounter in byte 5 and bit 0 of byte 6. */
    private static int tma(byte[] b, int p, int n, PtPacket pk) {
        if (n < 7) {
            return NEED_MORE;
        }
        pk.type = PtPacketType.TMA;
        pk.payload = le(b, p + 2, 2);
        pk.count = (b[p + 5] & 0xff) | ((b[p + 6] & 1) << 8);
        return 7;
    }

    /** 0x02 0xc3 then a third opcode byte; only MNT (0x88) is defined. */
    private static int threeByte(byte[] b, int p, int n, PtPacket pk) {
        if (n < 3) {
            return NEED_MORE;
        }
        if ((b[p + 2] & 0xff) != 0x88) {
            return BAD;
        }
        return fixed(PtPacketType.MNT, b, p, n, 11, 3, 8, pk);
    }

    /** BBP: bit 7 of byte 2 says 4-byte items (else 8), bits 4:0 the block type. */
    private static int bbp(byte[] b, int p, int n, PtPacket pk) {
        if (n < 3) {
            return NEED_MORE;
        }
        int x = b[p + 2] & 0xff;
        pk.type = PtPacketType.BBP;
        pk.count = x >>> 7;
        pk.payload = x & 0x1f;
        return 3;
    }

    /** CFE: bit 7 of byte 2 the IP bit, bits 4:0 the type, byte 3 the vector. */
    private static int cfe(byte[] b, int p, int n, PtPacket pk) {
        if (n < 4) {
            return NEED_MORE;
        }
        int x = b[p + 2] & 0xff;
        pk.type = (x & 0x80) != 0 ? PtPacketType.CFE_IP : PtPacketType.CFE;
        pk.count = x & 0x1f;
        pk.payload = b[p + 3] & 0xff;
        return 4;
    }

    /** EVD: the type in bits 5:0 of byte 2, eight payload bytes after it. */
    private static int evd(byte[] b, int p, int n, PtPacket pk) {
        if (n < 11) {
            return NEED_MORE;
        }
        pk.type = PtPacketType.EVD;
        pk.count = b[p + 2] & 0x3f;
        pk.payload = le(b, p + 3, 8);
        return 11;
    }
}
