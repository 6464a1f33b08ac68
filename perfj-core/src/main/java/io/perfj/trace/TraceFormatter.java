package io.perfj.trace;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Formats a tracepoint sample's raw data (PERF_SAMPLE_RAW) by its event's print fmt, as perf 6.1's
 * libtraceevent prints the event's "info" in perf script: numbers read in the recording's byte
 * order and long size, C printf conversions, {@code __print_flags}/{@code __print_symbolic},
 * dynamic strings and arrays, {@code %ps} through the kernel's symbols. An event whose print fmt
 * did not parse prints {@code [FAILED TO PARSE]} and its fields as {@code name=value}. Data
 * shorter than a field reads that field as 0 and warns once per event.
 */
public final class TraceFormatter {
    private final int longSize;
    private final boolean bigEndian;
    private final TreeMap<Long, byte[]> printk = new TreeMap<>();
    private final KernelFunctions functions;
    private final Consumer<String> warn;
    private final String source;
    private final Set<String> warned = new HashSet<>();

    /**
     * A formatter for the events of {@code td}; {@code warn} receives one line per problem (an
     * event whose data is shorter than its format says), naming {@code source}.
     */
    public TraceFormatter(TracingData td, KernelFunctions functions, String source, Consumer<String> warn) {
        this.longSize = td.longSize() == 4 ? 4 : 8;
        this.bigEndian = td.bigEndian();
        this.functions = functions == null ? KernelFunctions.NONE : functions;
        this.source = source;
        this.warn = warn;
        for (String line : td.printk().split("\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String a = line.substring(0, colon).strip();
            if (a.startsWith("0x") || a.startsWith("0X")) {
                a = a.substring(2);
            }
            try {
                long addr = Long.parseUnsignedLong(a, 16);
                String f = line.substring(colon + 1);
                f = f.startsWith(" ") ? f.substring(1) : f;
                if (f.startsWith("\"")) {
                    f = f.substring(1);
                }
                if (f.endsWith("\"")) {
                    f = f.substring(0, f.length() - 1);
                }
                if (f.endsWith("\\n")) {
                    f = f.substring(0, f.length() - 2);
                }
                printk.put(addr, f.getBytes(StandardCharsets.UTF_8));
            } catch (NumberFormatException e) {
                // not an address line: libtraceevent skips it too
            }
        }
    }

    /** One event's data being formatted. */
    private final class Run {
        final EventFormat ev;
        final byte[] d;

        Run(EventFormat ev, byte[] d) {
            this.ev = ev;
            this.d = d;
        }

        long read(int off, int size) {
            if (off < 0 || off + size > d.length) {
                return 0;
            }
            long v = 0;
            switch (size) {
                case 1, 2, 4, 8 -> {
                    for (int i = 0; i < size; i++) {
                        int b = d[off + (bigEndian ? i : size - 1 - i)] & 0xff;
                        v = (v << 8) | b;
                    }
                }
                default -> v = 0;
            }
            return v;
        }

        boolean beyond(FormatField f, int off, int size) {
            if (off + size <= d.length) {
                return false;
            }
            if (warned.add(ev.fullName() + ":" + f.name())) {
                warn.accept(source + ": tracing_data event format " + ev.fullName() + ": field " + f.name()
                        + " (offset 0x" + Integer.toHexString(off) + ", size " + size
                        + ") goes beyond the sample's raw data (" + d.length + " bytes)");
            }
            return true;
        }

        /** {@code __data_loc}: offset in the low 16 bits, length in the high 16; {@code __rel_loc} counts from the field's end. */
        int[] dynamic(FormatField f) {
            if (f == null) {
                return new int[] {0, 0}; // __get_str of a field the format lacks prints nothing
            }
            if (f.offset() + f.size() > d.length) {
                beyond(f, f.offset(), f.size());
                return new int[] {0, 0};
            }
            long v = read(f.offset(), f.size());
            int o = (int) (v & 0xffff);
            int l = f.size() == 2 ? d.length - o : (int) ((v >>> 16) & 0xffff);
            int off = o > d.length ? 0 : o;
            int len = o + l > d.length ? 0 : l;
            if (f.relative()) {
                off += f.offset() + f.size();
            }
            return new int[] {off, len};
        }

        long num(PrintArg a) {
            return switch (a) {
                case PrintArg.Atom atom -> strtoull(atom.text());
                case PrintArg.Field fa -> {
                    FormatField f = fa.field();
                    yield beyond(f, f.offset(), f.size()) ? 0 : read(f.offset(), f.size());
                }
                case PrintArg.Cast c -> castValue(c.type(), num(c.item()));
                case PrintArg.Ternary t -> num(t.cond()) != 0 ? num(t.then()) : num(t.otherwise());
                case PrintArg.DynArrayLen l -> dynamic(l.field())[1];
                case PrintArg.DynArray da -> dynamic(da.field())[0];
                case PrintArg.Op op -> op(op);
                default -> 0;
            };
        }

        long op(PrintArg.Op op) {
            if (op.op().equals("[")) {
                long idx = num(op.right());
                PrintArg l = op.left();
                String cast = null;
                while (l instanceof PrintArg.Cast c) {
                    cast = cast == null ? c.type() : cast;
                    l = c.item();
                }
                int off;
                int size;
                FormatField f;
                if (l instanceof PrintArg.DynArray da) {
                    f = da.field();
                    off = (int) (dynamic(f)[0] + idx);
                    size = f.elementSize() > 0 && !f.dynamic() ? f.elementSize() : longSize;
                } else if (l instanceof PrintArg.Field fa) {
                    f = fa.field();
                    size = f.elementSize();
                    off = (int) (f.offset() + idx * size);
                } else {
                    return binary(op);
                }
                if (beyond(f, off, size)) {
                    return 0;
                }
                long v = read(off, size);
                return cast == null ? v : castValue(cast.endsWith("*") ? cast.substring(0, cast.length() - 1).strip() : cast, v);
            }
            return binary(op);
        }

        long binary(PrintArg.Op op) {
            long l = op.left() == null ? 0 : num(op.left());
            long r = num(op.right());
            return switch (op.op()) {
                case "!" -> r == 0 ? 1 : 0;
                case "!=" -> l != r ? 1 : 0;
                case "~" -> ~r;
                case "|" -> l | r;
                case "||" -> (l != 0 || r != 0) ? 1 : 0;
                case "&" -> l & r;
                case "&&" -> (l != 0 && r != 0) ? 1 : 0;
                case "^" -> 0; // libtraceevent has no '^': it warns and reads 0
                case "<" -> Long.compareUnsigned(l, r) < 0 ? 1 : 0;
                case "<<" -> l << r;
                case "<=" -> Long.compareUnsigned(l, r) <= 0 ? 1 : 0;
                case ">" -> Long.compareUnsigned(l, r) > 0 ? 1 : 0;
                case ">>" -> l >>> r;
                case ">=" -> Long.compareUnsigned(l, r) >= 0 ? 1 : 0;
                case "==" -> l == r ? 1 : 0;
                case "-" -> l - r;
                case "+" -> l + r;
                case "/" -> r == 0 ? 0 : Long.divideUnsigned(l, r);
                case "%" -> r == 0 ? 0 : Long.remainderUnsigned(l, r);
                case "*" -> l * r;
                default -> 0;
            };
        }

        /** print_str_arg: what a {@code %s} (or a pointer's text) prints for {@code a}, with {@code spec} applied to each piece. */
        void str(ByteSink out, String spec, int star, PrintArg a) {
            switch (a) {
                case PrintArg.Atom atom -> CFormat.string(out, spec, atom.text().getBytes(StandardCharsets.UTF_8), star);
                case PrintArg.Field fa -> {
                    FormatField f = fa.field();
                    if (!f.array() && f.size() == longSize) {
                        long addr = longSize == 8 ? read(f.offset(), 8) : read(f.offset(), 4);
                        byte[] p = printk.get(addr);
                        out.put(p != null ? p : Long.toHexString(addr).getBytes(StandardCharsets.US_ASCII));
                        return;
                    }
                    int len = f.size() != 0 ? f.size() : d.length - f.offset();
                    if (beyond(f, f.offset(), len)) {
                        len = Math.max(0, d.length - f.offset());
                    }
                    CFormat.string(out, spec, Arrays.copyOfRange(d, Math.min(f.offset(), d.length),
                            Math.min(f.offset(), d.length) + len), star);
                }
                case PrintArg.Flags fl -> {
                    long val = num(fl.value());
                    boolean printed = false;
                    for (PrintArg.Sym s : fl.flags()) {
                        long fval = evalFlag(s.value());
                        if (val == 0 && fval < 0) {
                            CFormat.string(out, spec, s.name().getBytes(StandardCharsets.UTF_8), star);
                            break;
                        }
                        if (fval > 0 && (val & fval) == fval) {
                            if (printed) {
                                out.put(fl.delim());
                            }
                            CFormat.string(out, spec, s.name().getBytes(StandardCharsets.UTF_8), star);
                            printed = true;
                            val &= ~fval;
                        }
                    }
                    if (val != 0) {
                        if (printed) {
                            out.put(fl.delim());
                        }
                        out.put("0x" + Long.toHexString(val));
                    }
                }
                case PrintArg.Symbolic sy -> {
                    long val = num(sy.value());
                    for (PrintArg.Sym s : sy.symbols()) {
                        if (val == evalFlag(s.value())) {
                            CFormat.string(out, spec, s.name().getBytes(StandardCharsets.UTF_8), star);
                            return;
                        }
                    }
                    out.put("0x" + Long.toHexString(val));
                }
                case PrintArg.DynString ds -> {
                    int[] ol = dynamic(ds.field());
                    if (ol[1] == 0) {
                        return;
                    }
                    CFormat.string(out, spec, Arrays.copyOfRange(d, ol[0], d.length), star);
                }
                case PrintArg.Bitmask bm -> {
                    if (bm.field() == null) {
                        return;
                    }
                    int[] ol = dynamic(bm.field());
                    CFormat.string(out, spec, bitmask(ol[0], ol[1]), star);
                }
                case PrintArg.Hex h -> {
                    int off = bufferOffset(h.buf());
                    long len = num(h.len());
                    for (long i = 0; i < len && off + i < d.length && off >= 0; i++) {
                        if (i > 0 && !h.together()) {
                            out.put(' ');
                        }
                        out.put(String.format("%02x", d[(int) (off + i)] & 0xff));
                    }
                }
                case PrintArg.IntArray ia -> {
                    int off = bufferOffset(ia.array());
                    long len = num(ia.count());
                    int el = (int) num(ia.elementSize());
                    out.put('{');
                    for (long i = 0; i < len; i++) {
                        if (i > 0) {
                            out.put(',');
                        }
                        if (el == 1 || el == 2 || el == 4 || el == 8) {
                            out.put("0x" + Long.toHexString(read(off, el)));
                        } else {
                            out.put("BAD SIZE:" + el + " 0x" + Long.toHexString(read(off, 1)));
                            el = 1;
                        }
                        off += el;
                    }
                    out.put('}');
                }
                case PrintArg.Ternary t -> str(out, spec, star, num(t.cond()) != 0 ? t.then() : t.otherwise());
                default -> {
                    // an operator or a cast in a string's place prints nothing in libtraceevent
                }
            }
        }

        int bufferOffset(PrintArg a) {
            if (a instanceof PrintArg.DynArray da) {
                return dynamic(da.field())[0];
            }
            if (a instanceof PrintArg.Field f) {
                return f.field().offset();
            }
            return 0;
        }

        /** The kernel's bitmask text: hex digits, most significant first, a comma every 32 bits. */
        byte[] bitmask(int off, int size) {
            int bits = size * 8;
            int strSize = (bits + 3) / 4 + (bits - 1) / 32;
            if (size <= 0) {
                return new byte[0];
            }
            byte[] s = new byte[strSize];
            int len = 0;
            for (int i = strSize - 2; i >= 0; i -= 2) {
                int index = bigEndian ? size - (len + 1) : len;
                int b = off + index < d.length ? d[off + index] & 0xff : 0;
                s[i] = (byte) Character.forDigit(b >> 4, 16);
                s[i + 1] = (byte) Character.forDigit(b & 15, 16);
                len++;
                if ((len & 3) == 0 && i > 0) {
                    i--;
                    s[i] = ',';
                }
            }
            return s;
        }

        void pointer(ByteSink out, PrintFormat.Conversion c) {
            String spec = c.spec();
            int p = spec.indexOf('p');
            if (p + 2 < spec.length() && (spec.charAt(p + 1) == 'I' || spec.charAt(p + 1) == 'i')) {
                ipAddress(out, spec.substring(p + 1), c.arg());
                return;
            }
            if (p + 1 < spec.length() && spec.charAt(p + 1) == 'U') {
                uuid(out, c.arg());
                return;
            }
            char kind = spec.charAt(spec.length() - 1);
            long v = num(c.arg());
            if (kind == 's' || kind == 'S' || kind == 'f' || kind == 'F') {
                KernelFunctions.Function f = functions.find(v);
                if (f != null) {
                    out.put(f.name());
                    if (kind == 'S' || kind == 'F') {
                        out.put("+0x" + Long.toHexString(v - f.start()));
                    }
                } else {
                    out.put("0x" + Long.toHexString(longSize == 4 ? v & 0xffff_ffffL : v));
                }
                return;
            }
            CFormat.pointer(out, v);
        }

        /**
         * The field a %pU/%pI argument names (through casts); null, having printed
         * libtraceevent's complaint, when it is no field.
         */
        FormatField fieldArg(ByteSink out, PrintArg a) {
            while (a instanceof PrintArg.Cast c) {
                a = c.item();
            }
            if (!(a instanceof PrintArg.Field fa)) {
                out.put("ARG TYPE NOT FIELD");
                return null;
            }
            return fa.field();
        }

        /**
         * {@code %pU}: a 16-byte field as libtraceevent prints a UUID, its bytes in stored
         * order in lower-case hex, grouped 4-2-2-2-6 ({@code 5a0b7b1e-2f3c-4d5e-8f90-123456789abc}).
         */
        void uuid(ByteSink out, PrintArg a) {
            FormatField f = fieldArg(out, a);
            if (f == null) {
                return;
            }
            if (f.size() != 16 || f.offset() + 16 > d.length) {
                out.put("INVALIDUUID");
                return;
            }
            for (int j = 0; j < 16; j++) {
                out.put(String.format("%02x", d[f.offset() + j] & 0xff));
                if (j == 3 || j == 5 || j == 7 || j == 9) {
                    out.put('-');
                }
            }
        }

        /** {@code %pI4 %pi4 %pI6 %pi6 %pI6c} of a 4- or 16-byte field, as the kernel's vsprintf prints them. */
        void ipAddress(ByteSink out, String kind, PrintArg a) {
            FormatField f = fieldArg(out, a);
            if (f == null) {
                return;
            }
            boolean v4 = kind.charAt(1) == '4';
            if (f.size() != (v4 ? 4 : 16) || f.offset() + f.size() > d.length) {
                out.put(v4 ? "INVALIDIPv4" : "INVALIDIPv6");
                return;
            }
            int o = f.offset();
            if (v4) {
                char order = kind.length() > 2 ? kind.charAt(2) : 'n';
                boolean reverse = order == 'l' || (order == 'h' && !bigEndian);
                ip4(out, kind.charAt(0) == 'i', reverse, o);
            } else if (kind.length() > 2 && kind.charAt(2) == 'c') {
                ip6Compressed(out, o);
            } else {
                for (int j = 0; j < 16; j += 2) {
                    out.put(String.format("%02x%02x", d[o + j] & 0xff, d[o + j + 1] & 0xff));
                    if (kind.charAt(0) == 'I' && j < 14) {
                        out.put(':');
                    }
                }
            }
        }

        void ip4(ByteSink out, boolean zeros, boolean reverse, int o) {
            for (int k = 0; k < 4; k++) {
                int b = d[o + (reverse ? 3 - k : k)] & 0xff;
                if (k > 0) {
                    out.put('.');
                }
                out.put(zeros ? String.format("%03d", b) : Integer.toString(b));
            }
        }

        /** RFC 5952 form: the longest run of two or more zero words as "::", a v4-mapped or ISATAP tail dotted. */
        void ip6Compressed(ByteSink out, int o) {
            int[] w = new int[8];
            for (int k = 0; k < 8; k++) {
                w[k] = ((d[o + 2 * k] & 0xff) << 8) | (d[o + 2 * k + 1] & 0xff);
            }
            boolean mapped = w[0] == 0 && w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0xffff;
            boolean isatap = (w[4] | 0x0200) == 0x0200 && w[5] == 0x5efe;
            boolean v4 = mapped || isatap;
            int range = v4 ? 6 : 8;
            int longest = 1;
            int colonpos = -1;
            for (int i = 0; i < range; i++) {
                int run = 0;
                for (int j = i; j < range && w[j] == 0; j++) {
                    run++;
                }
                if (run > longest) {
                    longest = run;
                    colonpos = i;
                }
            }
            boolean needColon = false;
            for (int i = 0; i < range; i++) {
                if (i == colonpos) {
                    if (needColon || i == 0) {
                        out.put(':');
                    }
                    out.put(':');
                    needColon = false;
                    i += longest - 1;
                    continue;
                }
                if (needColon) {
                    out.put(':');
                }
                out.put(Integer.toHexString(w[i]));
                needColon = true;
            }
            if (v4) {
                if (needColon) {
                    out.put(':');
                }
                ip4(out, false, false, o + 12);
            }
        }

        void rawField(ByteSink out, FormatField f) {
            if (f.array()) {
                int off = f.offset();
                int len = f.size();
                if (f.dynamic() || f.relative()) {
                    int[] ol = dynamic(f);
                    off = ol[0];
                    len = ol[1];
                }
                // a damaged format can put the field past the record's data: nothing of it is there
                off = Math.max(0, Math.min(off, d.length));
                len = Math.max(0, Math.min(len, d.length - off));
                if (f.string() && printable(off, len)) {
                    CFormat.string(out, "%s", Arrays.copyOfRange(d, off, d.length), 0);
                } else {
                    out.put("ARRAY[");
                    for (int i = 0; i < len; i++) {
                        if (i > 0) {
                            out.put(", ");
                        }
                        out.put(String.format("%02x", d[off + i] & 0xff));
                    }
                    out.put(']');
                }
                return;
            }
            long v = beyond(f, f.offset(), f.size()) ? 0 : read(f.offset(), f.size());
            if (f.pointer()) {
                out.put("0x" + Long.toHexString(v));
            } else if (f.signed()) {
                switch (f.size()) {
                    case 4 -> out.put(f.isLong() ? "0x" + Integer.toHexString((int) v) : Integer.toString((int) v));
                    case 2 -> CFormat.number(out, "%2d", (short) v, 0);
                    case 1 -> out.put(Integer.toString((byte) v));
                    default -> out.put(Long.toString(v));
                }
            } else {
                out.put(f.isLong() ? "0x" + Long.toHexString(v) : Long.toUnsignedString(v));
            }
        }

        boolean printable(int off, int len) {
            for (int i = 0; i < len && off + i < d.length && d[off + i] != 0; i++) {
                int c = d[off + i] & 0xff;
                if (!(c >= 0x20 && c < 0x7f) && !(c == ' ' || (c >= 9 && c <= 13))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Appends one field of the raw data as libtraceevent's tep_print_field prints it. */
    public void field(EventFormat ev, byte[] data, FormatField f, ByteSink out) {
        new Run(ev, data).rawField(out, f);
    }

    /**
     * The bytes perf compares a field by (sort.c, __sort__hde_cmp): a dynamic field's data where
     * its u32 locator points, any other field's bytes at its offset (clamped to the data).
     */
    public static byte[] fieldBytes(byte[] data, FormatField f) {
        int off = f.offset();
        int len = f.size();
        if ((f.dynamic() || f.relative()) && off >= 0 && off + 4 <= data.length) {
            int loc = (data[off] & 0xff) | (data[off + 1] & 0xff) << 8 | (data[off + 2] & 0xff) << 16
                    | (data[off + 3] & 0xff) << 24;
            int start = (loc & 0xffff) + (f.relative() ? off + f.size() : 0);
            len = (loc >>> 16) & 0xffff;
            off = start;
        }
        off = Math.max(0, Math.min(off, data.length));
        len = Math.max(0, Math.min(len, data.length - off));
        return Arrays.copyOfRange(data, off, off + len);
    }

    /** Appends the event's text for the raw data {@code data} to {@code out}. */
    public void format(EventFormat ev, byte[] data, ByteSink out) {
        Run r = new Run(ev, data);
        if (ev.print() == null) {
            out.put("[FAILED TO PARSE]");
            for (FormatField f : ev.fields()) {
                out.put(' ').put(f.name()).put('=');
                r.rawField(out, f);
            }
            return;
        }
        for (PrintFormat.Part p : ev.print().parts()) {
            switch (p) {
                case PrintFormat.Literal l -> out.put(l.text());
                case PrintFormat.Conversion c -> conversion(r, c, out);
            }
        }
    }

    private static void conversion(Run r, PrintFormat.Conversion c, ByteSink out) {
        int star = c.widthArg() == null ? 0 : (int) r.num(c.widthArg());
        switch (c.kind()) {
            case NUMBER -> CFormat.number(out, c.spec(), r.num(c.arg()), star);
            case POINTER -> r.pointer(out, c);
            case STRING -> r.str(out, c.spec(), star, c.arg());
        }
    }

    /**
     * Appends one field as the event's print format prints it: by the first conversion whose
     * argument is the field itself (casts aside), after a {@code 0x} when the text before that
     * conversion ends in one ({@code "0x%lx", REC->ret} prints {@code 0x3}). An array, a string
     * or a field no conversion prints alone is printed raw, as {@link #field}.
     */
    public void fieldAsPrinted(EventFormat ev, byte[] data, FormatField f, ByteSink out) {
        Run r = new Run(ev, data);
        if (ev.print() != null && !f.array() && !f.string()) {
            boolean after0x = false;
            for (PrintFormat.Part p : ev.print().parts()) {
                if (p instanceof PrintFormat.Literal l) {
                    int n = l.text().length;
                    after0x = n >= 2 && l.text()[n - 2] == '0' && l.text()[n - 1] == 'x';
                    continue;
                }
                PrintFormat.Conversion c = (PrintFormat.Conversion) p;
                PrintArg a = c.arg();
                while (a instanceof PrintArg.Cast cast) {
                    a = cast.item();
                }
                if (a instanceof PrintArg.Field pf && pf.field().name().equals(f.name())) {
                    if (after0x) {
                        out.put("0x");
                    }
                    conversion(r, c, out);
                    return;
                }
                after0x = false;
            }
        }
        r.rawField(out, f);
    }

    /** C's strtoull with base 0 on the leading part of {@code s} (a name reads as 0). */
    static long strtoull(String s) {
        int i = 0;
        int n = s.length();
        int base = 10;
        if (n > 1 && s.charAt(0) == '0' && (s.charAt(1) == 'x' || s.charAt(1) == 'X')) {
            base = 16;
            i = 2;
        } else if (n > 0 && s.charAt(0) == '0') {
            base = 8;
        }
        long v = 0;
        for (; i < n; i++) {
            int dgt = Character.digit(s.charAt(i), base);
            if (dgt < 0) {
                break;
            }
            long nv = v * base + dgt;
            if (Long.compareUnsigned(Long.divideUnsigned(nv - dgt, base), v) != 0) {
                return -1; // ULLONG_MAX on overflow
            }
            v = nv;
        }
        return v;
    }

    /** libtraceevent's eval_flag: a number as written, a softirq/hrtimer name it knows, else -1. */
    static long evalFlag(String v) {
        if (!v.isEmpty() && Character.isDigit(v.charAt(0))) {
            return strtoull(v);
        }
        int k = KNOWN_NAMES.indexOf(v);
        return k < 0 ? -1 : KNOWN_VALUES[k];
    }

    private static final List<String> KNOWN_NAMES = List.of("HI_SOFTIRQ", "TIMER_SOFTIRQ", "NET_TX_SOFTIRQ",
            "NET_RX_SOFTIRQ", "BLOCK_SOFTIRQ", "IRQ_POLL_SOFTIRQ", "TASKLET_SOFTIRQ", "SCHED_SOFTIRQ", "HRTIMER_SOFTIRQ",
            "RCU_SOFTIRQ", "HRTIMER_NORESTART", "HRTIMER_RESTART");
    private static final long[] KNOWN_VALUES = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1};

    /** libtraceevent's eval_type_str: a cast to a sized integer type truncates; others keep the value. */
    static long castValue(String type, long v) {
        String t = type.strip();
        if (t.length() < 2 || t.endsWith("*") || t.startsWith("struct")) {
            return v;
        }
        switch (t) {
            case "u8", "s8" -> {
                return v & 0xff;
            }
            case "u16", "s16" -> {
                return v & 0xffff;
            }
            case "u32", "s32" -> {
                return v & 0xffff_ffffL;
            }
            default -> {
            }
        }
        if (t.startsWith("unsigned ")) {
            t = t.substring(9);
        }
        return switch (t) {
            case "char" -> v & 0xff;
            case "short" -> v & 0xffff;
            case "int" -> v & 0xffff_ffffL;
            default -> v;
        };
    }
}
