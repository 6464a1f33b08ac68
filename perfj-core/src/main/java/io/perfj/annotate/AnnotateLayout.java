package io.perfj.annotate;

/**
 * The layout details of {@code perf annotate}'s text views that changed between perf versions,
 * chosen once per command.
 *
 * @param lineMarkers  whether objdump runs with {@code -l}, so the listing has the
 *                     {@code name():} and {@code file:line} lines above the instructions
 * @param hideStdio2Source whether {@code --stdio2} leaves out the listing's text lines (source,
 *                     section and label lines) unless asked to show them
 * @param percentWidth the width of one event's percent (or sample count) column in
 *                     {@code --stdio2}, its trailing space included
 * @param padsToLine   whether each {@code --stdio2} line ends with as many blanks as it has
 *                     characters before them (perf 7.2's empty data-type column, printed with the
 *                     negated width left over); otherwise perf 6.1's padding
 */
public record AnnotateLayout(boolean lineMarkers, boolean hideStdio2Source, int percentWidth, boolean padsToLine) {
    /**
     * perf 7.2's: objdump without {@code -l} (its {@code annotate.show_linenr} is off by default),
     * {@code --stdio2} without text lines ({@code annotate.hide_src_code} is on by default),
     * {@code %7.2f } percentages.
     */
    public static final AnnotateLayout CURRENT = new AnnotateLayout(false, true, 8, true);
    /**
     * perf 6.1's: objdump with {@code -l}, {@code --stdio2} with every listing line,
     * {@code %6.2f } percentages. Also the full listing that {@code --json} and top's page show.
     */
    public static final AnnotateLayout PERF_6_1 = new AnnotateLayout(true, false, 7, false);

    /** Whether text lines are left out of {@code --stdio} ({@code false}) or {@code --stdio2} by default. */
    public boolean hidesSource(boolean stdio) {
        return !stdio && hideStdio2Source;
    }

    /** {@code --stdio2}: what follows the percent columns ({@code pcnt} wide) and a blank on an empty line. */
    String emptyLine(int pcnt) {
        return Instruction.pad(" ", padsToLine ? pcnt + 1 : pcnt);
    }

    /** {@code --stdio2}: a text line after its {@code prefix} blanks (where an address would be). */
    String textLine(String line, int pcnt, int prefix) {
        return Instruction.pad(line, prefix + pcnt + (padsToLine ? 1 : -1));
    }

    /** {@code --stdio2}: an instruction's text after its address field ({@code prefix} wide) and arrow. */
    String instruction(String insn, int pcnt, int prefix) {
        if (padsToLine) {
            // the blank data-type column, as wide as everything printed before it
            return insn + Instruction.pad(" ", pcnt + 1 + prefix + 2 + insn.length());
        }
        return Instruction.pad(insn, pcnt + 3 + prefix);
    }
}
