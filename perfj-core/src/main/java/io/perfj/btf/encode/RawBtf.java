package io.perfj.btf.encode;

import io.perfj.btf.wire.Header;
import io.perfj.btf.wire.Kinds;
import io.perfj.btf.wire.StringSectionBuilder;
import io.perfj.btf.wire.TypeSection;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Serializes the encoder's types as raw BTF ({@code include/uapi/linux/btf.h}: the 24-byte
 * header, the type section, the string section). The types name their strings by
 * {@link StringPool} id; strings are laid out in order of first use by the types, after the
 * empty string, each once.
 */
final class RawBtf {
    private RawBtf() {
    }

    static byte[] write(TypeSection t, StringPool pool, ByteOrder order) {
        String[] strings = pool.snapshot();
        int[] offsetOf = new int[strings.length];
        Arrays.fill(offsetOf, -1);
        offsetOf[0] = 0;
        StringSectionBuilder str = new StringSectionBuilder(0, 1 << 16);
        // the wire words: the pool ids of name words replaced by string offsets
        int[] w = Arrays.copyOf(t.words(), t.wordCount());
        for (int id = t.first(); id < t.end(); id++) {
            Kinds.forEachName(w, t.start(id), at -> {
                int s = w[at];
                if (offsetOf[s] < 0) {
                    offsetOf[s] = str.append(strings[s]);
                }
                w[at] = offsetOf[s];
            });
        }
        byte[] strBytes = str.toByteArray();
        ByteBuffer out = Header.allocate(4L * w.length, strBytes.length, order);
        out.asIntBuffer().put(w);
        out.position(out.position() + 4 * w.length);
        out.put(strBytes);
        return out.array();
    }
}
