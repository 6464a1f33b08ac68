package io.perfj.bpf;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfType;
import io.perfj.io.FormatException;

import java.util.Optional;

/**
 * A {@link BtfText} over the BTF model: strings as libbpf's {@code btf__name_by_offset} finds
 * them, and types spelled as bpftool's {@code btf_dumper_type_only} spells them (bpftool
 * src/btf_dumper.c): {@code "int perfj_xdp(struct xdp_md * ctx)"} for a FUNC, a type's base
 * name followed by a blank, {@code "* "} after a pointee, qualifiers before, {@code [N]} after
 * an array's element; an argument without a name loses the blank before the next comma.
 * Kinds bpftool does not spell (DECL_TAG, TYPE_TAG) and signatures of 1024 bytes or more
 * (bpftool's buffer) give the empty string, as does anything malformed.
 */
public final class BtfSignatures implements BtfText {
    /** bpftool's func_sig buffer; a signature that does not fit is dropped. */
    static final int BUFFER = 1024;
    private static final int MAX_DEPTH = 64;

    private final Btf btf;

    private BtfSignatures(Btf btf) {
        this.btf = btf;
    }

    /** A view of the model {@code btf}. */
    public static BtfText of(Btf btf) {
        return new BtfSignatures(btf);
    }

    /**
     * A view of raw BTF {@code data}: the model when it parses; else, when the feature
     * package's lenient index still reads it, strings and names without signatures; else
     * {@link BtfText#NONE}.
     */
    public static BtfText parse(byte[] data, String source) {
        try {
            return new BtfSignatures(Btf.parse(data, source));
        } catch (FormatException | IllegalArgumentException e) {
            BtfNames names = BtfNames.parse(data);
            return names == null ? BtfText.NONE : new BtfNamesText(names);
        }
    }

    /** The model behind this view. */
    public Btf btf() {
        return btf;
    }

    @Override
    public Optional<String> string(long offset) {
        if (offset < 0 || offset > Integer.MAX_VALUE || !btf.hasString((int) offset)) {
            return Optional.empty();
        }
        try {
            return Optional.of(btf.string((int) offset));
        } catch (FormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<String> typeName(long typeId) {
        if (typeId <= 0 || typeId > Integer.MAX_VALUE || !btf.hasType((int) typeId)) {
            return Optional.empty();
        }
        String n = btf.type((int) typeId).name();
        return n == null || n.isEmpty() ? Optional.empty() : Optional.of(n);
    }

    @Override
    public String typeOnly(long typeId) {
        StringBuilder sb = new StringBuilder();
        try {
            if (typeId < 0 || typeId > Integer.MAX_VALUE || !type(sb, (int) typeId, 0) || sb.length() >= BUFFER) {
                return "";
            }
        } catch (FormatException | IllegalArgumentException e) {
            return "";
        }
        return sb.toString();
    }

    private boolean type(StringBuilder sb, int id, int depth) {
        if (depth > MAX_DEPTH || sb.length() >= BUFFER) {
            return false;
        }
        if (id == 0) {
            sb.append("void ");
            return true;
        }
        if (!btf.hasType(id)) {
            return false;
        }
        BtfType t = btf.type(id);
        switch (t) {
            case BtfType.Int i -> sb.append(i.name()).append(' ');
            case BtfType.Typedef td -> sb.append(td.name()).append(' ');
            case BtfType.Float f -> sb.append(f.name()).append(' ');
            case BtfType.Struct s -> sb.append("struct ").append(s.name()).append(' ');
            case BtfType.Union u -> sb.append("union ").append(u.name()).append(' ');
            case BtfType.Enum e -> sb.append("enum ").append(e.name()).append(' ');
            case BtfType.Enum64 e -> sb.append("enum ").append(e.name()).append(' ');
            case BtfType.Array a -> {
                if (!type(sb, a.type(), depth + 1)) {
                    return false;
                }
                sb.append('[').append(a.nelems()).append(']');
            }
            case BtfType.Ptr p -> {
                if (!type(sb, p.type(), depth + 1)) {
                    return false;
                }
                sb.append("* ");
            }
            case BtfType.Fwd f -> sb.append(f.union() ? "union " : "struct ").append(f.name()).append(' ');
            case BtfType.Volatile v -> {
                sb.append("volatile ");
                return type(sb, v.type(), depth + 1);
            }
            case BtfType.Const c -> {
                sb.append("const ");
                return type(sb, c.type(), depth + 1);
            }
            case BtfType.Restrict r -> {
                sb.append("restrict ");
                return type(sb, r.type(), depth + 1);
            }
            case BtfType.FuncProto fp -> {
                return func(sb, fp, null, depth);
            }
            case BtfType.Func f -> {
                if (!btf.hasType(f.type()) || !(btf.type(f.type()) instanceof BtfType.FuncProto fp)) {
                    return false;
                }
                return func(sb, fp, f.name(), depth);
            }
            case BtfType.Var v -> {
                if (v.linkage() == BtfType.Var.STATIC) {
                    sb.append("static ");
                }
                if (!type(sb, v.type(), depth + 1)) {
                    return false;
                }
                sb.append(' ').append(v.name());
            }
            case BtfType.Datasec d -> sb.append("section (\"").append(d.name()).append("\") ");
            default -> {
                return false;
            }
        }
        return true;
    }

    private boolean func(StringBuilder sb, BtfType.FuncProto fp, String name, int depth) {
        if (!type(sb, fp.returnType(), depth + 1)) {
            return false;
        }
        sb.append(name == null ? "" : name).append('(');
        for (int i = 0; i < fp.params().size(); i++) {
            BtfType.Param p = fp.params().get(i);
            if (i > 0) {
                sb.append(", ");
            }
            if (p.type() != 0) {
                if (!type(sb, p.type(), depth + 1)) {
                    return false;
                }
                if (p.nameOff() != 0) {
                    sb.append(p.name());
                } else if (!sb.isEmpty() && sb.charAt(sb.length() - 1) == ' ') {
                    sb.setLength(sb.length() - 1);
                }
            } else {
                sb.append("...");
            }
        }
        sb.append(')');
        return true;
    }
}
