package io.perfj.symbols.demangle;

import io.perfj.symbols.demangle.Node.*;

import java.util.List;

/**
 * Renders {@link Node}s as libiberty's cp-demangle does: type modifiers (pointers, references,
 * cv-qualifiers, member pointers) are kept on a stack while the type they apply to is printed,
 * so function and array types can place them inside their parentheses.
 */
final class Printer {
    static final class ModLink {
        final Node mod;
        boolean printed;
        final ModLink next;

        ModLink(Node mod, ModLink next) {
            this.mod = mod;
            this.next = next;
        }
    }

    final StringBuilder sb = new StringBuilder();
    private ModLink mods;
    private int depth;
    /** Printing a lambda's signature: template parameters print as auto:N (libiberty's is_lambda_arg). */
    boolean lambdaArgs;

    static final class PrintException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PrintException(String m) {
            super(m, null, false, false);
        }
    }

    /** Length of the text right after libiberty dropped a ", " (its last_char stays ' '). */
    private int truncatedAt = -1;

    private char last() {
        if (sb.length() == truncatedAt) {
            return ' ';
        }
        return sb.isEmpty() ? '\0' : sb.charAt(sb.length() - 1);
    }

    void print(Node n) {
        if (++depth > 400) {
            throw new PrintException("too deep");
        }
        try {
            print0(n);
        } finally {
            depth--;
        }
    }

    private void print0(Node n) {
        switch (n) {
            case Name x -> sb.append(x.text);
            case Qual q -> {
                print(q.scope);
                sb.append("::");
                print(q.name);
            }
            case Template t -> {
                ModLink hold = mods;
                mods = null;
                print(t.name);
                if (last() == '<') {
                    sb.append(' ');
                }
                sb.append('<');
                printList(t.args);
                if (last() == '>') {
                    sb.append(' ');
                }
                sb.append('>');
                mods = hold;
            }
            case CtorDtor c -> {
                if (c.dtor) {
                    sb.append('~');
                }
                print(c.name);
            }
            case Operator o -> {
                sb.append("operator");
                if (Character.isLowerCase(o.op.charAt(0))) {
                    sb.append(' ');
                }
                String op = o.op.endsWith(" ") ? o.op.substring(0, o.op.length() - 1) : o.op;
                sb.append(op);
            }
            case Conversion c -> {
                sb.append("operator ");
                print(c.type);
            }
            case AbiTag a -> {
                print(a.name);
                sb.append("[abi:").append(a.tag).append(']');
            }
            case Special s -> {
                sb.append(s.prefix);
                print(s.a);
            }
            case CtorVtable c -> {
                sb.append("construction vtable for ");
                print(c.a);
                sb.append("-in-");
                print(c.b);
            }
            case Local l -> {
                print(l.function);
                sb.append("::");
                Node e = l.entity;
                while (e instanceof Mod m && m.kind.fnQual()) {
                    e = m.inner;
                }
                print(e);
            }
            case Typed t -> printTyped(t);
            case FunctionType f -> {
                if (f.ret != null) {
                    ModLink self = new ModLink(f, mods);
                    mods = self;
                    print(f.ret);
                    mods = self.next;
                    if (self.printed) {
                        return;
                    }
                    sb.append(' ');
                }
                printFunctionType(f, mods);
            }
            case Mod m when !lambdaArgs && (m.kind == Mod.Kind.LREF || m.kind == Mod.Kind.RREF) && collapse(m) != m ->
                    print(collapse(m));
            case Mod m -> {
                ModLink self = new ModLink(m, mods);
                mods = self;
                print(m.inner);
                if (!self.printed) {
                    printMod(m);
                }
                mods = self.next;
            }
            case PtrMem p -> {
                ModLink self = new ModLink(p, mods);
                mods = self;
                print(p.member);
                if (!self.printed) {
                    printMod(p);
                }
                mods = self.next;
            }
            case ArrayType a -> {
                ModLink hold = mods;
                ModLink self = new ModLink(a, mods);
                mods = self;
                print(a.elem);
                mods = hold;
                if (self.printed) {
                    return;
                }
                printArrayType(a, mods);
            }
            case VectorType v -> {
                ModLink self = new ModLink(v, mods);
                mods = self;
                print(v.elem);
                if (!self.printed) {
                    printMod(v);
                }
                mods = self.next;
            }
            case Literal l -> printLiteral(l);
            case TemplateParam tp when lambdaArgs -> sb.append("auto:").append(tp.index + 1);
            case TemplateParam tp -> {
                if (tp.resolved == null) {
                    throw new PrintException("unresolved template parameter");
                }
                print(tp.resolved);
            }
            case ArgPack p -> printList(p.args);
            case PackExpansion p -> {
                ArgPack pack = findPack(p.pattern);
                if (pack == null) {
                    print(p.pattern);
                    sb.append("...");
                } else {
                    for (int i = 0; i < pack.args.size(); i++) {
                        if (i > 0) {
                            sb.append(", ");
                        }
                        print(substitutePack(p.pattern, pack.args.get(i)));
                    }
                }
            }
            case Unary u -> printUnary(u);
            case Binary b -> printBinary(b);
            case Trinary t -> {
                printSubexpr(t.a);
                printExprOp(t.op);
                printSubexpr(t.b);
                sb.append(" : ");
                printSubexpr(t.c);
            }
            case Call c -> {
                printSubexpr(c.fn);
                sb.append('(');
                printList(c.args);
                sb.append(')');
            }
            case Decltype d -> {
                sb.append("decltype (");
                print(d.expr);
                sb.append(')');
            }
        }
    }

    /** Reference collapsing through a template parameter: & + && = &, && + && = &&. */
    private static Node collapse(Mod m) {
        Node sub = m.inner;
        if (sub instanceof TemplateParam tp && tp.resolved != null) {
            sub = tp.resolved;
        }
        if (sub instanceof Mod s && (s.kind == Mod.Kind.LREF || s.kind == m.kind)) {
            return s;
        }
        if (sub instanceof Mod s && s.kind == Mod.Kind.RREF) {
            return new Mod(m.kind, s.inner);
        }
        return m;
    }

    private void printList(List<Node> args) {
        for (int i = 0; i < args.size(); i++) {
            if (i > 0) {
                sb.append(", ");
                int len = sb.length();
                print(args.get(i));
                if (sb.length() == len) {
                    sb.setLength(len - 2);
                    truncatedAt = sb.length();
                }
            } else {
                print(args.get(i));
            }
        }
    }

    private void printTyped(Typed t) {
        ModLink hold = mods;
        // The modifier list, head first: the bare name, then the function qualifiers of a local
        // entity (they apply to this function), then the name's own qualifiers.
        java.util.ArrayList<Node> wrappers = new java.util.ArrayList<>();
        Node name = t.name;
        while (name instanceof Mod m && m.kind.fnQual()) {
            wrappers.add(m);
            name = m.inner;
        }
        java.util.ArrayList<Node> order = new java.util.ArrayList<>();
        order.add(name);
        if (name instanceof Local l) {
            java.util.ArrayList<Node> entityQuals = new java.util.ArrayList<>();
            Node e = l.entity;
            while (e instanceof Mod m && m.kind.fnQual()) {
                entityQuals.add(m);
                e = m.inner;
            }
            for (int i = entityQuals.size() - 1; i >= 0; i--) {
                order.add(entityQuals.get(i));
            }
        }
        for (int i = wrappers.size() - 1; i >= 0; i--) {
            order.add(wrappers.get(i));
        }
        if (order.size() > 16) {
            throw new PrintException("too many qualifiers");
        }
        ModLink list = null;
        ModLink[] links = new ModLink[order.size()];
        for (int i = order.size() - 1; i >= 0; i--) {
            list = new ModLink(order.get(i), list);
            links[i] = list;
        }
        mods = list;
        print(t.type);
        for (int i = links.length - 1; i >= 0; i--) {
            if (!links[i].printed) {
                sb.append(' ');
                printMod(links[i].mod);
            }
        }
        mods = hold;
    }

    private void printFunctionType(FunctionType f, ModLink list) {
        boolean needParen = false;
        boolean needSpace = false;
        for (ModLink p = list; p != null; p = p.next) {
            if (p.printed) {
                break;
            }
            Node m = p.mod;
            if (m instanceof Mod mm) {
                switch (mm.kind) {
                    case POINTER, LREF, RREF -> needParen = true;
                    case CONST, VOLATILE, RESTRICT, VENDOR, COMPLEX, IMAGINARY -> {
                        needSpace = true;
                        needParen = true;
                    }
                    default -> {
                    }
                }
            } else if (m instanceof PtrMem) {
                needSpace = true;
                needParen = true;
            }
            if (needParen) {
                break;
            }
        }
        if (needParen) {
            if (!needSpace && last() != '(' && last() != '*') {
                needSpace = true;
            }
            if (needSpace && last() != ' ') {
                sb.append(' ');
            }
            sb.append('(');
        }
        ModLink hold = mods;
        mods = null;
        printModList(list, false);
        if (needParen) {
            sb.append(')');
        }
        sb.append('(');
        printList(f.params);
        sb.append(')');
        printModList(list, true);
        mods = hold;
    }

    private void printArrayType(ArrayType a, ModLink list) {
        boolean needSpace = true;
        if (list != null) {
            boolean needParen = false;
            for (ModLink p = list; p != null; p = p.next) {
                if (!p.printed) {
                    if (p.mod instanceof ArrayType) {
                        needSpace = false;
                    } else {
                        needParen = true;
                        needSpace = true;
                    }
                    break;
                }
            }
            if (needParen) {
                sb.append(" (");
            }
            printModList(list, false);
            if (needParen) {
                sb.append(')');
            }
        }
        if (needSpace) {
            sb.append(' ');
        }
        sb.append('[');
        if (a.dim != null) {
            print(a.dim);
        }
        sb.append(']');
    }

    private void printModList(ModLink list, boolean suffix) {
        for (ModLink p = list; p != null; p = p.next) {
            if (p.printed || (!suffix && p.mod instanceof Mod m && m.kind.fnQual())) {
                continue;
            }
            p.printed = true;
            if (p.mod instanceof FunctionType f) {
                printFunctionType(f, p.next);
                return;
            }
            if (p.mod instanceof ArrayType a) {
                printArrayType(a, p.next);
                return;
            }
            printMod(p.mod);
        }
    }

    private void printMod(Node m) {
        switch (m) {
            case Mod mm -> {
                if (mm.kind == Mod.Kind.VENDOR) {
                    sb.append(' ').append(mm.vendor);
                } else {
                    sb.append(mm.kind.text);
                }
            }
            case PtrMem p -> {
                if (last() != '(') {
                    sb.append(' ');
                }
                print(p.cls);
                sb.append("::*");
            }
            case VectorType v -> {
                sb.append(" __vector(");
                print(v.dim);
                sb.append(')');
            }
            default -> print(m);
        }
    }

    private void printLiteral(Literal l) {
        if (l.type instanceof Name n && Parser.isIntLike(n.text)) {
            String suffix = Parser.literalSuffix(n.text);
            if (suffix != null) {
                if (l.negative) {
                    sb.append('-');
                }
                sb.append(l.value).append(suffix);
                return;
            }
            if (n.text.equals("bool") && !l.negative && (l.value.equals("0") || l.value.equals("1"))) {
                sb.append(l.value.equals("0") ? "false" : "true");
                return;
            }
        }
        boolean isFloat = l.type instanceof Name n && Parser.isFloat(n.text);
        sb.append('(');
        print(l.type);
        sb.append(')');
        if (l.negative) {
            sb.append('-');
        }
        if (isFloat) {
            sb.append('[');
        }
        sb.append(l.value);
        if (isFloat) {
            sb.append(']');
        }
    }

    private void printExprOp(Node op) {
        if (op instanceof Operator o) {
            sb.append(o.op);
        } else {
            print(op);
        }
    }

    private void printSubexpr(Node n) {
        boolean simple = n instanceof Name || n instanceof Qual;
        if (!simple) {
            sb.append('(');
        }
        print(n);
        if (!simple) {
            sb.append(')');
        }
    }

    private void printUnary(Unary u) {
        String code = u.op instanceof Operator o ? o.code : null;
        Node operand = u.arg;
        if ("ad".equals(code) && operand instanceof Typed t && t.name instanceof Qual && t.type instanceof FunctionType) {
            operand = t.name;
        }
        if (u.op instanceof Conversion c) {
            sb.append('(');
            print(c.type);
            sb.append(')');
        } else {
            printExprOp(u.op);
        }
        if ("gs".equals(code)) {
            print(operand);
        } else if ("st".equals(code) || "at".equals(code)) {
            sb.append('(');
            print(operand);
            sb.append(')');
        } else {
            printSubexpr(operand);
        }
    }

    private void printBinary(Binary b) {
        String code = b.op instanceof Operator o ? o.code : null;
        boolean gt = b.op instanceof Operator o && o.op.equals(">");
        if (gt) {
            sb.append('(');
        }
        if ("sc".equals(code) || "dc".equals(code) || "cc".equals(code) || "rc".equals(code)) {
            printExprOp(b.op);
            sb.append('<');
            print(b.left);
            sb.append(">(");
            print(b.right);
            sb.append(')');
        } else {
            printSubexpr(b.left);
            if ("ix".equals(code)) {
                sb.append('[');
                print(b.right);
                sb.append(']');
            } else {
                printExprOp(b.op);
                printSubexpr(b.right);
            }
        }
        if (gt) {
            sb.append(')');
        }
    }

    private static ArgPack findPack(Node n) {
        return switch (n) {
            case TemplateParam tp -> tp.resolved instanceof ArgPack p ? p : null;
            case Mod m -> findPack(m.inner);
            case Template t -> {
                for (Node a : t.args) {
                    ArgPack p = findPack(a);
                    if (p != null) {
                        yield p;
                    }
                }
                yield null;
            }
            case Qual q -> {
                ArgPack p = findPack(q.scope);
                yield p != null ? p : findPack(q.name);
            }
            default -> null;
        };
    }

    private static Node substitutePack(Node n, Node element) {
        return switch (n) {
            case TemplateParam tp -> tp.resolved instanceof ArgPack ? element : tp;
            case Mod m -> new Mod(m.kind, substitutePack(m.inner, element), m.vendor);
            case Template t -> new Template(t.name, t.args.stream().map(a -> substitutePack(a, element)).toList());
            case Qual q -> new Qual(substitutePack(q.scope, element), substitutePack(q.name, element));
            default -> n;
        };
    }
}
