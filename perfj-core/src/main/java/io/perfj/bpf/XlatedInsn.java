package io.perfj.bpf;

import io.perfj.perfdata.feature.BpfProg;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One instruction of an xlated dump with what bpftool prints before it: a function header
 * (from func_info) and a source line (from line_info), then the instruction itself.
 *
 * @param index      instruction number (slot index; a 64-bit load takes two slots)
 * @param insn       the decoded instruction
 * @param slots      1, or 2 for a 64-bit immediate load
 * @param subprog    the sub-program it belongs to (index into func_info / jited_ksyms), 0 without func_info
 * @param function   the function header printed before it, without the trailing ':'
 * @param printedLine the line_info record whose source line is printed before it
 * @param line       the line_info record in effect at this instruction (the last one starting
 *                   at or before it), for annotation
 * @param sourceLine the source line as printed ({@code "; text"}, with the file and position with linum)
 * @param text       the instruction as printed, without the {@code "%4d: "} prefix
 * @param opcodes    the raw bytes line of bpftool's {@code opcodes} option (without its indent)
 */
public record XlatedInsn(int index, BpfInsn insn, int slots, int subprog, Optional<String> function,
                         Optional<BpfProg.LineInfo> printedLine, Optional<BpfProg.LineInfo> line,
                         Optional<String> sourceLine, String text, String opcodes) {

    /** The lines printed before the instruction (header, source), in order. */
    public List<String> before() {
        List<String> l = new ArrayList<>(2);
        function.ifPresent(f -> l.add(f + ":"));
        sourceLine.ifPresent(l::add);
        return l;
    }

    /** The instruction line as bpftool prints it, e.g. {@code "   0: (79) r2 = *(u64 *)(r1 +0)"}. */
    public String numbered(Syntax syntax) {
        String n = Integer.toString(index);
        StringBuilder sb = new StringBuilder(n.length() + 6 + text.length());
        if (syntax == Syntax.BPFTOOL_7_1 && n.length() >= 4) {
            sb.append(' '); // "% 4d": the space flag adds a blank once the width is used up
        }
        for (int i = n.length(); i < 4; i++) {
            sb.append(' ');
        }
        return sb.append(n).append(": ").append(text).toString();
    }
}
