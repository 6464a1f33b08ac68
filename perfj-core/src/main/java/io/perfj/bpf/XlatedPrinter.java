package io.perfj.bpf;

import io.perfj.perfdata.feature.BpfProg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A program's translated (xlated) instructions as {@code bpftool prog dump xlated} prints them
 * (bpftool src/xlated_dumper.c {@code dump_xlated_plain}): a {@code "NAME(ARGS):"} header where
 * func_info starts a function, a {@code "; source"} line where libbpf's line-info walk
 * ({@code bpf_prog_linfo__lfind} with a skip count) finds one, then {@code "%4d: "} and the
 * instruction in the kernel's syntax ({@link InsnFormatter}), calls and map references named
 * by {@link XlatedCallbacks}.
 *
 * <p>{@link #instructions} gives the same content one instruction at a time (for annotation);
 * {@link #print} writes the dump.
 */
public final class XlatedPrinter {
    private XlatedPrinter() {
    }

    /**
     * @param linum   append {@code [file:F line_num:N line_col:C]} to source lines (bpftool's {@code linum})
     * @param opcodes print each instruction's bytes under it (bpftool's {@code opcodes})
     * @param syntax  which disassembler to follow
     * @param order   byte order of the recording (of the instructions)
     */
    public record Options(boolean linum, boolean opcodes, Syntax syntax, ByteOrder order) {
        /** Plain dump, kernel 6.18 syntax, little-endian. */
        public static final Options DEFAULT = new Options(false, false, Syntax.KERNEL, ByteOrder.LITTLE_ENDIAN);

        public Options withLinum(boolean v) {
            return new Options(v, opcodes, syntax, order);
        }

        public Options withOpcodes(boolean v) {
            return new Options(linum, v, syntax, order);
        }

        public Options withSyntax(Syntax v) {
            return new Options(linum, opcodes, v, order);
        }

        public Options withOrder(ByteOrder v) {
            return new Options(linum, opcodes, syntax, v);
        }
    }

    /**
     * The program's instructions with their headers and source lines. {@code symbols} names
     * helper/kfunc calls (kallsyms); the program's own sub-programs are named from the
     * recording when {@code symbols} does not know their addresses.
     */
    public static List<XlatedInsn> instructions(BpfProg prog, BtfText btf, KernelSymbols symbols, Options o) {
        BpfInsn[] insns = BpfInsn.decodeAll(prog.xlatedInsns(), o.order());
        KernelSymbols syms = symbols.with(BpfProgSymbols.byAddress(prog, btf));
        XlatedCallbacks cb = new XlatedCallbacks(syms, prog.jitedKsyms(), o.syntax());
        List<BpfProg.FuncInfo> funcs = prog.funcInfo();
        List<BpfProg.LineInfo> lines = btf.present() ? prog.lineInfo() : List.of();
        List<XlatedInsn> out = new ArrayList<>(insns.length);
        int record = 0;
        int nrSkip = 0;
        int subprog = -1;
        int inEffect = -1;
        for (int i = 0; i < insns.length; i++) {
            BpfInsn insn = insns[i];
            Optional<String> function = Optional.empty();
            if (btf.present() && record < funcs.size() && funcs.get(record).insnOff() == i) {
                String sig = btf.typeOnly(funcs.get(record).typeId());
                if (!sig.isEmpty()) {
                    function = Optional.of(sig);
                }
                record++;
            }
            while (subprog + 1 < funcs.size() && funcs.get(subprog + 1).insnOff() <= i) {
                subprog++;
            }
            Optional<BpfProg.LineInfo> printed = Optional.empty();
            Optional<String> source = Optional.empty();
            int found = lfind(lines, i, nrSkip);
            if (found >= 0) {
                BpfProg.LineInfo li = lines.get(found);
                printed = Optional.of(li);
                source = sourceLine(btf, li, o.linum());
                nrSkip++;
            }
            while (inEffect + 1 < lines.size() && lines.get(inEffect + 1).insnOff() <= i) {
                inEffect++;
            }
            boolean wide = insn.isLdImm64();
            BpfInsn next = wide && i + 1 < insns.length ? insns[i + 1] : null;
            String text = InsnFormatter.format(insn, next, cb, o.syntax());
            String opcodes = hex(prog.xlatedInsns(), i, next != null);
            out.add(new XlatedInsn(i, insn, wide ? 2 : 1, Math.max(subprog, 0), function, printed,
                    inEffect >= 0 ? Optional.of(lines.get(inEffect)) : Optional.empty(), source, text, opcodes));
            if (wide) {
                i++;
            }
        }
        return out;
    }

    /** {@link #instructions(BpfProg, BtfText, KernelSymbols, Options)} with the BTF model (null: no BTF). */
    public static List<XlatedInsn> instructions(BpfProg prog, io.perfj.btf.Btf btf, KernelSymbols symbols, Options o) {
        return instructions(prog, btf == null ? BtfText.NONE : BtfSignatures.of(btf), symbols, o);
    }

    /**
     * Writes the dump with the BTF model (null: no BTF) in the kernel's syntax, little-endian
     * instructions; {@code linum} as bpftool's option.
     */
    public static void print(BpfProg prog, io.perfj.btf.Btf btf, KernelSymbols symbols, boolean linum, Appendable out) {
        print(prog, btf == null ? BtfText.NONE : BtfSignatures.of(btf), symbols, Options.DEFAULT.withLinum(linum), out);
    }

    /** Writes the dump, one line per header, source line and instruction. */
    public static void print(BpfProg prog, BtfText btf, KernelSymbols symbols, Options o, Appendable out) {
        try {
            for (XlatedInsn x : instructions(prog, btf, symbols, o)) {
                for (String s : x.before()) {
                    out.append(s).append('\n');
                }
                out.append(x.numbered(o.syntax())).append('\n');
                if (o.opcodes()) {
                    out.append("       ").append(x.opcodes()).append('\n');
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The dump as a string. */
    public static String toString(BpfProg prog, BtfText btf, KernelSymbols symbols, Options o) {
        StringBuilder sb = new StringBuilder();
        print(prog, btf, symbols, o, sb);
        return sb.toString();
    }

    /**
     * libbpf's {@code bpf_prog_linfo__lfind}: if record {@code nrSkip} starts at or before
     * {@code insnOff}, the last record from there on that does; else none (-1).
     */
    static int lfind(List<BpfProg.LineInfo> lines, long insnOff, int nrSkip) {
        if (nrSkip >= lines.size() || insnOff < lines.get(nrSkip).insnOff()) {
            return -1;
        }
        int i = nrSkip;
        while (i < lines.size() && insnOff >= lines.get(i).insnOff()) {
            i++;
        }
        return i - 1;
    }

    /** bpftool's {@code btf_dump_linfo_plain} with prefix "; ". */
    static Optional<String> sourceLine(BtfText btf, BpfProg.LineInfo li, boolean linum) {
        Optional<String> text = btf.string(li.lineOff());
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String line = ltrim(text.get());
        if (!linum) {
            return Optional.of("; " + line);
        }
        String file = btf.string(li.fileNameOff()).orElse("");
        return Optional.of("; " + line + " [file:" + file + " line_num:" + li.line() + " line_col:" + li.column() + "]");
    }

    private static String ltrim(String s) {
        int i = 0;
        while (i < s.length() && isCSpace(s.charAt(i))) {
            i++;
        }
        return s.substring(i);
    }

    private static boolean isCSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
    }

    private static String hex(byte[] b, int index, boolean wide) {
        StringBuilder sb = new StringBuilder(wide ? 47 : 23);
        int start = index * BpfInsn.SIZE;
        int end = start + (wide ? 2 : 1) * BpfInsn.SIZE;
        for (int p = start; p < end && p < b.length; p++) {
            if (p > start) {
                sb.append(' ');
            }
            int v = b[p] & 0xff;
            if (v < 0x10) {
                sb.append('0');
            }
            sb.append(Integer.toHexString(v));
        }
        return sb.toString();
    }
}
