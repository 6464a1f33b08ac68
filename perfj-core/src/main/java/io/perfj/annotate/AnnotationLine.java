package io.perfj.annotate;

/**
 * One line of an annotation: an instruction (offset ≥ 0 into the symbol) or a line of text from
 * the disassembler's listing (offset -1: source file and line markers, source text, labels).
 * Instructions carry their parsed mnemonic and operands, as perf splits them, and the samples
 * that fell on them.
 */
public final class AnnotationLine {
    final long offset;
    final String line;
    final int lineNr;
    /** Mnemonic and operand text of an instruction ({@code null} for text lines). */
    String name;
    String raw;
    Instruction.Kind kind = Instruction.Kind.NONE;
    final Instruction.Operands ops = new Instruction.Operands();
    int jumpSources;

    /** Samples and period in [offset, next instruction); percentages by {@link PercentType}. */
    long samples;
    long period;
    final double[] percent = new double[4];
    /** The other group members' samples, period and percentages (by percent type), in group order. */
    long[] memberSamples = NONE;
    long[] memberPeriods = NONE;
    double[][] memberPercent = new double[0][];
    private static final long[] NONE = new long[0];

    AnnotationLine(long offset, String line, int lineNr) {
        this.offset = offset;
        this.line = line;
        this.lineNr = lineNr;
    }

    public long offset() {
        return offset;
    }

    public String line() {
        return line;
    }

    public boolean isInstruction() {
        return offset >= 0;
    }

    public long samples() {
        return samples;
    }

    public long period() {
        return period;
    }

    public double percent(PercentType t) {
        return percent[t.ordinal()];
    }

    /** The percentage of member {@code m} of the group shown (0: the leader, this line's own). */
    public double percent(int m, PercentType t) {
        return m == 0 ? percent(t) : memberPercent[m - 1][t.ordinal()];
    }

    /** The samples of member {@code m} of the group shown (0: the leader). */
    public long samples(int m) {
        return m == 0 ? samples : memberSamples[m - 1];
    }

    /** The period of member {@code m} of the group shown (0: the leader). */
    public long period(int m) {
        return m == 0 ? period : memberPeriods[m - 1];
    }

    public String mnemonic() {
        return name;
    }

    public String operands() {
        return raw;
    }

    public int jumpSources() {
        return jumpSources;
    }
}
