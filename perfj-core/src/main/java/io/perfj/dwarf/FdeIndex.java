package io.perfj.dwarf;

import io.perfj.io.Bytes;
import io.perfj.io.Cursor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * FDEs of one section sorted by start address, in primitive arrays: taken from the
 * {@code .eh_frame_hdr} binary search table (LSB 5.0 ".eh_frame_hdr") when there is one, else
 * built by walking every entry. {@link #find} binary-searches the starts and parses the one
 * candidate FDE.
 */
final class FdeIndex {
    private final FrameSection section;
    private final long[] starts;
    private final long[] offsets;
    /**
     * The FDEs parsed so far, by index: an unwinder asks for the same few at every frame. Filled
     * without locking: an FDE is immutable, so a thread sees either null (and parses it again) or
     * a complete one.
     */
    private final Fde[] parsed;

    private FdeIndex(FrameSection section, long[] starts, long[] offsets) {
        this.section = section;
        this.starts = starts;
        this.offsets = offsets;
        this.parsed = new Fde[starts.length];
    }

    int size() {
        return starts.length;
    }

    /** Walks the whole section and sorts its FDEs. */
    static FdeIndex scan(FrameSection section) {
        List<Fde> all = allFdes(section);
        int n = all.size();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparing((Integer i) -> all.get(i).pcBegin(), Long::compareUnsigned));
        long[] s = new long[n];
        long[] o = new long[n];
        for (int i = 0; i < n; i++) {
            Fde f = all.get(order[i]);
            s[i] = f.pcBegin();
            o[i] = f.offset();
        }
        return new FdeIndex(section, s, o);
    }

    /** Every FDE in section order (CIEs parsed on the way; zero terminators skipped). */
    static List<Fde> allFdes(FrameSection section) {
        List<Fde> out = new ArrayList<>();
        Bytes data = section.data();
        long off = 0;
        while (off < data.size()) {
            FrameSection.Header h = section.header(off);
            if (h.kind() == FrameSection.Kind.TERMINATOR && section.isEhFrame()) {
                break; // .eh_frame ends at its zero terminator
            }
            if (h.kind() == FrameSection.Kind.FDE) {
                out.add(section.parseFde(h));
            } else if (h.kind() == FrameSection.Kind.CIE) {
                section.cie(off);
            }
            off = h.next();
        }
        return out;
    }

    /**
     * The {@code .eh_frame_hdr} search table; empty when the header has no table (or one in an
     * encoding that cannot be used), in which case the caller scans.
     *
     * @param hdr        the header section's bytes
     * @param hdrAddress its virtual address (datarel base of the table)
     * @param ehAddress  the virtual address of {@code .eh_frame}
     */
    static Optional<FdeIndex> fromHeader(FrameSection section, Bytes hdr, long hdrAddress, long ehAddress) {
        Cursor c = hdr.cursor();
        long at = c.position();
        int version = c.u8();
        if (version != 1) {
            throw hdr.error(at, "unsupported .eh_frame_hdr version " + version);
        }
        int ehPtrEnc = c.u8();
        int countEnc = c.u8();
        int tableEnc = c.u8();
        PointerEncoding.Bases base = section.bases();
        PointerEncoding.Bases hb = new PointerEncoding.Bases(hdrAddress, base.textBase(), hdrAddress,
                base.addressSize(), null);
        if (ehPtrEnc != PointerEncoding.OMIT) {
            PointerEncoding.read(c, ehPtrEnc, hb, false);
        }
        if (countEnc == PointerEncoding.OMIT || tableEnc == PointerEncoding.OMIT
                || (tableEnc & PointerEncoding.INDIRECT) != 0) {
            return Optional.empty();
        }
        long countAt = c.position();
        long rawCount = PointerEncoding.read(c, countEnc, hb, false);
        int n = c.count(rawCount, 2, ".eh_frame_hdr FDE");
        long[] s = new long[n];
        long[] o = new long[n];
        boolean sorted = true;
        for (int i = 0; i < n; i++) {
            s[i] = PointerEncoding.read(c, tableEnc, hb, false);
            long fdeAddr = PointerEncoding.read(c, tableEnc, hb, false);
            o[i] = fdeAddr - ehAddress;
            if (o[i] < 0 || o[i] >= section.data().size()) {
                throw hdr.error(countAt, "search table entry " + i + " points outside .eh_frame (0x"
                        + Long.toHexString(fdeAddr) + ")");
            }
            if (i > 0 && Long.compareUnsigned(s[i - 1], s[i]) > 0) {
                sorted = false;
            }
        }
        if (!sorted) {
            throw hdr.error(countAt, ".eh_frame_hdr search table is not sorted");
        }
        return Optional.of(new FdeIndex(section, s, o));
    }

    /** The FDE covering {@code pc}. */
    Optional<Fde> find(long pc) {
        int lo = 0;
        int hi = starts.length - 1;
        int best = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], pc) <= 0) {
                best = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        // several FDEs may share a start (e.g. an empty one); try each of them
        for (int i = best; i >= 0 && starts[i] == starts[best]; i--) {
            Fde f = parsed[i];
            if (f == null) {
                f = section.fde(offsets[i]);
                parsed[i] = f;
            }
            if (f.contains(pc)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
