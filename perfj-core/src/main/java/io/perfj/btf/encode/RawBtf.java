package io.perfj.btf.encode;

import io.perfj.btf.wire.Header;
import io.perfj.btf.wire.Kinds;
import io.perfj.btf.wire.StringSectionBuilder;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Serializes a {@link TypeTable} as raw BTF ({@code include/uapi/linux/btf.h}: the 24-byte
 * header, the type section, the string section; written by the wire layer's {@link Header} and
 * {@link StringSectionBuilder}). The types name their strings by {@link StringPool} id; strings
 * are laid out in order of first use by the types, after the empty string, each once.
 */
final class RawBtf {
    private RawBtf() {
    }

    static byte[] write(TypeTable t, StringPool pool, ByteOrder order) {
        String[] strings = pool.snapshot();
        int[] offsetOf = new int[strings.length];
        Arrays.fill(offsetOf, -1);
        offsetOf[0] = 0;
        StringSectionBuilder str = new StringSectionBuilder(0, 1 << 16);
        long typeLen = 0;
        for (int id = 1; id <= t.count; id++) {
            int[] w = t.words(id);
            Kinds.forEachName(w, t.pos(id), at -> {
                int s = w[at];
                if (offsetOf[s] < 0) {
                    offsetOf[s] = str.append(strings[s]);
                }
            });
            typeLen += 4L * Kinds.words(t.info(id));
        }
        byte[] strBytes = str.toByteArray();
        ByteBuffer out = Header.allocate(typeLen, strBytes.length, order);
        boolean[] isName = new boolean[3 + 3 * 0xffff];
        for (int id = 1; id <= t.count; id++) {
            int[] w = t.words(id);
            int p = t.pos(id);
            int len = Kinds.words(w[p + 1]);
            Kinds.forEachName(w, p, at -> isName[at - p] = true);
            for (int i = 0; i < len; i++) {
                out.putInt(isName[i] ? offsetOf[w[p + i]] : w[p + i]);
                isName[i] = false;
            }
        }
        out.put(strBytes);
        return out.array();
    }
}
