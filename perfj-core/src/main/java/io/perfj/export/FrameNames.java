package io.perfj.export;

import java.util.ArrayList;
import java.util.List;

/**
 * How {@code stackcollapse-perf.pl} (FlameGraph, default options) names one frame line of
 * {@code perf script}, {@code ip sym+off (object)}: the text is split at its last
 * {@code " ("}, so a name or object that holds one splits where the script splits it.
 */
final class FrameNames {
    private FrameNames() {
    }

    /**
     * The names of a frame with symbol {@code symbol} (null: none, printed {@code [unknown]}) in
     * {@code object}, outermost first; {@code java}: the sample's command starts with "java".
     */
    static List<String> of(String symbol, String object, boolean java) {
        // the text between the address and the end, as script prints it
        String text = (symbol == null ? "[unknown]" : symbol + "+0x0") + " (" + object + ")";
        int close = text.lastIndexOf(')');
        int open = text.lastIndexOf(" (", close - 2);
        if (open < 1) {
            return List.of(); // not a frame line to the script: nothing of it is kept
        }
        String raw = stripOffset(text.substring(0, open));
        String mod = text.substring(open + 2, close);
        if (raw.startsWith("(")) {
            return List.of(); // a process name, not a function
        }
        List<String> out = new ArrayList<>(1);
        for (String part : splitArrows(raw)) {
            String f = part;
            if (f.equals("[unknown]")) {
                f = mod.equals("[unknown]") ? "[unknown]" : "[" + mod.substring(mod.lastIndexOf('/') + 1) + "]";
            }
            f = tidy(f);
            if (java && f.indexOf('/') >= 0 && f.startsWith("L")) {
                f = f.substring(1);
            }
            if (!out.isEmpty() && !f.contains("_[i]")) {
                f = f + "_[i]"; // the second and later functions of one frame were inlined
            }
            out.add(f);
        }
        return out;
    }

    /** Drops a trailing {@code +0x<hex digits>}. */
    private static String stripOffset(String s) {
        int end = s.length();
        int i = end;
        while (i > 0 && isHexDigit(s.charAt(i - 1))) {
            i--;
        }
        if (i < end && i >= 3 && s.startsWith("+0x", i - 3)) {
            return s.substring(0, i - 3);
        }
        return s;
    }

    private static boolean isHexDigit(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f';
    }

    /** Parts between {@code ->}; empty parts at the end dropped, as Perl's split drops them. */
    private static List<String> splitArrows(String s) {
        List<String> parts = new ArrayList<>(1);
        int from = 0;
        for (int at; (at = s.indexOf("->", from)) >= 0; from = at + 2) {
            parts.add(s.substring(from, at));
        }
        parts.add(s.substring(from));
        while (!parts.isEmpty() && parts.getLast().isEmpty()) {
            parts.removeLast();
        }
        return parts;
    }

    /**
     * {@code ;} as {@code :}; everything from the first {@code (} that does not open
     * {@code (anonymous namespace)} dropped, unless the name looks like a Go method
     * ({@code .(} ... {@code ).}); quotes dropped.
     */
    private static String tidy(String name) {
        String f = name.replace(';', ':');
        if (!goMethod(f)) {
            for (int i = f.indexOf('('); i >= 0; i = f.indexOf('(', i + 1)) {
                if (!f.startsWith("anonymous namespace)", i + 1)) {
                    f = f.substring(0, i);
                    break;
                }
            }
        }
        if (f.indexOf('"') >= 0 || f.indexOf('\'') >= 0) {
            f = f.replace("\"", "").replace("'", "");
        }
        return f;
    }

    private static boolean goMethod(String f) {
        int open = f.indexOf(".(");
        return open >= 0 && f.indexOf(").", open + 2) >= 0;
    }
}
