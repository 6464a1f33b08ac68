package io.perfj.bpf;

import io.perfj.perfdata.feature.BpfProg;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A program's xlated dump as {@code bpftool --json prog dump xlated} prints it (bpftool
 * src/xlated_dumper.c {@code dump_xlated_json} through its json_writer.c): an array with one
 * object per instruction holding {@code proto} (function header), {@code src} (source line;
 * with linum also {@code file} and non-zero {@code line_num}/{@code line_col}), {@code disasm}
 * and with opcodes an {@code opcodes} object. {@code pretty} is bpftool's {@code -p}. String
 * escaping follows the syntax's bpftool: 7.1 writes a backslash as {@code \n} and escapes
 * single quotes; newer ones do neither.
 */
public final class XlatedJson {
    private XlatedJson() {
    }

    /** Writes the array and bpftool's final newline. */
    public static void print(BpfProg prog, BtfText btf, KernelSymbols symbols, XlatedPrinter.Options o,
                             boolean pretty, Appendable out) {
        Writer w = new Writer(out, pretty, o.syntax() == Syntax.BPFTOOL_7_1);
        byte[] raw = prog.xlatedInsns();
        try {
            w.startArray();
            for (XlatedInsn x : XlatedPrinter.instructions(prog, btf, symbols, o)) {
                w.startObject();
                if (x.function().isPresent()) {
                    w.name("proto");
                    w.string(x.function().get());
                }
                if (x.printedLine().isPresent()) {
                    BpfProg.LineInfo li = x.printedLine().get();
                    btf.string(li.lineOff()).ifPresent(s -> {
                        w.name("src");
                        w.string(ltrim(s));
                    });
                    if (o.linum()) {
                        btf.string(li.fileNameOff()).ifPresent(s -> {
                            w.name("file");
                            w.string(s);
                        });
                        if (li.line() != 0) {
                            w.name("line_num");
                            w.raw(Long.toString(li.line()));
                        }
                        if (li.column() != 0) {
                            w.name("line_col");
                            w.raw(Long.toString(li.column()));
                        }
                    }
                }
                w.name("disasm");
                w.raw("\"" + x.text() + "\"");
                if (o.opcodes()) {
                    BpfInsn i = x.insn();
                    w.name("opcodes");
                    w.startObject();
                    w.name("code");
                    w.raw(String.format("\"0x%02x\"", i.code()));
                    w.name("src_reg");
                    w.raw("\"0x" + Integer.toHexString(i.src()) + "\"");
                    w.name("dst_reg");
                    w.raw("\"0x" + Integer.toHexString(i.dst()) + "\"");
                    int p = x.index() * BpfInsn.SIZE;
                    w.name("off");
                    hex(w, raw, p + 2, 2);
                    w.name("imm");
                    hex(w, raw, p + 4, x.slots() == 2 ? 12 : 4);
                    w.endObject();
                }
                w.endObject();
            }
            w.endArray();
            out.append('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void hex(Writer w, byte[] raw, int from, int len) {
        w.startArray();
        for (int k = from; k < from + len && k < raw.length; k++) {
            w.raw(String.format("\"0x%02x\"", raw[k] & 0xff));
        }
        w.endArray();
    }

    private static String ltrim(String s) {
        int i = 0;
        while (i < s.length() && (s.charAt(i) == ' ' || (s.charAt(i) >= '\t' && s.charAt(i) <= '\r'))) {
            i++;
        }
        return s.substring(i);
    }

    /** bpftool's json_writer: separator and indentation state. */
    private static final class Writer {
        private final Appendable out;
        private final boolean pretty;
        private final boolean old;
        private int depth;
        private char sep;

        Writer(Appendable out, boolean pretty, boolean old) {
            this.out = out;
            this.pretty = pretty;
            this.old = old;
        }

        private void put(CharSequence s) {
            try {
                out.append(s);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void eol() {
            if (pretty) {
                put("\n" + "    ".repeat(depth));
            }
        }

        private void eor() {
            if (sep != 0) {
                put(String.valueOf(sep));
            }
            sep = ',';
        }

        void startArray() {
            begin('[');
        }

        void startObject() {
            begin('{');
        }

        void endArray() {
            end(']');
        }

        void endObject() {
            end('}');
        }

        private void begin(char c) {
            eor();
            put(String.valueOf(c));
            depth++;
            sep = 0;
        }

        private void end(char c) {
            depth--;
            if (sep != 0) {
                eol();
            }
            put(String.valueOf(c));
            sep = ',';
        }

        void name(String n) {
            eor();
            eol();
            sep = 0;
            quoted(n);
            put(pretty ? ": " : ":");
        }

        void string(String v) {
            eor();
            quoted(v);
        }

        void raw(String v) {
            eor();
            put(v);
        }

        private void quoted(String s) {
            StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '\t' -> sb.append("\\t");
                    case '\n' -> sb.append("\\n");
                    case '\r' -> sb.append("\\r");
                    case '\f' -> sb.append("\\f");
                    case '\b' -> sb.append("\\b");
                    case '\\' -> sb.append(old ? "\\n" : "\\\\");
                    case '"' -> sb.append("\\\"");
                    case '\'' -> sb.append(old ? "\\'" : "'");
                    default -> sb.append(c);
                }
            }
            put(sb.append('"'));
        }
    }
}
