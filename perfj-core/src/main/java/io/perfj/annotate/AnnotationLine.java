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
