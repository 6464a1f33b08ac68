package io.perfj.symbols.demangle;

/**
 * Parser and printer for the body of a Rust v0 symbol (RFC 2603, "Syntax of mangled names"),
 * rendered as rustc-demangle and perf's port of it ({@code tools/perf/util/demangle-rust-v0.c})
 * render it. One pass either only checks the grammar ({@code out == null}; backreferences are
 * not followed, bound lifetimes are not counted) or prints. A printing pass that meets an error
 * writes a marker ({@code {invalid syntax}}, {@code {recursion limit reached}}) and then {@code ?}
 * for whatever it can no longer parse, as perf does; an error inside a backreference does not
 * stop the caller.
 *
 * <p>Work is bounded: nesting is limited to {@link #MAX_DEPTH} like perf, and the printed text to
 * {@link #MAX_OUTPUT} characters and the parse steps to {@link #MAX_STEPS} (backreferences can
 * make the output exponential in the input); past either bound the pass stops with {@link TooBig}.
 */
final class V0Printer {
    static final int MAX_DEPTH = 500;
    /** perf gives up on names that do not fit a 1 MiB buffer. */
    static final int MAX_OUTPUT = 1 << 20;
    static final int MAX_STEPS = 1 << 20;

    static final int OK = 0;
    static final int INVALID = 1;
    static final int RECURSED = 2;

    /** Thrown when a name exceeds the output or step bound; carries no stack trace. */
    static final class TooBig extends RuntimeException {
        static final TooBig INSTANCE = new TooBig();

        private TooBig() {
            super(null, null, false, false);
        }
    }

    private final String sym;
    private int next;
    private int depth;
    private int status = OK;
    /** status of the last parse step; {@link #failed()} turns it into a printed error */
    private int pst = OK;
    private StringBuilder out;
    private long boundLifetimes;
    private final boolean alternate;
    private int steps;

    /**
     * An identifier as ranges of the symbol: plain ASCII [a0, a1), or basic code points [a0, a1)
     * plus a punycode tail [p0, p1).
     */
    private record Ident(int a0, int a1, int p0, int p1) {
        boolean isEmpty() {
            return a0 == a1 && p0 == p1;
        }

        boolean punycode() {
            return p0 != p1;
        }
    }

    V0Printer(String sym, int next, StringBuilder out, boolean alternate) {
        this.sym = sym;
        this.next = next;
        this.out = out;
        this.alternate = alternate;
    }

    int next() {
        return next;
    }

    int status() {
        return status;
    }

    boolean atUpper() {
        return next < sym.length() && sym.charAt(next) >= 'A' && sym.charAt(next) <= 'Z';
    }

    // ---- printing and error plumbing ----

    private void print(String s) {
        if (out != null) {
            if (out.length() + s.length() > MAX_OUTPUT) {
                throw TooBig.INSTANCE;
            }
            out.append(s);
        }
    }

    private void printRange(int from, int to) {
        if (out != null) {
            if (out.length() + (to - from) > MAX_OUTPUT) {
                throw TooBig.INSTANCE;
            }
            out.append(sym, from, to);
        }
    }

    private void print(char c) {
        if (out != null) {
            if (out.length() >= MAX_OUTPUT) {
                throw TooBig.INSTANCE;
            }
            out.append(c);
        }
    }

    private void step() {
        if (++steps > MAX_STEPS) {
            throw TooBig.INSTANCE;
        }
    }

    private static String message(int st) {
        return switch (st) {
            case INVALID -> "{invalid syntax}";
            case RECURSED -> "{recursion limit reached}";
            default -> "{unknown error}";
        };
    }

    /** Before a parse step: false, after printing "?", when an earlier error stopped parsing. */
    private boolean live() {
        if (status != OK) {
            print("?");
            return false;
        }
        return true;
    }

    /** After a parse step: true, after printing its error, when it failed. */
    private boolean failed() {
        if (pst != OK) {
            print(message(pst));
            status = pst;
            pst = OK;
            return true;
        }
        return false;
    }

    private void invalid() {
        print(message(INVALID));
        status = INVALID;
    }

    private boolean eat(char c) {
        if (status != OK) {
            return false;
        }
        if (next < sym.length() && sym.charAt(next) == c) {
            next++;
            return true;
        }
        return false;
    }

    private void popDepth() {
        if (status == OK) {
            depth--;
        }
    }

    // ---- parse steps (set pst on failure) ----

    private void pushDepth() {
        if (++depth > MAX_DEPTH) {
            pst = RECURSED;
        }
    }

    /** The next character, or 0 (with pst set) at the end. */
    private char ch() {
        if (next == sym.length()) {
            pst = INVALID;
            return 0;
        }
        return sym.charAt(next++);
    }

    /** {@code <base-62-number>}: "_" is 0, else digits then "_" are value+1 (unsigned 64-bit). */
    private long integer62() {
        if (next < sym.length() && sym.charAt(next) == '_') {
            next++;
            return 0;
        }
        long x = 0;
        while (true) {
            if (next < sym.length() && sym.charAt(next) == '_') {
                next++;
                break;
            }
            int d = next < sym.length() ? digit62(sym.charAt(next)) : -1;
            if (d < 0) {
                pst = INVALID;
                return 0;
            }
            next++;
            if (Long.compareUnsigned(x, Long.divideUnsigned(-1L, 62)) > 0) {
                pst = INVALID;
                return 0;
            }
            x *= 62;
            if (Long.compareUnsigned(x, -1L - d) > 0) {
                pst = INVALID;
                return 0;
            }
            x += d;
        }
        if (x == -1L) {
            pst = INVALID;
            return 0;
        }
        return x + 1;
    }

    private static int digit62(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        } else if (c >= 'a' && c <= 'z') {
            return 10 + c - 'a';
        } else if (c >= 'A' && c <= 'Z') {
            return 36 + c - 'A';
        }
        return -1;
    }

    /** {@code [tag <base-62-number>]}: 0 when absent, else the number + 1. */
    private long optInteger62(char tag) {
        if (next >= sym.length() || sym.charAt(next) != tag) {
            return 0;
        }
        next++;
        long v = integer62();
        if (pst != OK) {
            return 0;
        }
        if (v == -1L) {
            pst = INVALID;
            return 0;
        }
        return v + 1;
    }

    private long disambiguator() {
        return optInteger62('s');
    }

    /** {@code <undisambiguated-identifier>}: ["u"] decimal length ["_"] bytes. */
    private Ident ident() {
        boolean puny = next < sym.length() && sym.charAt(next) == 'u';
        if (puny) {
            next++;
        }
        if (next >= sym.length() || !isDigit(sym.charAt(next))) {
            pst = INVALID;
            return null;
        }
        long len = sym.charAt(next++) - '0';
        if (len != 0) {
            while (next < sym.length() && isDigit(sym.charAt(next))) {
                len = len * 10 + (sym.charAt(next++) - '0');
                if (len > sym.length()) {
                    // longer than the rest in any case; perf fails the same way on size_t overflow
                    pst = INVALID;
                    return null;
                }
            }
        }
        if (next < sym.length() && sym.charAt(next) == '_') {
            next++;
        }
        if (sym.length() - next < len) {
            pst = INVALID;
            return null;
        }
        int start = next;
        next += (int) len;
        if (!puny) {
            return new Ident(start, next, next, next);
        }
        int us = next - 1;
        while (us >= start && sym.charAt(us) != '_') {
            us--;
        }
        Ident id = us < start ? new Ident(start, start, start, next) : new Ident(start, us, us + 1, next);
        if (!id.punycode()) {
            pst = INVALID;
            return null;
        }
        return id;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** {@code <namespace>}: an upper-case letter, or 0 for any lower-case one. */
    private char namespace() {
        char c = next < sym.length() ? sym.charAt(next++) : 0;
        if (c >= 'A' && c <= 'Z') {
            return c;
        } else if (c >= 'a' && c <= 'z') {
            return ' ';
        }
        pst = INVALID;
        return 0;
    }

    /** Lower-case hex digits up to "_"; returns them without the "_". */
    private String hexNibbles() {
        int start = next;
        while (true) {
            if (next >= sym.length()) {
                pst = INVALID;
                return null;
            }
            char c = sym.charAt(next++);
            if (c == '_') {
                return sym.substring(start, next - 1);
            }
            if (!(isDigit(c) || (c >= 'a' && c <= 'f'))) {
                pst = INVALID;
                return null;
            }
        }
    }

    // ---- printers ----

    private void printIdent(Ident id) {
        if (out == null) {
            return;
        }
        if (!id.punycode()) {
            printRange(id.a0, id.a1);
            return;
        }
        String decoded = Punycode.decode(sym.subSequence(id.a0, id.a1), sym.subSequence(id.p0, id.p1));
        if (decoded != null) {
            print(decoded);
        } else {
            print("punycode{");
            if (id.a0 != id.a1) {
                printRange(id.a0, id.a1);
                print('-');
            }
            printRange(id.p0, id.p1);
            print('}');
        }
    }

    private interface Body {
        void run();
    }

    /** A list of items up to "E"; returns how many. */
    private int sepList(Body item, String sep) {
        int count = 0;
        while (status == OK && !eat('E')) {
            if (count > 0) {
                print(sep);
            }
            item.run();
            count++;
        }
        return count;
    }

    /** {@code <backref>}: prints what the earlier position holds, with this parser put aside. */
    private void printBackref(Body body) {
        if (!live()) {
            return;
        }
        int at = next - 1;
        long target = integer62();
        if (pst == OK && Long.compareUnsigned(target, at) >= 0) {
            pst = INVALID;
        }
        if (pst == OK && depth + 1 > MAX_DEPTH) {
            pst = RECURSED;
        }
        if (failed() || out == null) {
            return;
        }
        int savedNext = next;
        int savedDepth = depth;
        int savedStatus = status;
        next = (int) target;
        depth = depth + 1;
        status = OK;
        body.run();
        next = savedNext;
        depth = savedDepth;
        status = savedStatus;
    }

    private void printLifetime(long lt) {
        if (out == null) {
            return;
        }
        print('\'');
        if (lt == 0) {
            print('_');
            return;
        }
        if (Long.compareUnsigned(boundLifetimes, lt) < 0) {
            invalid();
            return;
        }
        long d = boundLifetimes - lt;
        if (d < 26) {
            print((char) ('a' + d));
        } else {
            print('_');
            print(Long.toUnsignedString(d));
        }
    }

    /** {@code <binder>} then {@code body}: "for<'a, 'b> " when lifetimes are bound. */
    private void inBinder(Body body) {
        if (!live()) {
            return;
        }
        long bound = optInteger62('G');
        if (failed()) {
            return;
        }
        if (out == null) {
            body.run();
            return;
        }
        if (bound != 0) {
            print("for<");
            for (long i = 0; Long.compareUnsigned(i, bound) < 0; i++) {
                if (i > 0) {
                    print(", ");
                }
                boundLifetimes++;
                printLifetime(1);
            }
            print("> ");
        }
        body.run();
        boundLifetimes -= bound;
    }

    private void printGenericArg() {
        if (eat('L')) {
            if (!live()) {
                return;
            }
            long lt = integer62();
            if (failed()) {
                return;
            }
            printLifetime(lt);
        } else if (eat('K')) {
            printConst(false);
        } else {
            printType();
        }
    }

    private void printGenericArgs() {
        print('<');
        sepList(this::printGenericArg, ", ");
        print('>');
    }

    /** {@code <path>}; {@code inValue} puts "::" before generic arguments (expression syntax). */
    void printPath(boolean inValue) {
        step();
        if (!live()) {
            return;
        }
        pushDepth();
        if (failed()) {
            return;
        }
        char tag = ch();
        if (failed()) {
            return;
        }
        switch (tag) {
            case 'C' -> {
                long dis = disambiguator();
                if (failed() || !live()) {
                    return;
                }
                Ident name = ident();
                if (failed()) {
                    return;
                }
                printIdent(name);
                if (out != null && !alternate && dis != 0) {
                    print('[');
                    print(Long.toHexString(dis));
                    print(']');
                }
            }
            case 'N' -> {
                char ns = namespace();
                if (failed()) {
                    return;
                }
                printPath(inValue);
                if (status != OK) {
                    print("::");
                }
                if (!live()) {
                    return;
                }
                long dis = disambiguator();
                if (failed() || !live()) {
                    return;
                }
                Ident name = ident();
                if (failed()) {
                    return;
                }
                if (ns != ' ') {
                    print("::{");
                    print(ns == 'C' ? "closure" : ns == 'S' ? "shim" : String.valueOf(ns));
                    if (!name.isEmpty()) {
                        print(':');
                        printIdent(name);
                    }
                    print('#');
                    print(Long.toUnsignedString(dis));
                    print('}');
                } else if (!name.isEmpty()) {
                    print("::");
                    printIdent(name);
                }
            }
            case 'M', 'X', 'Y' -> {
                if (tag != 'Y') {
                    if (!live()) {
                        return;
                    }
                    disambiguator();
                    if (failed()) {
                        return;
                    }
                    // an impl's own path is parsed but not shown
                    StringBuilder saved = out;
                    out = null;
                    printPath(false);
                    out = saved;
                }
                print('<');
                printType();
                if (tag != 'M') {
                    print(" as ");
                    printPath(false);
                }
                print('>');
            }
            case 'I' -> {
                printPath(inValue);
                if (inValue) {
                    print("::");
                }
                printGenericArgs();
            }
            case 'B' -> printBackref(() -> printPath(inValue));
            default -> {
                invalid();
                return;
            }
        }
        popDepth();
    }

    private static String basicType(char tag) {
        return switch (tag) {
            case 'b' -> "bool";
            case 'c' -> "char";
            case 'e' -> "str";
            case 'u' -> "()";
            case 'a' -> "i8";
            case 's' -> "i16";
            case 'l' -> "i32";
            case 'x' -> "i64";
            case 'n' -> "i128";
            case 'i' -> "isize";
            case 'h' -> "u8";
            case 't' -> "u16";
            case 'm' -> "u32";
            case 'y' -> "u64";
            case 'o' -> "u128";
            case 'j' -> "usize";
            case 'f' -> "f32";
            case 'd' -> "f64";
            case 'z' -> "!";
            case 'p' -> "_";
            case 'v' -> "...";
            default -> null;
        };
    }

    void printType() {
        step();
        if (!live()) {
            return;
        }
        char tag = ch();
        if (failed()) {
            return;
        }
        String basic = basicType(tag);
        if (basic != null) {
            print(basic);
            return;
        }
        if (!live()) {
            return;
        }
        pushDepth();
        if (failed()) {
            return;
        }
        switch (tag) {
            case 'R', 'Q' -> {
                print('&');
                if (eat('L')) {
                    if (!live()) {
                        return;
                    }
                    long lt = integer62();
                    if (failed()) {
                        return;
                    }
                    if (lt != 0) {
                        printLifetime(lt);
                        print(' ');
                    }
                }
                if (tag != 'R') {
                    print("mut ");
                }
                printType();
            }
            case 'P', 'O' -> {
                print(tag == 'P' ? "*const " : "*mut ");
                printType();
            }
            case 'A', 'S' -> {
                print('[');
                printType();
                if (tag == 'A') {
                    print("; ");
                    printConst(true);
                }
                print(']');
            }
            case 'T' -> {
                print('(');
                int n = sepList(this::printType, ", ");
                if (n == 1) {
                    print(',');
                }
                print(')');
            }
            case 'F' -> inBinder(this::printFnSig);
            case 'D' -> {
                print("dyn ");
                inBinder(() -> sepList(this::printDynTrait, " + "));
                if (!eat('L')) {
                    invalid();
                    return;
                }
                if (!live()) {
                    return;
                }
                long lt = integer62();
                if (failed()) {
                    return;
                }
                if (lt != 0) {
                    print(" + ");
                    printLifetime(lt);
                }
            }
            case 'B' -> printBackref(this::printType);
            default -> {
                next--;
                printPath(false);
            }
        }
        popDepth();
    }

    /** {@code <fn-sig>}: ["U"] ["K" abi] {type} "E" type. */
    private void printFnSig() {
        boolean unsafe = eat('U');
        String abi = null;
        if (eat('K')) {
            if (eat('C')) {
                abi = "C";
            } else {
                if (!live()) {
                    return;
                }
                Ident id = ident();
                if (failed()) {
                    return;
                }
                if (id.a0 == id.a1 || id.punycode()) {
                    invalid();
                    return;
                }
                abi = sym.substring(id.a0, id.a1);
            }
        }
        if (unsafe) {
            print("unsafe ");
        }
        if (abi != null) {
            print("extern \"");
            print(abi.replace('_', '-'));
            print("\" ");
        }
        print("fn(");
        sepList(this::printType, ", ");
        print(')');
        if (!eat('u')) {
            print(" -> ");
            printType();
        }
    }

    /** A trait in a {@code dyn} bound, with its associated type bindings inside its "<...>". */
    private void printDynTrait() {
        boolean open = printMaybeOpenGenerics();
        while (eat('p')) {
            print(open ? ", " : "<");
            open = true;
            if (!live()) {
                return;
            }
            Ident name = ident();
            if (failed()) {
                return;
            }
            printIdent(name);
            print(" = ");
            printType();
        }
        if (open) {
            print('>');
        }
    }

    /** Prints a trait path; for generic ones leaves the "<...>" open and returns true. */
    private boolean printMaybeOpenGenerics() {
        if (eat('B')) {
            boolean[] open = {false};
            printBackref(() -> open[0] = printMaybeOpenGenerics());
            return open[0];
        } else if (eat('I')) {
            printPath(false);
            print('<');
            sepList(this::printGenericArg, ", ");
            return true;
        }
        printPath(false);
        return false;
    }

    /** {@code <const>}; outside an expression, composite values are wrapped in "{...}". */
    void printConst(boolean inValue) {
        step();
        if (!live()) {
            return;
        }
        char tag = ch();
        if (failed()) {
            return;
        }
        if (!live()) {
            return;
        }
        pushDepth();
        if (failed()) {
            return;
        }
        boolean braced = false;
        switch (tag) {
            case 'p' -> print('_');
            case 'a', 's', 'l', 'x', 'n', 'i', 'h', 't', 'm', 'y', 'o', 'j' -> {
                if ("aslxni".indexOf(tag) >= 0 && eat('n')) {
                    print('-');
                }
                if (!live()) {
                    return;
                }
                String hex = hexNibbles();
                if (failed()) {
                    return;
                }
                if (fitsU64(hex)) {
                    print(Long.toUnsignedString(parseHex(hex)));
                } else {
                    print("0x");
                    print(hex);
                }
                if (out != null && !alternate) {
                    print(basicType(tag));
                }
            }
            case 'b' -> {
                if (!live()) {
                    return;
                }
                String hex = hexNibbles();
                if (failed()) {
                    return;
                }
                long v = fitsU64(hex) ? parseHex(hex) : -1L;
                if (v == 0) {
                    print("false");
                } else if (v == 1) {
                    print("true");
                } else {
                    invalid();
                    return;
                }
            }
            case 'c' -> {
                if (!live()) {
                    return;
                }
                String hex = hexNibbles();
                if (failed()) {
                    return;
                }
                long v = fitsU64(hex) ? parseHex(hex) : -1L;
                if (Long.compareUnsigned(v, 0xffff_ffffL) < 0 && Punycode.isScalar((int) v)) {
                    print('\'');
                    print(escape((int) v, '\''));
                    print('\'');
                } else {
                    invalid();
                    return;
                }
            }
            case 'e' -> {
                braced = openBrace(inValue);
                print('*');
                printStrLiteral();
            }
            case 'R', 'Q' -> {
                if (tag == 'R' && eat('e')) {
                    printStrLiteral();
                } else {
                    braced = openBrace(inValue);
                    print(tag == 'R' ? "&" : "&mut ");
                    printConst(true);
                }
            }
            case 'A' -> {
                braced = openBrace(inValue);
                print('[');
                sepList(() -> printConst(true), ", ");
                print(']');
            }
            case 'T' -> {
                braced = openBrace(inValue);
                print('(');
                int n = sepList(() -> printConst(true), ", ");
                if (n == 1) {
                    print(',');
                }
                print(')');
            }
            case 'V' -> {
                braced = openBrace(inValue);
                printPath(true);
                if (!live()) {
                    return;
                }
                char kind = ch();
                if (failed()) {
                    return;
                }
                switch (kind) {
                    case 'U' -> {
                    }
                    case 'T' -> {
                        print('(');
                        sepList(() -> printConst(true), ", ");
                        print(')');
                    }
                    case 'S' -> {
                        print(" { ");
                        sepList(this::printConstField, ", ");
                        print(" }");
                    }
                    default -> {
                        invalid();
                        return;
                    }
                }
            }
            case 'B' -> printBackref(() -> printConst(inValue));
            default -> {
                invalid();
                return;
            }
        }
        if (braced) {
            print('}');
        }
        popDepth();
    }

    private boolean openBrace(boolean inValue) {
        if (!inValue) {
            print('{');
            return true;
        }
        return false;
    }

    private void printConstField() {
        if (!live()) {
            return;
        }
        disambiguator();
        if (failed() || !live()) {
            return;
        }
        Ident name = ident();
        if (failed()) {
            return;
        }
        printIdent(name);
        print(": ");
        printConst(true);
    }

    /** A {@code str} constant: hex-encoded UTF-8 bytes printed as a quoted, escaped literal. */
    private void printStrLiteral() {
        if (!live()) {
            return;
        }
        String hex = hexNibbles();
        if (failed()) {
            return;
        }
        String text = Utf8Hex.decode(hex);
        if (text == null) {
            invalid();
            return;
        }
        if (out != null) {
            print('"');
            for (int i = 0; i < text.length(); ) {
                int cp = text.codePointAt(i);
                print(escape(cp, '"'));
                i += Character.charCount(cp);
            }
            print('"');
        }
    }

    /** A character the way perf escapes it in char and str constants: only printable ASCII is kept. */
    static String escape(int cp, char quote) {
        return switch (cp) {
            case 0 -> "\\0";
            case '\t' -> "\\t";
            case '\r' -> "\\r";
            case '\n' -> "\\n";
            case '\\' -> "\\\\";
            default -> {
                if (cp == quote) {
                    yield "\\" + quote;
                } else if (cp < 0x20 || cp >= 0x7f) {
                    yield "\\u{" + Integer.toHexString(cp) + "}";
                }
                yield String.valueOf((char) cp);
            }
        };
    }

    private static int leadingZeros(String hex) {
        int z = 0;
        while (z < hex.length() && hex.charAt(z) == '0') {
            z++;
        }
        return z;
    }

    private static boolean fitsU64(String hex) {
        return hex.length() - leadingZeros(hex) <= 16;
    }

    /** The value of lower-case hex digits that {@link #fitsU64 fit} 64 bits. */
    private static long parseHex(String hex) {
        int z = leadingZeros(hex);
        long v = 0;
        for (int i = z; i < hex.length(); i++) {
            v = (v << 4) | Character.digit(hex.charAt(i), 16);
        }
        return v;
    }
}
