package io.perfj.symbols.demangle;

import java.util.List;

/** Demangled C++ entities; printing follows libiberty's cp-demangle layout. */
abstract sealed class Node {

    /** Plain text: identifiers, builtin types, "(anonymous namespace)", standard substitutions. */
    static final class Name extends Node {
        final String text;

        Name(String text) {
            this.text = text;
        }
    }

    /** scope::name */
    static final class Qual extends Node {
        final Node scope;
        final Node name;

        Qual(Node scope, Node name) {
            this.scope = scope;
            this.name = name;
        }
    }

    /** name&lt;args&gt; */
    static final class Template extends Node {
        final Node name;
        final List<Node> args;

        Template(Node name, List<Node> args) {
            this.name = name;
            this.args = args;
        }
    }

    /** A constructor or destructor of the class last named. */
    static final class CtorDtor extends Node {
        final Node name;
        final boolean dtor;

        CtorDtor(Node name, boolean dtor) {
            this.name = name;
            this.dtor = dtor;
        }
    }

    static final class Operator extends Node {
        final String op;
        final int arity;
        final String code;

        Operator(String code, String op, int arity) {
            this.code = code;
            this.op = op;
            this.arity = arity;
        }
    }

    /** operator TYPE */
    static final class Conversion extends Node {
        final Node type;

        Conversion(Node type) {
            this.type = type;
        }
    }

    /** name[abi:tag] */
    static final class AbiTag extends Node {
        final Node name;
        final String tag;

        AbiTag(Node name, String tag) {
            this.name = name;
            this.tag = tag;
        }
    }

    /** PREFIX TEXT, e.g. "vtable for X", or "X-in-Y" style. */
    static final class Special extends Node {
        final String prefix;
        final Node a;

        Special(String prefix, Node a) {
            this.prefix = prefix;
            this.a = a;
        }
    }

    static final class CtorVtable extends Node {
        final Node a;
        final Node b;

        CtorVtable(Node a, Node b) {
            this.a = a;
            this.b = b;
        }
    }

    /** function::entity */
    static final class Local extends Node {
        final Node function;
        final Node entity;

        Local(Node function, Node entity) {
            this.function = function;
            this.entity = entity;
        }
    }

    /** A function name with its type (printed as "ret name(params) quals"). */
    static final class Typed extends Node {
        final Node name;
        final Node type;

        Typed(Node name, Node type) {
            this.name = name;
            this.type = type;
        }
    }

    static final class FunctionType extends Node {
        Node ret;
        final List<Node> params;

        FunctionType(Node ret, List<Node> params) {
            this.ret = ret;
            this.params = params;
        }
    }

    /**
     * A type modifier wrapping {@code inner}: pointer, references, cv-qualifiers (also the
     * function qualifiers that apply to "this"), complex/imaginary, vendor qualifiers.
     */
    static final class Mod extends Node {
        enum Kind {
            POINTER("*"), LREF("&"), RREF("&&"), CONST(" const"), VOLATILE(" volatile"), RESTRICT(" restrict"),
            CONST_THIS(" const"), VOLATILE_THIS(" volatile"), RESTRICT_THIS(" restrict"), LREF_THIS(" &"),
            RREF_THIS(" &&"), COMPLEX(" _Complex"), IMAGINARY(" _Imaginary"), VENDOR(""), NOEXCEPT(" noexcept"),
            TX_SAFE(" transaction_safe"), THROW(" throw()");

            final String text;

            Kind(String text) {
                this.text = text;
            }

            boolean fnQual() {
                return this == CONST_THIS || this == VOLATILE_THIS || this == RESTRICT_THIS || this == LREF_THIS
                        || this == RREF_THIS || this == NOEXCEPT || this == TX_SAFE || this == THROW;
            }
        }

        final Kind kind;
        Node inner;
        final String vendor;

        Mod(Kind kind, Node inner) {
            this(kind, inner, null);
        }

        Mod(Kind kind, Node inner, String vendor) {
            this.kind = kind;
            this.inner = inner;
            this.vendor = vendor;
        }
    }

    static final class ArrayType extends Node {
        final Node dim;
        final Node elem;

        ArrayType(Node dim, Node elem) {
            this.dim = dim;
            this.elem = elem;
        }
    }

    static final class PtrMem extends Node {
        final Node cls;
        final Node member;

        PtrMem(Node cls, Node member) {
            this.cls = cls;
            this.member = member;
        }
    }

    static final class VectorType extends Node {
        final Node dim;
        final Node elem;

        VectorType(Node dim, Node elem) {
            this.dim = dim;
            this.elem = elem;
        }
    }

    /** A literal: {@code (type)value}, or a plain value for int-like kinds. */
    static final class Literal extends Node {
        final Node type;
        final String value;
        final boolean negative;

        Literal(Node type, String value, boolean negative) {
            this.type = type;
            this.value = value;
            this.negative = negative;
        }
    }

    /** A template parameter, resolved when parsed. */
    static final class TemplateParam extends Node {
        final int index;
        Node resolved;

        TemplateParam(int index, Node resolved) {
            this.index = index;
            this.resolved = resolved;
        }
    }

    /** A pack of template arguments (J...E). */
    static final class ArgPack extends Node {
        final List<Node> args;

        ArgPack(List<Node> args) {
            this.args = args;
        }
    }

    static final class PackExpansion extends Node {
        final Node pattern;

        PackExpansion(Node pattern) {
            this.pattern = pattern;
        }
    }

    /** Expression pieces, printed the way libiberty prints them. */
    static final class Unary extends Node {
        final Node op;
        final Node arg;

        Unary(Node op, Node arg) {
            this.op = op;
            this.arg = arg;
        }
    }

    static final class Binary extends Node {
        final Node op;
        final Node left;
        final Node right;

        Binary(Node op, Node left, Node right) {
            this.op = op;
            this.left = left;
            this.right = right;
        }
    }

    static final class Trinary extends Node {
        final Node op;
        final Node a;
        final Node b;
        final Node c;

        Trinary(Node op, Node a, Node b, Node c) {
            this.op = op;
            this.a = a;
            this.b = b;
            this.c = c;
        }
    }

    static final class Call extends Node {
        final Node fn;
        final List<Node> args;

        Call(Node fn, List<Node> args) {
            this.fn = fn;
            this.args = args;
        }
    }

    static final class Decltype extends Node {
        final Node expr;

        Decltype(Node expr) {
            this.expr = expr;
        }
    }
}
