package io.perfj.compat;

import java.nio.charset.StandardCharsets;

/**
 * perf 6.1's stdio report formats each column header and each callchain entry's name into a
 * 1024-byte buffer ({@code scnprintf}), so a text of 1024 bytes or more prints cut to its first
 * 1023: a symbol column header widened by a long name stops there while the dotted line under it
 * keeps the full width, and a long name in a callchain prints cut. The rows themselves print
 * whole. (perf 7.2 does the same.)
 *
 * <p>Mirrors: {@code hists__fprintf_headers}' buffer (ui/stdio/hist.c) and
 * {@code callchain_list__sym_name}'s callers ({@code ipchain__fprintf_graph},
 * {@code __callchain__fprintf_flat}, {@code __callchain__fprintf_folded}).
 */
public final class PerfStdioBuffers {
    /** The buffers' size in bytes, the terminating NUL included. */
    public static final int SIZE = 1024;

    private PerfStdioBuffers() {
    }

    /**
     * {@code s} as it comes out of the buffer: at most {@code SIZE - 1} bytes of UTF-8 (a
     * character the cut would split is left out whole).
     */
    public static String fit(String s) {
        if (s.length() < SIZE / 4) {
            return s;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length < SIZE) {
            return s;
        }
        int end = SIZE - 1;
        while (end > 0 && (b[end] & 0xc0) == 0x80) {
            end--;
        }
        return new String(b, 0, end, StandardCharsets.UTF_8);
    }
}
