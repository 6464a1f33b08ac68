package io.perfj.annotate;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of a listing of jitdump code as perf's annotate of the object perf inject writes reads:
 * branch targets named after the code's one symbol ({@code 2ad <NAME+0x22d>}), as objdump names them in that object (a listing of raw
 * bytes prints {@code 0x2ad}).
 */
final class JitSource {
    /** A direct branch or call whose operand is a bare address, as objdump prints it for raw bytes. */
    private static final Pattern BARE_TARGET = Pattern.compile("^(\\s*(?:j\\w+|call\\w*|loop\\w*)\\s+)0x([0-9a-f]+)\\s*$");
    /** objdump's comment with the address a rip-relative operand reaches. */
    private static final Pattern BARE_COMMENT = Pattern.compile("^(.*#\\s)0x([0-9a-f]+)\\s*$");

    private JitSource() {
    }

    /**
     * {@code insn} with a bare branch target, or the address in a rip-relative operand's comment,
     * at or above {@code symStart} written as {@code HEX <symbol+0xOFF>}.
     */
    static String namedTarget(String insn, long symStart, String symbol) {
        Matcher m = BARE_TARGET.matcher(insn);
        if (!m.find()) {
            m = BARE_COMMENT.matcher(insn);
            if (!m.find()) {
                return insn;
            }
        }
        long target = Long.parseUnsignedLong(m.group(2), 16);
        if (Long.compareUnsigned(target, symStart) < 0) {
            return insn;
        }
        long off = target - symStart;
        return m.group(1) + Long.toHexString(target) + " <" + symbol + (off == 0 ? "" : "+0x" + Long.toHexString(off)) + ">";
    }
}
