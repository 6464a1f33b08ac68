package io.perfj.intelpt;

import io.perfj.io.Bytes;
import io.perfj.io.TextOut;

/**
 * perf's dump of an Intel PT trace buffer under {@code perf report -D} (perf 6.1 intel-pt.c,
 * intel_pt_dump): a title line with the size, then one line per packet with its offset in the
 * buffer, its bytes (the folded PADs included) in columns for sixteen, and its description; bytes
 * that are no packet get a line each saying "Bad packet!".
 */
public final class PtPacketDump {
    private PtPacketDump() {
    }

    /** Prints the dump of {@code buffer} (the whole AUXTRACE payload). */
    public static void print(Bytes buffer, TextOut out) {
        out.str(".\n. ... Intel Processor Trace data: size ").udec(buffer.size()).str(" bytes\n");
        PtPacketReader r = PtPacketReader.lenient(buffer);
        for (long at = r.position(); ; at = r.position()) {
            PtPacket pk = r.next();
            if (pk == null) {
                break;
            }
            out.str(".  ").hexPad(at, 8).ch(':').ch(' ');
            int n = pk.length;
            for (int i = 0; i < n; i++) {
                out.ch(' ').hex2(r.byteOf(i));
            }
            out.spaces(3 * (16 - n)).ch(' ');
            if (pk.type == PtPacketType.BAD) {
                out.str("Bad packet!");
            } else {
                PtPacketText.describe(pk, out);
            }
            out.nl();
        }
    }
}
