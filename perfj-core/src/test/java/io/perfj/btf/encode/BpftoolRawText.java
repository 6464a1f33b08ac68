package io.perfj.btf.encode;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfType;

/**
 * BTF as {@code bpftool btf dump file F format raw} (bpftool 7.1, src/btf.c dump_btf_type)
 * prints it, for comparing encodings with pahole's without running bpftool.
 */
final class BpftoolRawText {
    private BpftoolRawText() {
    }

    static String of(Btf btf) {
        StringBuilder sb = new StringBuilder();
        for (int id : btf.ownIds()) {
            BtfType t = btf.type(id);
            String name = t.name() == null || t.name().isEmpty() ? "(anon)" : t.name();
            sb.append('[').append(id).append("] ").append(kind(t)).append(" '").append(name).append('\'');
            switch (t) {
                case BtfType.Int i -> sb.append(" size=").append(i.size()).append(" bits_offset=").append(i.bitOffset())
                        .append(" nr_bits=").append(i.bits()).append(" encoding=").append(switch (i.encoding()) {
                            case 0 -> "(none)";
                            case 1 -> "SIGNED";
                            case 2 -> "CHAR";
                            case 4 -> "BOOL";
                            default -> "UNKN";
                        });
                case BtfType.Ptr p -> sb.append(" type_id=").append(p.type());
                case BtfType.Typedef p -> sb.append(" type_id=").append(p.type());
                case BtfType.Modifier p -> sb.append(" type_id=").append(p.type());
                case BtfType.Array a -> sb.append(" type_id=").append(a.type()).append(" index_type_id=")
                        .append(a.indexType()).append(" nr_elems=").append(Integer.toUnsignedString(a.nelems()));
                case BtfType.Composite c -> {
                    sb.append(" size=").append(c.size()).append(" vlen=").append(c.members().size());
                    for (BtfType.Member m : c.members()) {
                        sb.append("\n\t'").append(m.name() == null || m.name().isEmpty() ? "(anon)" : m.name())
                                .append("' type_id=").append(m.type()).append(" bits_offset=").append(m.bitOffset());
                        if (m.bitfieldSize() != 0) {
                            sb.append(" bitfield_size=").append(m.bitfieldSize());
                        }
                    }
                }
                case BtfType.Enum e -> {
                    sb.append(" encoding=").append(e.signed() ? "SIGNED" : "UNSIGNED").append(" size=")
                            .append(e.size()).append(" vlen=").append(e.values().size());
                    for (BtfType.EnumValue v : e.values()) {
                        sb.append("\n\t'").append(v.name()).append("' val=")
                                .append(e.signed() ? Long.toString((int) v.value())
                                        : Integer.toUnsignedString((int) v.value()));
                    }
                }
                case BtfType.Enum64 e -> {
                    sb.append(" encoding=").append(e.signed() ? "SIGNED" : "UNSIGNED").append(" size=")
                            .append(e.size()).append(" vlen=").append(e.values().size());
                    for (BtfType.EnumValue v : e.values()) {
                        sb.append("\n\t'").append(v.name()).append("' val=")
                                .append(e.signed() ? v.value() + "LL" : Long.toUnsignedString(v.value()) + "ULL");
                    }
                }
                case BtfType.Fwd f -> sb.append(" fwd_kind=").append(f.union() ? "union" : "struct");
                case BtfType.Func f -> sb.append(" type_id=").append(f.type()).append(" linkage=")
                        .append(linkage(f.linkage()));
                case BtfType.FuncProto f -> {
                    sb.append(" ret_type_id=").append(f.returnType()).append(" vlen=").append(f.params().size());
                    for (BtfType.Param p : f.params()) {
                        sb.append("\n\t'").append(p.name() == null || p.name().isEmpty() ? "(anon)" : p.name())
                                .append("' type_id=").append(p.type());
                    }
                }
                case BtfType.Var v -> sb.append(" type_id=").append(v.type()).append(", linkage=")
                        .append(linkage(v.linkage()));
                case BtfType.Datasec d -> {
                    sb.append(" size=").append(d.size()).append(" vlen=").append(d.vars().size());
                    for (BtfType.VarSecinfo v : d.vars()) {
                        sb.append("\n\ttype_id=").append(v.type()).append(" offset=").append(v.offset())
                                .append(" size=").append(v.size());
                        if (btf.type(v.type()) instanceof BtfType.Var var) {
                            sb.append(" (VAR '").append(var.name()).append("')");
                        }
                    }
                }
                case BtfType.Float f -> sb.append(" size=").append(f.size());
                case BtfType.DeclTag d -> sb.append(" type_id=").append(d.type()).append(" component_idx=")
                        .append(d.componentIdx());
                default -> sb.append(" ?");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String linkage(int l) {
        return switch (l) {
            case 0 -> "static";
            case 1 -> "global";
            case 2 -> "extern";
            default -> "(unknown)";
        };
    }

    private static String kind(BtfType t) {
        return switch (t) {
            case BtfType.Int x -> "INT";
            case BtfType.Ptr x -> "PTR";
            case BtfType.Array x -> "ARRAY";
            case BtfType.Struct x -> "STRUCT";
            case BtfType.Union x -> "UNION";
            case BtfType.Enum x -> "ENUM";
            case BtfType.Enum64 x -> "ENUM64";
            case BtfType.Fwd x -> "FWD";
            case BtfType.Typedef x -> "TYPEDEF";
            case BtfType.Volatile x -> "VOLATILE";
            case BtfType.Const x -> "CONST";
            case BtfType.Restrict x -> "RESTRICT";
            case BtfType.TypeTag x -> "TYPE_TAG";
            case BtfType.Func x -> "FUNC";
            case BtfType.FuncProto x -> "FUNC_PROTO";
            case BtfType.Var x -> "VAR";
            case BtfType.Datasec x -> "DATASEC";
            case BtfType.Float x -> "FLOAT";
            case BtfType.DeclTag x -> "DECL_TAG";
            default -> "UNKN";
        };
    }
}
