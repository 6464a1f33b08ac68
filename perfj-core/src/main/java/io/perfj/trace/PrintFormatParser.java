package io.perfj.trace;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses a {@code print fmt:} line ({@code "format", arg, arg, ...}) into a {@link PrintFormat}:
 * the arguments as C expressions over {@code REC->field} with the helpers of the kernel's
 * {@code TP_printk} ({@code __print_flags}, {@code __print_symbolic}, {@code __get_str}, ...), the
 * format string cut as libtraceevent cuts it. What it cannot parse is a {@link ParseError}, which
 * makes the event's fields print as {@code name=value} pairs instead.
 */
final class PrintFormatParser {
    /** A print fmt that perfj cannot evaluate; the message says what and where. */
    static final class ParseError extends Exception {
        private static final long serialVersionUID = 1L;

        ParseError(String message) {
            super(message, null, false, false);
        }
    }

    private enum T { IDENT, STRING, CHAR, OP, DELIM, END }

    private record Tok(T type, String text) {
    }

    private final List<Tok> toks;
    private final EventFormat event;
    private int p;

    private PrintFormatParser(List<Tok> toks, EventFormat event) {
        this.toks = toks;
        this.event = event;
    }

    static PrintFormat parse(String printFmt, EventFormat event) throws ParseError {
        PrintFormatParser ps = new PrintFormatParser(tokenize(printFmt), event);
        if (ps.peek().type != T.STRING) {
            throw new ParseError("print fmt does not start with a quoted format");
        }
        String fmt = ps.read().text;
        List<PrintArg> args = ps.args();
        return cut(fmt, args);
    }

    // ------------------------------------------------------------------ format string ----

    /** Cuts the format as libtraceevent's parse_args does, pairing each conversion with its argument. */
    private static PrintFormat cut(String f, List<PrintArg> args) throws ParseError {
        List<PrintFormat.Part> parts = new ArrayList<>();
        int next = 0;
        int i = 0;
        ByteArrayOutputStream lit = new ByteArrayOutputStream();
        while (i < f.length()) {
            char c = f.charAt(i);
            if (c == '\\' && i + 1 < f.length()) {
                char e = f.charAt(i + 1);
                lit.write(switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    default -> e;
                });
                i += 2;
                continue;
            }
            if (c != '%') {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                lit.write(b, 0, b.length);
                i++;
                continue;
            }
            if (i + 1 < f.length() && f.charAt(i + 1) == '%') {
                lit.write('%');
                i += 2;
                continue;
            }
            if (lit.size() > 0) {
                parts.add(new PrintFormat.Literal(lit.toByteArray()));
                lit.reset();
            }
            int start = i;
            i++;
            PrintArg width = null;
            PrintFormat.Part part = null;
            while (i < f.length() && part == null) {
                char s = f.charAt(i);
                switch (s) {
                    case '#', 'h', 'l', 'L', 'z', 'Z', '.', '-', '+' -> i++;
                    case '*' -> {
                        if (next >= args.size() || width != null) {
                            throw new ParseError("no argument for '*' in " + f.substring(start, i + 1));
                        }
                        width = args.get(next++);
                        i++;
                    }
                    case 'p' -> {
                        if (next >= args.size()) {
                            throw new ParseError("no argument for " + f.substring(start, i + 1));
                        }
                        int extra = pointerSuffix(f, i + 1);
                        i += 1 + extra;
                        part = new PrintFormat.Conversion(f.substring(start, i), PrintFormat.Kind.POINTER,
                                args.get(next++), width);
                    }
                    case 'c', 'd', 'u', 'i', 'x', 'X', 'o', 's' -> {
                        if (next >= args.size()) {
                            throw new ParseError("no argument for " + f.substring(start, i + 1));
                        }
                        i++;
                        part = new PrintFormat.Conversion(f.substring(start, i),
                                s == 's' ? PrintFormat.Kind.STRING : PrintFormat.Kind.NUMBER, args.get(next++), width);
                    }
                    default -> {
                        if (s >= '0' && s <= '9') {
                            i++;
                        } else {
                            // libtraceevent prints a conversion it does not know as >c<
                            i++;
                            part = new PrintFormat.Literal((">" + s + "<").getBytes(StandardCharsets.UTF_8));
                        }
                    }
                }
            }
            if (part != null) {
                parts.add(part);
            }
        }
        if (lit.size() > 0) {
            parts.add(new PrintFormat.Literal(lit.toByteArray()));
        }
        return new PrintFormat(List.copyOf(parts));
    }

    /**
     * The letters after {@code %p} that belong to it: {@code s S f F} (functions),
     * {@code I4 i4} with an optional byte order letter, {@code I6 i6 I6c} (addresses),
     * {@code U Ub} (a UUID); others are
     * text after a plain pointer, as in libtraceevent.
     */
    private static int pointerSuffix(String f, int at) throws ParseError {
        if (at >= f.length()) {
            return 0;
        }
        char c = f.charAt(at);
        return switch (c) {
            case 'F', 'S', 'f', 's' -> 1;
            case 'I', 'i' -> {
                char v = at + 1 < f.length() ? f.charAt(at + 1) : 0;
                char o = at + 2 < f.length() ? f.charAt(at + 2) : 0;
                if (v == '4') {
                    yield "hnbl".indexOf(o) >= 0 && o != 0 ? 3 : 2;
                }
                if (v == '6') {
                    yield c == 'I' && o == 'c' ? 3 : 2;
                }
                throw new ParseError("%p" + c + (v == 0 ? "" : String.valueOf(v)) + " is not supported");
            }
            case 'U' -> {
                // libtraceevent prints a 16-byte field in its stored order, lower case; the
                // kernel's other orders and cases (%pUB, %pUl, %pUL) are not known to match
                char v = at + 1 < f.length() ? f.charAt(at + 1) : 0;
                if (v == 'B' || v == 'l' || v == 'L') {
                    throw new ParseError("%pU" + v + " is not supported");
                }
                yield v == 'b' ? 2 : 1;
            }
            case 'M', 'm', 'h' -> throw new ParseError("%p" + c + " is not supported");
            default -> 0;
        };
    }

    // --------------------------------------------------------------------- expressions ----
    //
    // The argument parser follows libtraceevent's (event-parse.c: process_arg, process_op,
    // process_paren, process_cond) step by step rather than C's grammar, because perf prints
    // what that parser builds: it rotates operators by priority without regard to parentheses,
    // so `a & (b | c)` evaluates as `(a & b) | c`, and a ternary's else branch stops at the
    // first operator.

    private enum K { NULL, ATOM, FIELD, OP, TYPE, FLAGS, SYMBOL, STRING, DYNARRAY, DYNARRAY_LEN, BITMASK, HEX, HEXSTR, INTARRAY }

    /** libtraceevent's struct tep_print_arg: mutable, because its parser swaps nodes' contents. */
    private static final class Node {
        K kind = K.NULL;
        String text;
        FormatField field;
        Node left;
        Node right;
        int prio;
        String delim;
        List<PrintArg.Sym> syms;
        Node third;

        void copyFrom(Node o) {
            kind = o.kind;
            text = o.text;
            field = o.field;
            left = o.left;
            right = o.right;
            prio = o.prio;
            delim = o.delim;
            syms = o.syms;
            third = o.third;
        }

        Node copy() {
            Node n = new Node();
            n.copyFrom(this);
            return n;
        }
    }

    private Tok peek() {
        return toks.get(p);
    }

    private Tok read() {
        Tok t = toks.get(p);
        if (t.type != T.END) {
            p++;
        }
        return t;
    }

    private static boolean is(Tok t, T type, String text) {
        return t.type == type && t.text.equals(text);
    }

    private static void want(Tok t, T type, String text) throws ParseError {
        if (!is(t, type, text)) {
            throw new ParseError("expected '" + text + "' but found '" + t.text + "'");
        }
    }

    private static boolean itemType(Tok t) {
        return t.type == T.IDENT || t.type == T.STRING || t.type == T.CHAR;
    }

    /** event_read_print_args: the arguments after the format string. */
    private List<PrintArg> args() throws ParseError {
        List<PrintArg> out = new ArrayList<>();
        Tok t = read();
        if (t.type == T.END) {
            return out;
        }
        want(t, T.DELIM, ",");
        do {
            Node arg = new Node();
            t = processArg(arg);
            out.add(convert(arg));
            if (t.type == T.OP) {
                t = processOp(arg, t);
                out.set(out.size() - 1, convert(arg));
                continue;
            }
            if (is(t, T.DELIM, ",")) {
                continue;
            }
            break;
        } while (t.type != T.END);
        return out;
    }

    private Tok processArg(Node arg) throws ParseError {
        return processArgToken(arg, read());
    }

    private Tok processArgToken(Node arg, Tok tok) throws ParseError {
        switch (tok.type) {
            case IDENT -> {
                if (tok.text.equals("REC")) {
                    return processEntry(arg);
                }
                StringBuilder atom = new StringBuilder(tok.text);
                Tok t = read();
                if (is(t, T.DELIM, "(")) {
                    return processFunction(arg, tok.text);
                }
                while (t.type == T.IDENT) {
                    atom.append(' ').append(t.text);
                    t = read();
                }
                arg.kind = K.ATOM;
                arg.text = atom.toString();
                return t;
            }
            case CHAR -> {
                arg.kind = K.ATOM;
                arg.text = tok.text.isEmpty() ? "0" : Integer.toString((byte) tok.text.charAt(0));
                return read();
            }
            case STRING -> {
                arg.kind = K.ATOM;
                arg.text = tok.text;
                return read();
            }
            case DELIM -> {
                if (tok.text.equals("(")) {
                    return processParen(arg);
                }
                arg.kind = K.OP;
                arg.text = tok.text;
                arg.left = null;
                return processOp(arg, tok);
            }
            case OP -> {
                arg.kind = K.OP;
                arg.text = tok.text;
                arg.left = null;
                return processOp(arg, tok);
            }
            default -> throw new ParseError("unexpected " + tok.text);
        }
    }

    private Tok processEntry(Node arg) throws ParseError {
        Tok t = read();
        if (!(t.type == T.OP && t.text.equals("->"))) {
            throw new ParseError("expected '->' after REC but found '" + t.text + "'");
        }
        Tok name = read();
        if (name.type != T.IDENT) {
            throw new ParseError("expected a field name after REC-> but found '" + name.text + "'");
        }
        FormatField f = event.field(name.text);
        if (f == null) {
            throw new ParseError("field " + name.text + " not found");
        }
        arg.kind = K.FIELD;
        arg.field = f;
        arg.text = name.text;
        return read();
    }

    private static int opPrio(String op) {
        if (op.length() == 1) {
            return switch (op.charAt(0)) {
                case '~', '!' -> 4;
                case '*', '/', '%' -> 6;
                case '+', '-' -> 7;
                case '<', '>' -> 9;
                case '&' -> 11;
                case '^' -> 12;
                case '|' -> 13;
                case '?' -> 16;
                default -> -1;
            };
        }
        return switch (op) {
            case "++", "--" -> 3;
            case ">>", "<<" -> 8;
            case ">=", "<=" -> 9;
            case "==", "!=" -> 10;
            case "&&" -> 14;
            case "||" -> 15;
            default -> -1;
        };
    }

    private static final java.util.Set<String> BINARY = java.util.Set.of(">>", "<<", "&", "|", "&&", "||", "-", "+",
            "*", "^", "/", "%", "<", ">", "<=", ">=", "==", "!=");

    /** process_op: {@code arg} is the left side (or a unary operator), {@code tok} the operator. */
    private Tok processOp(Node arg, Tok tok) throws ParseError {
        String token = tok.text;
        Node right = null;
        Tok t;
        if (arg.kind == K.OP && arg.left == null) {
            if (token.length() != 1 || "~!+-".indexOf(token.charAt(0)) < 0) {
                throw new ParseError("bad op token " + token);
            }
            arg.left = new Node();
            right = new Node();
            arg.right = right;
            t = processArg(right);
        } else if (token.equals("?")) {
            pushDown(arg, token);
            t = processCond(arg);
        } else if (BINARY.contains(token)) {
            Node left = pushDown(arg, token);
            arg.prio = left.kind == K.NULL ? 0 : opPrio(token);
            if (arg.prio == -1) {
                throw new ParseError("unknown op '" + token + "'");
            }
            t = read();
            if (token.equals("*") && is(t, T.DELIM, ")")) {
                // a pointer type: (type *)
                if (left.kind != K.ATOM) {
                    throw new ParseError("bad pointer type");
                }
                left.text = left.text + " *";
                arg.copyFrom(left);
                return t;
            }
            right = new Node();
            t = processArgToken(right, t);
            if (right.kind == K.OP && opPrio(arg.text) < opPrio(right.text)) {
                arg.right = right.left;
                Node tmp = arg.copy();
                arg.copyFrom(right);
                right.copyFrom(tmp);
                arg.left = right;
            } else {
                arg.right = right;
            }
        } else if (token.equals("[")) {
            pushDown(arg, token);
            Node idx = new Node();
            t = processArg(idx);
            want(t, T.OP, "]");
            arg.right = idx;
            t = read();
        } else {
            throw new ParseError("unknown op '" + token + "'");
        }
        if (t.type == T.OP && !t.text.equals(":")) {
            int prio = opPrio(t.text);
            if (prio > arg.prio) {
                return processOp(arg, t);
            }
            if (right == null) {
                throw new ParseError("unknown op '" + t.text + "'");
            }
            return processOp(right, t);
        }
        return t;
    }

    /** Makes {@code arg} the operator {@code op} over a copy of what it was (its left side, returned). */
    private static Node pushDown(Node arg, String op) {
        Node left = arg.copy();
        arg.kind = K.OP;
        arg.text = op;
        arg.left = left;
        arg.right = null;
        arg.prio = 0;
        return left;
    }

    /** process_cond: {@code top} is the {@code ?} node; its right becomes a {@code :} node. */
    private Tok processCond(Node top) throws ParseError {
        Node colon = new Node();
        colon.kind = K.OP;
        colon.left = new Node();
        colon.right = new Node();
        Tok t = processArg(colon.left);
        while (t.type == T.OP && !t.text.equals(":")) {
            t = processOp(colon.left, t);
        }
        want(t, T.OP, ":");
        colon.text = ":";
        t = processArg(colon.right);
        top.right = colon;
        return t;
    }

    private Tok processParen(Node arg) throws ParseError {
        Tok t = processArg(arg);
        if (t.type == T.OP) {
            t = processOp(arg, t);
        }
        want(t, T.DELIM, ")");
        t = read();
        if (itemType(t) || is(t, T.DELIM, "(")) {
            if (arg.kind != K.ATOM) {
                throw new ParseError("a cast's type is not a name");
            }
            Node item = new Node();
            arg.kind = K.TYPE;
            arg.left = item;
            t = processArgToken(item, t);
        }
        return t;
    }

    /** process_field_arg: an argument with all its operators. */
    private Tok fieldArg(Node arg) throws ParseError {
        Tok t = processArg(arg);
        while (t.type == T.OP) {
            t = processOp(arg, t);
        }
        return t;
    }

    /** alloc_and_process_delim: an argument, its operators, then {@code delim}. */
    private Node delimited(String delim) throws ParseError {
        Node n = new Node();
        Tok t = processArg(n);
        if (t.type == T.OP) {
            t = processOp(n, t);
        }
        want(t, T.DELIM, delim);
        return n;
    }

    private FormatField namedField(Tok name, String fn) throws ParseError {
        if (name.type != T.IDENT) {
            throw new ParseError(fn + ": expected a field name but found '" + name.text + "'");
        }
        return event.field(name.text);
    }

    private Tok processFunction(Node arg, String fn) throws ParseError {
        switch (fn) {
            case "__print_flags", "__print_symbolic" -> {
                boolean flags = fn.equals("__print_flags");
                Node value = new Node();
                Tok t = fieldArg(value);
                want(t, T.DELIM, ",");
                arg.kind = flags ? K.FLAGS : K.SYMBOL;
                arg.left = value;
                if (flags) {
                    t = read();
                    if (itemType(t)) {
                        arg.delim = t.text;
                        t = read();
                    }
                    want(t, T.DELIM, ",");
                }
                List<PrintArg.Sym> syms = new ArrayList<>();
                t = processFields(syms);
                want(t, T.DELIM, ")");
                arg.syms = List.copyOf(syms);
                return read();
            }
            case "__get_str", "__get_rel_str", "__get_bitmask", "__get_rel_bitmask", "__get_dynamic_array_len",
                 "__get_rel_dynamic_array_len" -> {
                FormatField f = namedField(read(), fn);
                want(read(), T.DELIM, ")");
                arg.kind = fn.contains("str") ? K.STRING : fn.contains("bitmask") ? K.BITMASK : K.DYNARRAY_LEN;
                if (f == null && arg.kind == K.DYNARRAY_LEN) {
                    throw new ParseError(fn + ": no such field");
                }
                arg.field = f;
                return read();
            }
            case "__get_dynamic_array", "__get_rel_dynamic_array" -> {
                FormatField f = namedField(read(), fn);
                if (f == null) {
                    throw new ParseError(fn + ": no such field");
                }
                want(read(), T.DELIM, ")");
                arg.kind = K.DYNARRAY;
                arg.field = f;
                Tok t = read();
                if (is(t, T.OP, "[")) {
                    throw new ParseError(fn + "(...)[index] is not supported");
                }
                return t;
            }
            case "__print_hex", "__print_hex_str" -> {
                arg.kind = fn.equals("__print_hex") ? K.HEX : K.HEXSTR;
                arg.left = delimited(",");
                arg.right = delimited(")");
                return read();
            }
            case "__print_array" -> {
                arg.kind = K.INTARRAY;
                arg.left = delimited(",");
                arg.right = delimited(",");
                arg.third = delimited(")");
                return read();
            }
            default -> throw new ParseError("function " + fn + " not defined");
        }
    }

    /** process_fields: the {@code { value, "name" }} list of a flags or symbolic helper. */
    private Tok processFields(List<PrintArg.Sym> out) throws ParseError {
        Tok t;
        do {
            t = read();
            if (!is(t, T.OP, "{")) {
                break;
            }
            Node v = new Node();
            t = processArg(v);
            if (t.type == T.OP) {
                t = processOp(v, t);
            }
            want(t, T.DELIM, ",");
            String value = argEval(v);
            Node s = new Node();
            t = processArg(s);
            want(t, T.OP, "}");
            out.add(new PrintArg.Sym(value, argEval(s)));
            t = read();
        } while (is(t, T.DELIM, ","));
        return t;
    }

    /** arg_eval: an atom as written; a constant expression folded to a signed decimal. */
    private static String argEval(Node n) throws ParseError {
        return switch (n.kind) {
            case ATOM -> n.text;
            case TYPE -> argEval(n.left);
            case OP -> Long.toString(numEval(n));
            default -> throw new ParseError("a flag or symbol is not a constant");
        };
    }

    /** arg_num_eval: folds constants in signed 64-bit; operators it lacks fail. */
    private static long numEval(Node n) throws ParseError {
        switch (n.kind) {
            case ATOM -> {
                return strtoll(n.text);
            }
            case TYPE -> {
                return TraceFormatter.castValue(n.text, numEval(n.left));
            }
            case OP -> {
                String op = n.text;
                if (op.equals("~")) {
                    return ~numEval(n.right);
                }
                long l = (op.equals("-") || op.equals("+")) && (n.left == null || n.left.kind == K.NULL) ? 0
                        : numEval(n.left);
                long r = numEval(n.right);
                return switch (op) {
                    case "|" -> l | r;
                    case "||" -> (l != 0 || r != 0) ? 1 : 0;
                    case "&" -> l & r;
                    case "&&" -> (l != 0 && r != 0) ? 1 : 0;
                    case "<" -> l < r ? 1 : 0;
                    case "<<" -> l << r;
                    case "<=" -> l <= r ? 1 : 0;
                    case ">" -> l > r ? 1 : 0;
                    case ">>" -> l >> r;
                    case ">=" -> l >= r ? 1 : 0;
                    case "==" -> l == r ? 1 : 0;
                    case "!=" -> l != r ? 1 : 0;
                    case "-" -> l - r;
                    case "+" -> l + r;
                    default -> throw new ParseError("cannot fold operator '" + op + "' in a flag value");
                };
            }
            default -> throw new ParseError("invalid constant in a flag value");
        }
    }

    /** C's strtoll, base 0: clamps to the long range on overflow. */
    private static long strtoll(String s) {
        int i = 0;
        boolean neg = false;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            neg = s.charAt(i) == '-';
            i++;
        }
        String rest = s.substring(i);
        java.math.BigInteger v;
        int base = 10;
        int j = 0;
        if (rest.length() > 1 && rest.charAt(0) == '0' && (rest.charAt(1) == 'x' || rest.charAt(1) == 'X')) {
            base = 16;
            j = 2;
        } else if (!rest.isEmpty() && rest.charAt(0) == '0') {
            base = 8;
        }
        int k = j;
        while (k < rest.length() && Character.digit(rest.charAt(k), base) >= 0) {
            k++;
        }
        if (k == j) {
            return 0;
        }
        v = new java.math.BigInteger(rest.substring(j, k), base);
        if (neg) {
            v = v.negate();
        }
        if (v.bitLength() > 63) {
            return v.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return v.longValue();
    }

    /** The parsed node as the immutable model the formatter evaluates. */
    private static PrintArg convert(Node n) throws ParseError {
        return switch (n.kind) {
            case NULL -> null;
            case ATOM -> new PrintArg.Atom(n.text);
            case FIELD -> new PrintArg.Field(n.field);
            case TYPE -> new PrintArg.Cast(n.text, convert(n.left));
            case OP -> {
                if (n.text.equals("?")) {
                    Node colon = n.right;
                    if (colon == null || colon.kind != K.OP) {
                        throw new ParseError("a ternary without ':'");
                    }
                    yield new PrintArg.Ternary(convert(n.left), convert(colon.left), convert(colon.right));
                }
                if (n.text.equals(":")) {
                    throw new ParseError("':' outside a ternary");
                }
                yield new PrintArg.Op(n.text, n.left == null || n.left.kind == K.NULL ? null : convert(n.left),
                        convert(n.right));
            }
            case FLAGS -> new PrintArg.Flags(convert(n.left), n.delim == null ? "" : n.delim, n.syms);
            case SYMBOL -> new PrintArg.Symbolic(convert(n.left), n.syms);
            case STRING -> new PrintArg.DynString(n.field);
            case DYNARRAY -> new PrintArg.DynArray(n.field);
            case DYNARRAY_LEN -> new PrintArg.DynArrayLen(n.field);
            case BITMASK -> new PrintArg.Bitmask(n.field);
            case HEX, HEXSTR -> new PrintArg.Hex(convert(n.left), convert(n.right), n.kind == K.HEXSTR);
            case INTARRAY -> new PrintArg.IntArray(convert(n.left), convert(n.right), convert(n.third));
        };
    }

    // ------------------------------------------------------------------------ tokens ----

    private static final String[] TWO = {"->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--"};

    private static List<Tok> tokenize(String s) throws ParseError {
        List<Tok> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        boolean glue = false;
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                StringBuilder b = new StringBuilder();
                while (j < n && s.charAt(j) != c) {
                    if (s.charAt(j) == '\\' && j + 1 < n) {
                        b.append(s.charAt(j)).append(s.charAt(j + 1));
                        j += 2;
                    } else {
                        b.append(s.charAt(j++));
                    }
                }
                if (j >= n) {
                    throw new ParseError("unterminated string at column " + i);
                }
                i = j + 1;
                int k = i;
                while (k < n && Character.isWhitespace(s.charAt(k))) {
                    k++;
                }
                if (c == '"' && !out.isEmpty() && out.getLast().type == T.STRING && glue) {
                    out.set(out.size() - 1, new Tok(T.STRING, out.getLast().text + b));
                } else {
                    out.add(new Tok(c == '"' ? T.STRING : T.CHAR, b.toString()));
                }
                // libtraceevent's tokenizer joins a string with the next when only spaces lie between
                glue = c == '"' && k < n && s.charAt(k) == '"';
            } else if (FormatField.isIdent(c)) {
                int j = i;
                while (j < n && FormatField.isIdent(s.charAt(j))) {
                    j++;
                }
                out.add(new Tok(T.IDENT, s.substring(i, j)));
                i = j;
            } else if (c == '(' || c == ')' || c == ',') {
                out.add(new Tok(T.DELIM, String.valueOf(c)));
                i++;
            } else {
                String op = String.valueOf(c);
                for (String t : TWO) {
                    if (s.startsWith(t, i)) {
                        op = t;
                        break;
                    }
                }
                if ("+-*/%&|^~!?:<>[].{}=".indexOf(c) < 0) {
                    throw new ParseError("unexpected character '" + c + "' at column " + i);
                }
                out.add(new Tok(T.OP, op));
                i += op.length();
            }
        }
        out.add(new Tok(T.END, "end of print fmt"));
        return out;
    }
}
