package io.perfj.btf.encode;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Serializes a {@link TypeTable} as raw BTF ({@code include/uapi/linux/btf.h}: the 24-byte
 * header, the type section, the string section). Strings are laid out in order of first use by
 * the types, after the empty string, each once.
 */
final class RawBtf {
    private RawBtf() {
    }

    static byte[] write(TypeTable t, StringPool pool, ByteOrder order) {
        String[] strings = pool.snapshot();
        int[] offsetOf = new int[strings.length];
        java.util.Arrays.fill(offsetOf, -1);
        offsetOf[0] = 0;
        ByteArrayOutputStream str = new ByteArrayOutputStream(1 << 16);
        str.write(0);
        int[] w = t.w;
        for (int id = 1; id <= t.count; id++) {
            BtfWords.forEachName(w, t.start[id], at -> {
                int s = w[at];
                if (offsetOf[s] < 0) {
                    offsetOf[s] = str.size();
                    byte[] b = strings[s].getBytes(StandardCharsets.UTF_8);
                    str.write(b, 0, b.length);
                    str.write(0);
                }
            });
        }
        int typeLen = 0;
        for (int id = 1; id <= t.count; id++) {
            typeLen += 4 * BtfWords.length(t.info(id));
        }
        byte[] strBytes = str.toByteArray();
        ByteBuffer out = ByteBuffer.allocate(24 + typeLen + strBytes.length).order(order);
        out.putShort((short) 0xeB9F).put((byte) 1).put((byte) 0).putInt(24);
        out.putInt(0).putInt(typeLen).putInt(typeLen).putInt(strBytes.length);
        for (int id = 1; id <= t.count; id++) {
            int p = t.start[id];
            int len = BtfWords.length(w[p + 1]);
            int[] names = new int[len];
            BtfWords.forEachName(w, p, at -> names[at - p] = 1);
            for (int i = 0; i < len; i++) {
                out.putInt(names[i] != 0 ? offsetOf[w[p + i]] : w[p + i]);
            }
        }
        out.put(strBytes);
        return out.array();
    }
}
