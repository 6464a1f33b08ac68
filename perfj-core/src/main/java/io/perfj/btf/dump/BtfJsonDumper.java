package io.perfj.btf.dump;

import io.perfj.io.TextOut;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfType;

import java.io.OutputStream;

/**
 * {@code bpftool -j btf dump file F}: {@code {"types":[{...},...]}} on one line, one object per
 * type with the fields bpftool's {@code dump_btf_type} writes, in its order. Differences from
 * bpftool 7.1, which writes invalid JSON for some names: a backslash is escaped as {@code \\}
 * (bpftool writes {@code \n}), a single quote is not escaped, and other control characters are
 * written as {@code \}{@code u00XX}. Numbers are bpftool's, including its sign extension of
 * 32-bit values of unsigned enums (0xf0000000 is written as 18446744073441116160): it passes the
 * signed 32-bit field to its unsigned 64-bit writer.
 */
public final class BtfJsonDumper {
    private final TextOut out;
    private boolean first;

    private BtfJsonDumper(OutputStream os) {
        this.out = new TextOut(os, 1 << 16);
    }

    /** The whole document, with bpftool's trailing newline. */
    public static void dump(Btf btf, OutputStream os) {
        BtfJsonDumper d = new BtfJsonDumper(os);
        d.document(btf);
        d.out.ch('\n');
        d.out.flush();
    }

    /** The {@code {"types":[...]}} object without a newline, for embedding. */
    public static void dumpObject(Btf btf, OutputStream os, String prefixFields) {
        BtfJsonDumper d = new BtfJsonDumper(os);
        d.out.ch('{');
        if (prefixFields != null) {
            d.out.str(prefixFields).ch(',');
        }
        d.types(btf);
        d.out.ch('}');
        d.out.flush();
    }

    private void document(Btf btf) {
        out.ch('{');
        types(btf);
        out.ch('}');
    }

    private void types(Btf btf) {
        out.str("\"types\":[");
        int end = btf.typeCount();
        for (int id = btf.startId(); id < end; id++) {
            if (id != btf.startId()) {
                out.ch(',');
            }
            type(id, btf.type(id));
        }
        out.ch(']');
    }

    private void key(String k) {
        if (!first) {
            out.ch(',');
        }
        first = false;
        out.ch('"').str(k).str("\":");
    }

    private void string(String k, String v) {
        key(k);
        quoted(v);
    }

    private void name(String k, int nameOff, String v) {
        string(k, nameOff == 0 ? "(anon)" : v);
    }

    private void uint(String k, int v) {
        key(k);
        out.u32(v);
    }

    private void quoted(String v) {
        out.ch('"');
        int start = 0;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            String esc = switch (c) {
                case '\t' -> "\\t";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\f' -> "\\f";
                case '\b' -> "\\b";
                case '\\' -> "\\\\";
                case '"' -> "\\\"";
                default -> c < 0x20 ? String.format("\\u%04x", (int) c) : null;
            };
            if (esc != null) {
                out.str(v.substring(start, i)).str(esc);
                start = i + 1;
            }
        }
        out.str(start == 0 ? v : v.substring(start)).ch('"');
    }

    private void open() {
        out.ch('{');
        first = true;
    }

    private void close() {
        out.ch('}');
        first = false;
    }

    private void array(String k) {
        key(k);
        out.ch('[');
    }

    private void item(int i) {
        if (i > 0) {
            out.ch(',');
        }
        open();
    }

    private void type(int id, BtfType t) {
        open();
        uint("id", id);
        string("kind", t.kind().label());
        name("name", t.nameOff(), t.name());
        switch (t) {
            case BtfType.Int i -> {
                uint("size", i.size());
                uint("bits_offset", i.bitOffset());
                uint("nr_bits", i.bits());
                string("encoding", BtfRawDumper.intEncoding(i.encoding()));
            }
            case BtfType.Ptr r -> uint("type_id", r.type());
            case BtfType.Typedef r -> uint("type_id", r.type());
            case BtfType.Modifier r -> uint("type_id", r.type());
            case BtfType.Array a -> {
                uint("type_id", a.type());
                uint("index_type_id", a.indexType());
                uint("nr_elems", a.nelems());
            }
            case BtfType.Composite c -> {
                uint("size", c.size());
                uint("vlen", c.members().size());
                array("members");
                int n = 0;
                for (BtfType.Member m : c.members()) {
                    item(n++);
                    name("name", m.nameOff(), m.name());
                    uint("type_id", m.type());
                    uint("bits_offset", m.bitOffset());
                    if (m.bitfieldSize() != 0) {
                        uint("bitfield_size", m.bitfieldSize());
                    }
                    close();
                }
                out.ch(']');
            }
            case BtfType.EnumType e -> {
                string("encoding", e.signed() ? "SIGNED" : "UNSIGNED");
                uint("size", e.size());
                uint("vlen", e.values().size());
                array("values");
                int n = 0;
                boolean wide = e instanceof BtfType.Enum64;
                for (BtfType.EnumValue v : e.values()) {
                    item(n++);
                    name("name", v.nameOff(), v.name());
                    key("val");
                    if (e.signed()) {
                        out.dec(wide ? v.value() : (int) v.value());
                    } else {
                        out.udec(wide ? v.value() : (int) v.value());
                    }
                    close();
                }
                out.ch(']');
            }
            case BtfType.Fwd f -> string("fwd_kind", f.union() ? "union" : "struct");
            case BtfType.Func f -> {
                uint("type_id", f.type());
                string("linkage", BtfRawDumper.linkage(f.linkage()));
            }
            case BtfType.FuncProto f -> {
                uint("ret_type_id", f.returnType());
                uint("vlen", f.params().size());
                array("params");
                int n = 0;
                for (BtfType.Param p : f.params()) {
                    item(n++);
                    name("name", p.nameOff(), p.name());
                    uint("type_id", p.type());
                    close();
                }
                out.ch(']');
            }
            case BtfType.Var v -> {
                uint("type_id", v.type());
                string("linkage", BtfRawDumper.linkage(v.linkage()));
            }
            case BtfType.Datasec d -> {
                uint("size", d.size());
                uint("vlen", d.vars().size());
                array("vars");
                int n = 0;
                for (BtfType.VarSecinfo v : d.vars()) {
                    item(n++);
                    uint("type_id", v.type());
                    uint("offset", v.offset());
                    uint("size", v.size());
                    close();
                }
                out.ch(']');
            }
            case BtfType.Float f -> uint("size", f.size());
            case BtfType.DeclTag d -> {
                uint("type_id", d.type());
                key("component_idx");
                out.dec(d.componentIdx());
            }
            case BtfType.Void v -> {
            }
        }
        close();
    }
}
