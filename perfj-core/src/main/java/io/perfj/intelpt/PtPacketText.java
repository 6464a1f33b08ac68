package io.perfj.intelpt;

import io.perfj.io.TextOut;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A packet as perf's packet dump describes it (perf 6.1 intel-pt-pkt-decoder.c,
 * intel_pt_pkt_desc): the name, then the fields in perf's words (an IP packet's payload is its
 * compressed bytes, not the IP they make).
 */
final class PtPacketText {
    private PtPacketText() {
    }

    static String describe(PtPacket pk) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        TextOut out = new TextOut(b, 256);
        describe(pk, out);
        out.flush();
        return b.toString(StandardCharsets.US_ASCII);
    }

    static void describe(PtPacket pk, TextOut out) {
        long v = pk.payload;
        out.str(pk.type.label());
        switch (pk.type) {
            case BAD, PAD, PSB, PSBEND, TRACESTOP, OVF -> {
            }
            case TNT -> {
                out.ch(' ');
                for (int i = 0; i < pk.count; i++) {
                    out.ch(v < 0 ? 'T' : 'N');
                    v <<= 1;
                }
                out.str(" (").dec(pk.count).ch(')');
            }
            case TIP, TIP_PGE, TIP_PGD, FUP -> {
                if (pk.count == 0) {
                    out.str(" no ip");
                } else {
                    hex(out.ch(' '), v);
                }
            }
            case CYC, VMCS, MTC, MNT, CBR, TSC -> hex(out.ch(' '), v);
            case TMA -> hex(hex(out.str(" CTC "), v & 0xffff_ffffL).str(" FC "), pk.count);
            case MODE_EXEC -> out.str(" IF:").dec((pk.count >> 2) & 1).ch(' ').dec(v);
            case MODE_TSX -> out.str(" TXAbort:").dec((v >> 1) & 1).str(" InTX:").dec(v & 1);
            case PIP -> hex(out.ch(' '), (v & ~1L) >>> 1).str(" (NR=").dec(v & 1).ch(')');
            case PTWRITE -> hex(out.ch(' '), v).str(" IP:0");
            case PTWRITE_IP -> hex(out.ch(' '), v).str(" IP:1");
            case BEP, EXSTOP -> out.str(" IP:0");
            case BEP_IP, EXSTOP_IP -> out.str(" IP:1");
            case MWAIT -> hex(hex(hex(out.ch(' '), v).str(" Hints "), v & 0xff).str(" Extensions "), (v >>> 32) & 3);
            case PWRE -> hex(out.ch(' '), v).str(" HW:").dec((v & 0x80) != 0 ? 1 : 0).str(" CState:")
                    .dec((v >>> 12) & 0xf).str(" Sub-CState:").dec((v >>> 8) & 0xf);
            case PWRX -> hex(hex(out.ch(' '), v).str(" Last CState:").dec((v >>> 4) & 0xf).str(" Deepest CState:")
                    .dec(v & 0xf).str(" Wake Reason "), (v >>> 8) & 0xf);
            case BBP -> hex(out.str(" SZ ").str(pk.count != 0 ? "4" : "8").str("-byte Type "), v);
            case BIP -> hex(hex2(out.str(" ID "), pk.count).str(" Value "), v);
            case CFE, CFE_IP -> hex(hex2(out.str(" IP:").dec(pk.type == PtPacketType.CFE_IP ? 1 : 0).str(" Type "),
                    pk.count).str(" Vector "), v);
            case EVD -> hex(hex2(out.str(" Type "), pk.count).str(" Payload "), v);
        }
    }

    /** C's {@code 0x%llx}: "0x0" for zero, unlike {@code %#llx}. */
    private static TextOut hex(TextOut out, long v) {
        return out.ch('0').ch('x').hex(v);
    }

    /** C's {@code 0x%02x}. */
    private static TextOut hex2(TextOut out, long v) {
        return out.ch('0').ch('x').hexPad(v, 2);
    }
}
