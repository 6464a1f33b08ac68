package io.perfj.trace;

import java.util.List;

/**
 * One argument of a {@code print fmt:} line, as libtraceevent models it: atoms (numbers, names,
 * quoted strings), {@code REC->field}, operators, ternaries, casts and the helper functions the
 * kernel's {@code TP_printk} macros expand to.
 */
public sealed interface PrintArg {
    /** A number, an unresolved name (an enum constant) or the text of a quoted string. */
    record Atom(String text) implements PrintArg {
    }

    /** {@code REC->name}. */
    record Field(FormatField field) implements PrintArg {
    }

    /** A unary ({@code left} null) or binary operator; {@code [} is array indexing. */
    record Op(String op, PrintArg left, PrintArg right) implements PrintArg {
    }

    /** {@code cond ? a : b}. */
    record Ternary(PrintArg cond, PrintArg then, PrintArg otherwise) implements PrintArg {
    }

    /** {@code (type) item}. */
    record Cast(String type, PrintArg item) implements PrintArg {
    }

    /** One {@code { value, "name" }} of {@code __print_flags}/{@code __print_symbolic}; value as libtraceevent keeps it. */
    record Sym(String value, String name) {
    }

    /** {@code __print_flags(value, "delim", {..}...)}. */
    record Flags(PrintArg value, String delim, List<Sym> flags) implements PrintArg {
    }

    /** {@code __print_symbolic(value, {..}...)}. */
    record Symbolic(PrintArg value, List<Sym> symbols) implements PrintArg {
    }

    /** {@code __get_str(field)} / {@code __get_rel_str(field)}: the dynamic string. */
    record DynString(FormatField field) implements PrintArg {
    }

    /** {@code __get_dynamic_array(field)}: the dynamic array's bytes. */
    record DynArray(FormatField field) implements PrintArg {
    }

    /** {@code __get_dynamic_array_len(field)}. */
    record DynArrayLen(FormatField field) implements PrintArg {
    }

    /** {@code __get_bitmask(field)}. */
    record Bitmask(FormatField field) implements PrintArg {
    }

    /** {@code __print_hex(buf, len)} (bytes apart) or {@code __print_hex_str} (bytes together). */
    record Hex(PrintArg buf, PrintArg len, boolean together) implements PrintArg {
    }

    /** {@code __print_array(array, count, element size)}. */
    record IntArray(PrintArg array, PrintArg count, PrintArg elementSize) implements PrintArg {
    }
}
