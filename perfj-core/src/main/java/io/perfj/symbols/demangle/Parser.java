package io.perfj.symbols.demangle;

import io.perfj.symbols.demangle.Node.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parses Itanium C++ ABI mangled names (https://itanium-cxx-abi.github.io/cxx-abi/abi.html#mangling)
 * into {@link Node}s, with the substitution candidates libiberty's cp-demangle records.
 */
final class Parser {
    static final class Fail extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Fail(String m) {
            super(m, null, false, false);
        }
    }

    private final String s;
    private int p;
    private final boolean params;
    private final boolean verbose;
    private final List<Node> subs = new ArrayList<>();
    private List<Node> currentArgs;
    private Node lastName;
    private int depth;

    Parser(String s, boolean params, boolean verbose) {
        this.s = s;
        this.params = params;
        this.verbose = verbose;
    }

    // ---- helpers ----

    private char peek() {
        return p < s.length() ? s.charAt(p) : '\0';
    }

    private char peek(int k) {
        return p + k < s.length() ? s.charAt(p + k) : '\0';
    }

    private boolean consume(char c) {
        if (peek() == c) {
            p++;
            return true;
        }
        return false;
    }

    private boolean consume(String t) {
        if (s.startsWith(t, p)) {
            p += t.length();
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!consume(c)) {
            throw new Fail("expected '" + c + "' at " + p);
        }
    }

    private static Fail fail(String m) {
        return new Fail(m);
    }

    private void enter() {
        if (++depth > 256) {
            throw fail("too deep");
        }
    }

    private void add(Node n) {
        if (subs.size() > 4096) {
            throw fail("too many substitutions");
        }
        subs.add(n);
    }

    boolean atEnd() {
        return p >= s.length();
    }

    int position() {
        return p;
    }

    /** {@code [n] <digits>} as a long. */
    private long number() {
        boolean neg = consume('n');
        if (!Character.isDigit(peek())) {
            throw fail("number expected at " + p);
        }
        long v = 0;
        while (Character.isDigit(peek())) {
            v = v * 10 + (s.charAt(p++) - '0');
            if (v > Integer.MAX_VALUE) {
                throw fail("number too large");
            }
        }
        return neg ? -v : v;
    }

    /** A base-36 seq-id followed by '_' (S_/T_ style): returns -1 for the bare '_'. */
    private int seqId() {
        if (consume('_')) {
            return -1;
        }
        long v = 0;
        while (true) {
            char c = peek();
            int d;
            if (c >= '0' && c <= '9') {
                d = c - '0';
            } else if (c >= 'A' && c <= 'Z') {
                d = c - 'A' + 10;
            } else {
                break;
            }
            v = v * 36 + d;
            if (v > 1_000_000) {
                throw fail("seq-id too large");
            }
            p++;
        }
        expect('_');
        return (int) v;
    }

    /** {@code _ <digit>} or {@code __ <number> _}, as cp-demangle's d_discriminator. */
    private void discriminator() {
        if (peek() != '_') {
            return;
        }
        p++;
        if (consume('_')) {
            if (Character.isDigit(peek())) {
                number();
            }
            expect('_');
        } else if (Character.isDigit(peek())) {
            number();
        }
    }

    /** A non-negative number followed by '_', or just '_' (0). */
    private int compactNumber() {
        if (consume('_')) {
            return 0;
        }
        if (peek() == 'n') {
            throw fail("negative");
        }
        long n = number() + 1;
        expect('_');
        return (int) n;
    }

    // ---- grammar ----

    /** {@code _Z <encoding>} (or {@code Z} inside an expression). */
    Node mangledName(boolean topLevel) {
        if (!consume('_') && topLevel) {
            throw fail("no _Z");
        }
        expect('Z');
        Node n = encoding(topLevel);
        if (topLevel && params) {
            while (peek() == '.' && (Character.isLowerCase(peek(1)) || peek(1) == '_' || Character.isDigit(peek(1)))) {
                n = cloneSuffix(n);
            }
        }
        return n;
    }

    private Node cloneSuffix(Node n) {
        int start = p;
        p++;
        if (Character.isLowerCase(peek()) || peek() == '_') {
            p++;
            while (Character.isLowerCase(peek()) || peek() == '_') {
                p++;
            }
        }
        while (peek() == '.' && Character.isDigit(peek(1))) {
            p += 2;
            while (Character.isDigit(peek())) {
                p++;
            }
        }
        String suffix = s.substring(start, p);
        return new Name(render(n) + " [clone " + suffix + "]");
    }

    private static String render(Node n) {
        Printer pr = new Printer();
        pr.print(n);
        return pr.sb.toString();
    }

    Node encoding(boolean topLevel) {
        enter();
        try {
            char c = peek();
            if (c == 'G' || c == 'T') {
                return specialName();
            }
            Node name = name();
            if (topLevel && !params) {
                while (name instanceof Mod m && m.kind.fnQual()) {
                    name = m.inner;
                }
                if (name instanceof Local l) {
                    Node e = l.entity;
                    while (e instanceof Mod m && m.kind.fnQual()) {
                        e = m.inner;
                    }
                    name = new Local(l.function, e);
                }
                return name;
            }
            c = peek();
            if (c == '\0' || c == 'E' || c == '.') {
                return name;
            }
            Node bare = name;
            while (bare instanceof Mod m && m.kind.fnQual()) {
                bare = m.inner;
            }
            if (bare instanceof Template t) {
                currentArgs = t.args;
            }
            FunctionType ft = bareFunctionType(hasReturnType(name));
            return new Typed(name, ft);
        } finally {
            depth--;
        }
    }

    private static boolean hasReturnType(Node n) {
        return switch (n) {
            case Local l -> hasReturnType(l.entity);
            case Template t -> !isCtorDtorConv(t.name);
            case Mod m when m.kind.fnQual() -> hasReturnType(m.inner);
            default -> false;
        };
    }

    private static boolean isCtorDtorConv(Node n) {
        return switch (n) {
            case Qual q -> isCtorDtorConv(q.name);
            case Local l -> isCtorDtorConv(l.entity);
            case CtorDtor c -> true;
            case Conversion c -> true;
            case AbiTag a -> isCtorDtorConv(a.name);
            default -> false;
        };
    }

    private FunctionType bareFunctionType(boolean hasReturn) {
        Node ret = hasReturn ? type() : null;
        return new FunctionType(ret, paramList());
    }

    private List<Node> paramList() {
        List<Node> ps = new ArrayList<>();
        while (true) {
            char c = peek();
            if (c == '\0' || c == 'E' || c == '.') {
                break;
            }
            if ((c == 'R' || c == 'O') && peek(1) == 'E') {
                break;
            }
            ps.add(type());
        }
        if (ps.isEmpty()) {
            throw fail("empty parameter list");
        }
        if (ps.size() == 1 && ps.getFirst() instanceof Name n && n.text.equals("void")) {
            return List.of();
        }
        return ps;
    }

    private Node specialName() {
        char c = s.charAt(p++);
        if (c == 'T') {
            char k = peek();
            p++;
            switch (k) {
                case 'V':
                    return new Special("vtable for ", type());
                case 'T':
                    return new Special("VTT for ", type());
                case 'I':
                    return new Special("typeinfo for ", type());
                case 'S':
                    return new Special("typeinfo name for ", type());
                case 'h':
                    callOffset('h');
                    return new Special("non-virtual thunk to ", encoding(false));
                case 'v':
                    callOffset('v');
                    return new Special("virtual thunk to ", encoding(false));
                case 'c':
                    callOffset('\0');
                    callOffset('\0');
                    return new Special("covariant return thunk to ", encoding(false));
                case 'C': {
                    Node derived = type();
                    long off = number();
                    if (off < 0) {
                        throw fail("bad offset");
                    }
                    expect('_');
                    Node base = type();
                    return new CtorVtable(base, derived);
                }
                case 'W':
                    return new Special("TLS wrapper function for ", name());
                case 'H':
                    return new Special("TLS init function for ", name());
                case 'A':
                    return new Special("template parameter object for ", templateArg());
                default:
                    throw fail("unknown special name T" + k);
            }
        }
        char k = peek();
        p++;
        switch (k) {
            case 'V':
                return new Special("guard variable for ", name());
            case 'R': {
                Node n = name();
                long num = Character.isDigit(peek()) ? number() : 0;
                return new Special("reference temporary #" + num + " for ", n);
            }
            case 'A':
                return new Special("hidden alias for ", encoding(false));
            case 'T':
                if (consume('n')) {
                    return new Special("non-transaction clone for ", encoding(false));
                }
                consume('t');
                return new Special("transaction clone for ", encoding(false));
            default:
                throw fail("unknown special name G" + k);
        }
    }

    private void callOffset(char kind) {
        char c = kind;
        if (c == '\0') {
            c = peek();
            p++;
        }
        if (c == 'h') {
            number();
        } else if (c == 'v') {
            number();
            expect('_');
            number();
        } else {
            throw fail("bad call offset");
        }
        expect('_');
    }

    Node name() {
        enter();
        try {
            char c = peek();
            switch (c) {
                case 'N':
                    return nestedName();
                case 'Z':
                    return localName();
                case 'S': {
                    Node dc;
                    boolean subst;
                    if (peek(1) == 't') {
                        p += 2;
                        dc = new Qual(new Name("std"), unqualifiedName());
                        subst = false;
                    } else {
                        dc = substitution(false);
                        subst = true;
                    }
                    if (peek() == 'I') {
                        if (!subst) {
                            add(dc);
                        }
                        dc = new Template(dc, templateArgs());
                    }
                    return dc;
                }
                default: {
                    Node dc = unqualifiedName();
                    if (peek() == 'I') {
                        add(dc);
                        dc = new Template(dc, templateArgs());
                    }
                    return dc;
                }
            }
        } finally {
            depth--;
        }
    }

    private Node nestedName() {
        expect('N');
        List<Mod.Kind> quals = new ArrayList<>();
        while (true) {
            char c = peek();
            if (c == 'r') {
                quals.add(Mod.Kind.RESTRICT_THIS);
            } else if (c == 'V') {
                quals.add(Mod.Kind.VOLATILE_THIS);
            } else if (c == 'K') {
                quals.add(Mod.Kind.CONST_THIS);
            } else {
                break;
            }
            p++;
        }
        Mod.Kind ref = null;
        if (peek() == 'R') {
            p++;
            ref = Mod.Kind.LREF_THIS;
        } else if (peek() == 'O') {
            p++;
            ref = Mod.Kind.RREF_THIS;
        }
        Node ret = prefix();
        expect('E');
        // cp-demangle keeps the qualifiers in mangled order, innermost first: K then V then r.
        for (int i = quals.size() - 1; i >= 0; i--) {
            ret = new Mod(quals.get(i), ret);
        }
        if (ref != null) {
            ret = new Mod(ref, ret);
        }
        return ret;
    }

    private Node prefix() {
        Node ret = null;
        while (true) {
            char c = peek();
            if (c == '\0') {
                throw fail("unterminated nested name");
            }
            if (c == 'E') {
                if (ret == null) {
                    throw fail("empty nested name");
                }
                return ret;
            }
            Node dc;
            boolean template = false;
            if (c == 'D' && (peek(1) == 't' || peek(1) == 'T')) {
                dc = type();
            } else if (Character.isDigit(c) || Character.isLowerCase(c) || c == 'C' || c == 'U' || c == 'L'
                    || (c == 'D' && peek(1) != 't' && peek(1) != 'T')) {
                dc = unqualifiedName();
            } else if (c == 'S') {
                dc = substitution(true);
            } else if (c == 'I') {
                if (ret == null) {
                    throw fail("template args without name");
                }
                template = true;
                dc = null;
            } else if (c == 'T') {
                dc = templateParam();
            } else if (c == 'M') {
                if (ret == null) {
                    throw fail("M without prefix");
                }
                p++;
                continue;
            } else if (c == 'B' && ret != null) {
                p++;
                ret = new AbiTag(ret, sourceNameText());
                continue;
            } else {
                throw fail("bad prefix char " + c);
            }
            if (template) {
                ret = new Template(ret, templateArgs());
            } else if (ret == null) {
                ret = dc;
            } else {
                ret = new Qual(ret, dc);
            }
            if (c != 'S' && peek() != 'E') {
                add(ret);
            }
        }
    }

    private Node unqualifiedName() {
        char c = peek();
        Node ret;
        if (Character.isDigit(c)) {
            ret = sourceName();
        } else if (Character.isLowerCase(c)) {
            ret = operatorName();
            if (ret instanceof Operator o && o.code.equals("li")) {
                ret = new Name("operator\"\" " + sourceNameText());
            }
        } else if (c == 'C' || c == 'D') {
            ret = ctorDtorName();
        } else if (c == 'L') {
            p++;
            ret = sourceName();
            discriminator();
        } else if (c == 'U') {
            ret = unnamedOrLambda();
        } else {
            throw fail("bad unqualified name at " + p);
        }
        while (peek() == 'B') {
            p++;
            ret = new AbiTag(ret, sourceNameText());
        }
        return ret;
    }

    private String sourceNameText() {
        long len = number();
        if (len <= 0 || p + len > s.length()) {
            throw fail("bad source name length");
        }
        String id = s.substring(p, p + (int) len);
        p += (int) len;
        return id;
    }

    private Node sourceName() {
        String id = sourceNameText();
        Node n;
        if (id.length() >= 10 && id.startsWith("_GLOBAL_") && (id.charAt(8) == '.' || id.charAt(8) == '_'
                || id.charAt(8) == '$') && id.charAt(9) == 'N') {
            n = new Name("(anonymous namespace)");
        } else {
            n = new Name(id);
        }
        lastName = n;
        return n;
    }

    private Node ctorDtorName() {
        if (peek() == 'D' && peek(1) == 'C') {
            // structured binding: DC <source-name>+ E
            p += 2;
            StringBuilder b = new StringBuilder("[");
            boolean first = true;
            while (peek() != 'E') {
                if (!first) {
                    b.append(", ");
                }
                first = false;
                b.append(sourceNameText());
            }
            p++;
            return new Name(b.append(']').toString());
        }
        if (lastName == null) {
            throw fail("constructor without class");
        }
        char c = s.charAt(p++);
        if (c == 'C') {
            boolean inheriting = consume('I');
            char k = peek();
            if (k < '1' || k > '5') {
                throw fail("bad ctor kind");
            }
            p++;
            if (inheriting) {
                type();
            }
            return new CtorDtor(lastName, false);
        }
        char k = peek();
        if (k != '0' && k != '1' && k != '2' && k != '4' && k != '5') {
            throw fail("bad dtor kind");
        }
        p++;
        return new CtorDtor(lastName, true);
    }

    private Node unnamedOrLambda() {
        expect('U');
        if (consume('t')) {
            int num = compactNumber();
            Node n = new Name("{unnamed type#" + (num + 1) + "}");
            add(n);
            return n;
        }
        if (consume('l')) {
            List<Node> ps = new ArrayList<>();
            StringBuilder tparms = new StringBuilder();
            while (peek() == 'T' && (peek(1) == 'y' || peek(1) == 'n' || peek(1) == 't')) {
                throw fail("template lambda");
            }
            while (peek() != 'E') {
                if (atEnd()) {
                    throw fail("unterminated lambda");
                }
                ps.add(type());
            }
            p++;
            if (ps.size() == 1 && ps.getFirst() instanceof Name n && n.text.equals("void")) {
                ps = List.of();
            }
            int num = compactNumber();
            Printer pr = new Printer();
            pr.lambdaArgs = true;
            pr.sb.append("{lambda").append(tparms).append('(');
            for (int i = 0; i < ps.size(); i++) {
                if (i > 0) {
                    pr.sb.append(", ");
                }
                pr.print(ps.get(i));
            }
            pr.sb.append(")#").append(num + 1).append('}');
            return new Name(pr.sb.toString());
        }
        throw fail("bad U name");
    }

    private static final Map<String, String[]> OPS = Map.ofEntries(
            op("aN", "&=", 2), op("aS", "=", 2), op("aa", "&&", 2), op("ad", "&", 1), op("an", "&", 2),
            op("at", "alignof ", 1), op("aw", "co_await ", 1), op("az", "alignof ", 1), op("cc", "const_cast", 2),
            op("cl", "()", 2), op("cm", ",", 2), op("co", "~", 1), op("dV", "/=", 2), op("da", "delete[] ", 1),
            op("dc", "dynamic_cast", 2), op("de", "*", 1), op("dl", "delete ", 1), op("ds", ".*", 2),
            op("dt", ".", 2), op("dv", "/", 2), op("eO", "^=", 2), op("eo", "^", 2), op("eq", "==", 2),
            op("ge", ">=", 2), op("gs", "::", 1), op("gt", ">", 2), op("ix", "[]", 2), op("lS", "<<=", 2),
            op("le", "<=", 2), op("li", "operator\"\" ", 1), op("ls", "<<", 2), op("lt", "<", 2),
            op("mI", "-=", 2), op("mL", "*=", 2), op("mi", "-", 2), op("ml", "*", 2), op("mm", "--", 1),
            op("na", "new[]", 3), op("ne", "!=", 2), op("ng", "-", 1), op("nt", "!", 1), op("nw", "new", 3),
            op("nx", "noexcept", 1), op("oR", "|=", 2), op("oo", "||", 2), op("or", "|", 2), op("pL", "+=", 2),
            op("pl", "+", 2), op("pm", "->*", 2), op("pp", "++", 1), op("ps", "+", 1), op("pt", "->", 2),
            op("qu", "?", 3), op("rM", "%=", 2), op("rS", ">>=", 2), op("rc", "reinterpret_cast", 2),
            op("rm", "%", 2), op("rs", ">>", 2), op("sP", "sizeof...", 1), op("sZ", "sizeof...", 1),
            op("sc", "static_cast", 2), op("ss", "<=>", 2), op("st", "sizeof ", 1), op("sz", "sizeof ", 1),
            op("tr", "throw", 0), op("tw", "throw ", 1));

    private static Map.Entry<String, String[]> op(String code, String name, int arity) {
        return Map.entry(code, new String[]{name, Integer.toString(arity)});
    }

    private Node operatorName() {
        char c1 = peek();
        char c2 = peek(1);
        if (c1 == 'v' && Character.isDigit(c2)) {
            p += 2;
            return new Name("operator " + sourceNameText());
        }
        if (c1 == 'c' && c2 == 'v') {
            p += 2;
            return new Conversion(type());
        }
        String code = "" + c1 + c2;
        String[] info = OPS.get(code);
        if (info == null) {
            throw fail("unknown operator " + code);
        }
        p += 2;
        return new Operator(code, info[0], Integer.parseInt(info[1]));
    }

    private Node localName() {
        expect('Z');
        Node function = encoding(false);
        expect('E');
        Node name;
        if (consume('s')) {
            discriminator();
            name = new Name("string literal");
        } else {
            int num = -1;
            if (consume('d')) {
                num = compactNumber();
            }
            name = name();
            Node bare = name;
            while (bare instanceof Mod m && m.kind.fnQual()) {
                bare = m.inner;
            }
            boolean lambdaOrUnnamed = bare instanceof Name n && n.text.startsWith("{");
            if (!lambdaOrUnnamed) {
                discriminator();
            }
            if (num >= 0) {
                name = new Special("{default arg#" + (num + 1) + "}::", name);
            }
        }
        if (function instanceof Typed t && t.type instanceof FunctionType ft) {
            ft.ret = null;
        }
        return new Local(function, name);
    }

    private List<Node> templateArgs() {
        expect('I');
        Node holdLast = lastName;
        if (consume('E')) {
            lastName = holdLast;
            return List.of();
        }
        List<Node> args = new ArrayList<>();
        while (!consume('E')) {
            if (atEnd()) {
                throw fail("unterminated template args");
            }
            args.add(templateArg());
        }
        lastName = holdLast;
        return args;
    }

    private Node templateArg() {
        char c = peek();
        switch (c) {
            case 'X': {
                p++;
                Node e = expression();
                expect('E');
                return e;
            }
            case 'L':
                return exprPrimary();
            case 'I':
            case 'J': {
                p++;
                List<Node> pack = new ArrayList<>();
                while (!consume('E')) {
                    if (atEnd()) {
                        throw fail("unterminated pack");
                    }
                    pack.add(templateArg());
                }
                return new ArgPack(pack);
            }
            default:
                return type();
        }
    }

    private Node exprPrimary() {
        expect('L');
        Node ret;
        if (peek() == '_' || peek() == 'Z') {
            ret = mangledName(false);
        } else {
            Node t = type();
            if (t instanceof Name n && n.text.equals("decltype(nullptr)") && peek() == 'E') {
                p++;
                return t;
            }
            boolean neg = consume('n');
            int start = p;
            while (peek() != 'E') {
                if (atEnd()) {
                    throw fail("unterminated literal");
                }
                p++;
            }
            ret = new Literal(t, s.substring(start, p), neg);
        }
        expect('E');
        return ret;
    }

    private Node templateParam() {
        expect('T');
        int idx = seqId() + 1;
        Node resolved = null;
        if (currentArgs != null && idx < currentArgs.size()) {
            resolved = currentArgs.get(idx);
        }
        return new TemplateParam(idx, resolved);
    }

    private Node substitution(boolean prefix) {
        expect('S');
        char c = peek();
        if (c == '_' || Character.isDigit(c) || Character.isUpperCase(c)) {
            int id = seqId() + 1;
            if (id >= subs.size()) {
                throw fail("substitution out of range");
            }
            return subs.get(id);
        }
        p++;
        boolean v = verbose;
        if (!v && prefix) {
            char n = peek();
            if (n == 'C' || n == 'D') {
                v = true;
            }
        }
        String simple;
        String full;
        String last;
        switch (c) {
            case 't' -> {
                simple = full = "std";
                last = null;
            }
            case 'a' -> {
                simple = full = "std::allocator";
                last = "allocator";
            }
            case 'b' -> {
                simple = full = "std::basic_string";
                last = "basic_string";
            }
            case 's' -> {
                simple = "std::string";
                full = "std::basic_string<char, std::char_traits<char>, std::allocator<char> >";
                last = "basic_string";
            }
            case 'i' -> {
                simple = "std::istream";
                full = "std::basic_istream<char, std::char_traits<char> >";
                last = "basic_istream";
            }
            case 'o' -> {
                simple = "std::ostream";
                full = "std::basic_ostream<char, std::char_traits<char> >";
                last = "basic_ostream";
            }
            case 'd' -> {
                simple = "std::iostream";
                full = "std::basic_iostream<char, std::char_traits<char> >";
                last = "basic_iostream";
            }
            default -> throw fail("unknown substitution S" + c);
        }
        if (last != null) {
            lastName = new Name(last);
        }
        return new Name(v ? full : simple);
    }

    // ---- types ----

    private static final String[] BUILTIN = new String[26];

    static {
        BUILTIN['a' - 'a'] = "signed char";
        BUILTIN['b' - 'a'] = "bool";
        BUILTIN['c' - 'a'] = "char";
        BUILTIN['d' - 'a'] = "double";
        BUILTIN['e' - 'a'] = "long double";
        BUILTIN['f' - 'a'] = "float";
        BUILTIN['g' - 'a'] = "__float128";
        BUILTIN['h' - 'a'] = "unsigned char";
        BUILTIN['i' - 'a'] = "int";
        BUILTIN['j' - 'a'] = "unsigned int";
        BUILTIN['l' - 'a'] = "long";
        BUILTIN['m' - 'a'] = "unsigned long";
        BUILTIN['n' - 'a'] = "__int128";
        BUILTIN['o' - 'a'] = "unsigned __int128";
        BUILTIN['s' - 'a'] = "short";
        BUILTIN['t' - 'a'] = "unsigned short";
        BUILTIN['v' - 'a'] = "void";
        BUILTIN['w' - 'a'] = "wchar_t";
        BUILTIN['x' - 'a'] = "long long";
        BUILTIN['y' - 'a'] = "unsigned long long";
        BUILTIN['z' - 'a'] = "...";
    }

    static boolean isIntLike(String t) {
        return literalSuffix(t) != null || t.equals("bool");
    }

    static String literalSuffix(String t) {
        return switch (t) {
            case "int" -> "";
            case "unsigned int" -> "u";
            case "long" -> "l";
            case "unsigned long" -> "ul";
            case "long long" -> "ll";
            case "unsigned long long" -> "ull";
            default -> null;
        };
    }

    static boolean isFloat(String t) {
        return t.equals("float") || t.equals("double") || t.equals("long double") || t.equals("__float128")
                || t.equals("half") || t.startsWith("_Float") || t.equals("std::bfloat16_t");
    }

    Node type() {
        enter();
        try {
            return type0();
        } finally {
            depth--;
        }
    }

    private Node type0() {
        char c = peek();
        if (c == 'r' || c == 'V' || c == 'K') {
            List<Mod.Kind> quals = new ArrayList<>();
            while (true) {
                char q = peek();
                if (q == 'r') {
                    quals.add(Mod.Kind.RESTRICT);
                } else if (q == 'V') {
                    quals.add(Mod.Kind.VOLATILE);
                } else if (q == 'K') {
                    quals.add(Mod.Kind.CONST);
                } else {
                    break;
                }
                p++;
            }
            Node inner;
            if (peek() == 'F') {
                inner = functionType();
                for (int i = quals.size() - 1; i >= 0; i--) {
                    inner = new Mod(thisKind(quals.get(i)), inner);
                }
            } else {
                inner = type();
                for (int i = quals.size() - 1; i >= 0; i--) {
                    inner = new Mod(quals.get(i), inner);
                }
            }
            add(inner);
            return inner;
        }
        if (c >= 'a' && c <= 'z' && BUILTIN[c - 'a'] != null) {
            p++;
            return new Name(BUILTIN[c - 'a']);
        }
        Node ret;
        boolean canSubst = true;
        switch (c) {
            case 'u': {
                p++;
                ret = new Name(sourceNameText());
                if (peek() == 'I') {
                    ret = new Template(ret, templateArgs());
                }
                break;
            }
            case 'F':
                ret = functionType();
                break;
            case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'N', 'Z':
                ret = name();
                break;
            case 'A':
                ret = arrayType();
                break;
            case 'M': {
                p++;
                Node cls = type();
                Node mem = type();
                ret = new PtrMem(cls, mem);
                break;
            }
            case 'T': {
                ret = templateParam();
                if (peek() == 'I') {
                    add(ret);
                    ret = new Template(ret, templateArgs());
                }
                break;
            }
            case 'S': {
                char n = peek(1);
                if (Character.isDigit(n) || n == '_' || Character.isUpperCase(n)) {
                    ret = substitution(false);
                    if (peek() == 'I') {
                        ret = new Template(ret, templateArgs());
                    } else {
                        canSubst = false;
                    }
                } else {
                    ret = name();
                    // A bare standard substitution (Sa, Ss, ...) is not a new candidate.
                    if (ret instanceof Name) {
                        canSubst = false;
                    }
                }
                break;
            }
            case 'O':
                p++;
                ret = new Mod(Mod.Kind.RREF, type());
                break;
            case 'P':
                p++;
                ret = new Mod(Mod.Kind.POINTER, type());
                break;
            case 'R':
                p++;
                ret = new Mod(Mod.Kind.LREF, type());
                break;
            case 'C':
                p++;
                ret = new Mod(Mod.Kind.COMPLEX, type());
                break;
            case 'G':
                p++;
                ret = new Mod(Mod.Kind.IMAGINARY, type());
                break;
            case 'U': {
                p++;
                String vendor = sourceNameText();
                if (peek() == 'I') {
                    Printer pr = new Printer();
                    pr.print(new Template(new Name(vendor), templateArgs()));
                    vendor = pr.sb.toString();
                }
                Node inner = type();
                ret = new Mod(Mod.Kind.VENDOR, inner, vendor);
                break;
            }
            case 'D': {
                canSubst = false;
                char d = peek(1);
                p += 2;
                switch (d) {
                    case 'T', 't' -> {
                        ret = new Decltype(expression());
                        expect('E');
                        canSubst = true;
                    }
                    case 'p' -> {
                        ret = new PackExpansion(type());
                        canSubst = true;
                    }
                    case 'a' -> ret = new Name("auto");
                    case 'c' -> ret = new Name("decltype(auto)");
                    case 'f' -> ret = new Name("decimal32");
                    case 'd' -> ret = new Name("decimal64");
                    case 'e' -> ret = new Name("decimal128");
                    case 'h' -> ret = new Name("half");
                    case 'u' -> ret = new Name("char8_t");
                    case 's' -> ret = new Name("char16_t");
                    case 'i' -> ret = new Name("char32_t");
                    case 'n' -> ret = new Name("decltype(nullptr)");
                    case 'F' -> {
                        if (consume("16b")) {
                            ret = new Name("std::bfloat16_t");
                        } else {
                            long bits = number();
                            if (consume('x')) {
                                ret = new Name("_Float" + bits + "x");
                            } else {
                                expect('_');
                                ret = new Name("_Float" + bits);
                            }
                        }
                    }
                    case 'v' -> {
                        Node dim;
                        if (consume('_')) {
                            dim = expression();
                            expect('_');
                        } else {
                            dim = new Name(Long.toString(number()));
                            expect('_');
                        }
                        ret = new VectorType(dim, type());
                        canSubst = true;
                    }
                    case 'o', 'O', 'w', 'x' -> {
                        // exception specification on a function type
                        if (d == 'O') {
                            expression();
                            expect('E');
                        } else if (d == 'w') {
                            while (!consume('E')) {
                                type();
                            }
                        }
                        Node f = type();
                        ret = new Mod(Mod.Kind.NOEXCEPT, f);
                        canSubst = false;
                    }
                    default -> throw fail("unknown D type D" + d);
                }
                break;
            }
            default:
                throw fail("bad type char '" + c + "' at " + p);
        }
        if (canSubst) {
            add(ret);
        }
        return ret;
    }

    private static Mod.Kind thisKind(Mod.Kind k) {
        return switch (k) {
            case CONST -> Mod.Kind.CONST_THIS;
            case VOLATILE -> Mod.Kind.VOLATILE_THIS;
            case RESTRICT -> Mod.Kind.RESTRICT_THIS;
            default -> k;
        };
    }

    private Node functionType() {
        expect('F');
        consume('Y');
        FunctionType ft = bareFunctionType(true);
        Node ret = ft;
        if (consume('R')) {
            ret = new Mod(Mod.Kind.LREF_THIS, ret);
        } else if (consume('O')) {
            ret = new Mod(Mod.Kind.RREF_THIS, ret);
        }
        expect('E');
        return ret;
    }

    private Node arrayType() {
        expect('A');
        Node dim;
        if (peek() == '_') {
            dim = null;
        } else if (Character.isDigit(peek())) {
            int start = p;
            while (Character.isDigit(peek())) {
                p++;
            }
            dim = new Name(s.substring(start, p));
        } else {
            dim = expression();
        }
        expect('_');
        return new ArrayType(dim, type());
    }

    // ---- expressions ----

    private Node expression() {
        enter();
        try {
            return expression0();
        } finally {
            depth--;
        }
    }

    private Node expression0() {
        char c = peek();
        if (c == 'L') {
            return exprPrimary();
        }
        if (c == 'T') {
            return templateParam();
        }
        if (c == 's' && peek(1) == 'r') {
            p += 2;
            Node t = type();
            Node n = unqualifiedName();
            if (peek() == 'I') {
                n = new Template(n, templateArgs());
            }
            return new Qual(t, n);
        }
        if (c == 's' && peek(1) == 'p') {
            p += 2;
            return new PackExpansion(expression());
        }
        if (c == 'f' && peek(1) == 'p') {
            p += 2;
            while (peek() == 'K' || peek() == 'V' || peek() == 'r') {
                p++;
            }
            if (consume('T')) {
                return new Name("this");
            }
            int idx = compactNumber();
            return new Name("{parm#" + (idx + 1) + "}");
        }
        if (Character.isDigit(c) || (c == 'o' && peek(1) == 'n')) {
            if (c == 'o') {
                p += 2;
            }
            Node n = unqualifiedName();
            if (peek() == 'I') {
                n = new Template(n, templateArgs());
            }
            return n;
        }
        if (c == 't' && peek(1) == 'r') {
            p += 2;
            return new Name("throw");
        }
        if (c == 'c' && peek(1) == 'l') {
            p += 2;
            Node fn = expression();
            List<Node> args = new ArrayList<>();
            while (!consume('E')) {
                if (atEnd()) {
                    throw fail("unterminated call");
                }
                args.add(expression());
            }
            return new Call(fn, args);
        }
        if (c == 'c' && peek(1) == 'v') {
            p += 2;
            Node t = type();
            if (consume('_')) {
                List<Node> args = new ArrayList<>();
                while (!consume('E')) {
                    if (atEnd()) {
                        throw fail("unterminated cast");
                    }
                    args.add(expression());
                }
                return new Call(new Name(render(t)), args);
            }
            return new Unary(new Conversion(t), expression());
        }
        if ((c == 's' && peek(1) == 't') || (c == 'a' && peek(1) == 't')) {
            Operator op = (Operator) operatorName();
            return new Unary(op, type());
        }
        if (Character.isLowerCase(c)) {
            Node op = operatorName();
            if (!(op instanceof Operator o)) {
                throw fail("bad expression operator");
            }
            switch (o.arity) {
                case 0:
                    return new Name(o.op);
                case 1:
                    if (o.code.equals("pp") || o.code.equals("mm")) {
                        if (consume('_')) {
                            return new Unary(o, expression());
                        }
                    }
                    return new Unary(o, expression());
                case 2: {
                    Node l;
                    if (o.code.equals("sc") || o.code.equals("dc") || o.code.equals("cc") || o.code.equals("rc")) {
                        l = type();
                    } else {
                        l = expression();
                    }
                    Node r = expression();
                    return new Binary(o, l, r);
                }
                case 3:
                    if (o.code.equals("qu")) {
                        Node a = expression();
                        Node b = expression();
                        Node d = expression();
                        return new Trinary(o, a, b, d);
                    }
                    throw fail("new-expression");
                default:
                    throw fail("bad arity");
            }
        }
        throw fail("unsupported expression at " + p);
    }
}
