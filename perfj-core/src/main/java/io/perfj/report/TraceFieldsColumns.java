package io.perfj.report;

import io.perfj.trace.FormatField;

import java.util.Arrays;

/**
 * The columns of perf report's {@code -s trace_fields} (its dynamic sort keys, sort.c): one per
 * field of the event, right-aligned. As perf does it, a column's text is cut out of the
 * formatted trace, from the first space-separated word that starts with the field's name, after
 * the name and one character, up to the next space (so {@code next_comm=VM Thread} shows
 * {@code VM}, and {@code fd: 0x1} shows nothing); without such a word the field is printed raw.
 * Rows compare by the fields' bytes, descending; a column is as wide as its name, its field (a
 * number's hex digits plus 0x) and its longest text.
 */
public final class TraceFieldsColumns {
    private TraceFieldsColumns() {
    }

    /** The word of {@code text} for field {@code name} (sort.c's scan of the pretty-printed trace), or null. */
    public static String fromText(String text, String name) {
        int at = 0;
        while (at <= text.length()) {
            int sp = text.indexOf(' ', at);
            int end = sp < 0 ? text.length() : sp;
            if (text.startsWith(name, at)) {
                int from = Math.min(at + name.length() + 1, end);
                return text.substring(from, end);
            }
            if (sp < 0) {
                return null;
            }
            at = sp + 1;
        }
        return null;
    }

    /**
     * A column's width before its texts widen it: the field's name, or its printed size (a
     * string's or array's bytes, a number's hex digits and 0x). Only texts cut out of the
     * formatted trace widen it; a field printed raw is cut to the width.
     */
    static int minWidth(FormatField f) {
        return Math.max(f.name().length(), f.string() || f.array() ? f.size() : f.size() * 2 + 2);
    }

    /** Rows by their fields' bytes, descending (perf's order of rows of equal period); no fields: equal. */
    public static int order(byte[][] a, byte[][] b) {
        if (a == null || b == null) {
            return 0;
        }
        for (int k = 0; k < Math.min(a.length, b.length); k++) {
            int c = Arrays.compareUnsigned(b[k], a[k]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
