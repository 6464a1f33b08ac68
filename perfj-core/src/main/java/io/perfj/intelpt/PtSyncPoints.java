package io.perfj.intelpt;

import io.perfj.io.Bytes;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The PSB+ sync points of one trace buffer, in order: what perf's decoder reads at each PSB
 * before it walks on (perf 6.1 intel-pt-decoder.c, intel_pt_walk_psb), and where it resyncs after
 * an error or a gap. A PSB+ ends at its PSBEND, or at the first packet that may not be inside one
 * (then the buffer is damaged; the values read so far count).
 */
public final class PtSyncPoints {
    private PtSyncPoints() {
    }

    /** The sync points of {@code buffer}; bytes that are no packet are stepped over. */
    public static List<PtSyncPoint> of(Bytes buffer) {
        List<PtSyncPoint> out = new ArrayList<>();
        PtPacketReader r = PtPacketReader.lenient(buffer);
        long at = r.position();
        PtPacket pk = r.next();
        while (pk != null) {
            if (pk.type != PtPacketType.PSB) {
                at = r.position();
                pk = r.next();
                continue;
            }
            long psb = at;
            OptionalLong tsc = OptionalLong.empty();
            OptionalLong ip = OptionalLong.empty();
            OptionalLong cr3 = OptionalLong.empty();
            int cbr = 0;
            int exec = 0;
            boolean inside = true;
            while (inside) {
                at = r.position();
                pk = r.next();
                if (pk == null) {
                    break;
                }
                switch (pk.type) {
                    case TSC -> tsc = OptionalLong.of(pk.payload);
                    case CBR -> cbr = (int) (pk.payload & 0xff);
                    case FUP -> ip = pk.count == 0 ? ip : OptionalLong.of(PtIp.decompress(pk.count, pk.payload, 0));
                    case MODE_EXEC -> exec = (int) pk.payload;
                    case PIP -> cr3 = OptionalLong.of((pk.payload >>> 1) << 5);
                    case PAD, TMA, MTC, CYC, VMCS, MODE_TSX, MNT -> {
                    }
                    // PSBEND, or a packet no PSB+ holds (looked at again by the outer loop: it may be a PSB)
                    default -> inside = false;
                }
            }
            out.add(new PtSyncPoint(psb, tsc, cbr, ip, exec, cr3));
        }
        return out;
    }
}
