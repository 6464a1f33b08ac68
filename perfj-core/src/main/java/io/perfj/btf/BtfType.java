package io.perfj.btf;

import java.util.List;

/**
 * One BTF type, a record per kind (linux {@code Documentation/bpf/btf.rst}, section 2.2). Every
 * type carries its name and the string offset the name came from ({@code nameOff}, 0 for an
 * anonymous type); type references are type ids (0 = void) into the {@link Btf} the type
 * belongs to. Records are plain values: two types are equal when all their fields are.
 *
 * <p>Grouping interfaces: {@link Sized} (has a byte size), {@link Referring} (refers to one
 * type), {@link Modifier} (const/volatile/restrict/type tag), {@link Composite} (struct and
 * union), {@link EnumType} (enum and enum64).
 */
public sealed interface BtfType {

    /** The type's name, "" when anonymous. */
    String name();

    /** Offset of the name in the string section (0 when anonymous). */
    int nameOff();

    BtfKind kind();

    /** Whether the type has no name. */
    default boolean anonymous() {
        return nameOff() == 0;
    }

    /** Kinds with a byte size in the type record: INT, STRUCT, UNION, ENUM, ENUM64, DATASEC, FLOAT. */
    sealed interface Sized extends BtfType permits Int, Composite, EnumType, Datasec, Float {
        int size();
    }

    /** Kinds whose type record names one other type. */
    sealed interface Referring extends BtfType permits Ptr, Typedef, Modifier,
            Func, Var, DeclTag {
        int type();
    }

    /** Qualifiers and type tags: transparent for size and layout. */
    sealed interface Modifier extends Referring permits Volatile, Const, Restrict, TypeTag {
    }

    /** STRUCT and UNION. */
    sealed interface Composite extends Sized permits Struct, Union {
        /** Whether member offsets carry bitfield sizes (kind_flag set). */
        boolean kindFlag();

        List<Member> members();
    }

    /** ENUM and ENUM64. */
    sealed interface EnumType extends Sized permits Enum, Enum64 {
        /** kind_flag: values are signed. */
        boolean signed();

        List<EnumValue> values();
    }

    /** Type id 0. */
    record Void() implements BtfType {
        public static final Void INSTANCE = new Void();

        public String name() {
            return "void";
        }

        public int nameOff() {
            return 0;
        }

        public BtfKind kind() {
            return BtfKind.UNKN;
        }
    }

    /** INT: {@code encoding} is a mask of {@link #SIGNED}, {@link #CHAR}, {@link #BOOL}. */
    record Int(String name, int nameOff, int size, int encoding, int bitOffset, int bits) implements Sized {
        public static final int SIGNED = 1;
        public static final int CHAR = 2;
        public static final int BOOL = 4;

        public BtfKind kind() {
            return BtfKind.INT;
        }

        public boolean isSigned() {
            return (encoding & SIGNED) != 0;
        }
    }

    record Ptr(String name, int nameOff, int type) implements Referring {
        public BtfKind kind() {
            return BtfKind.PTR;
        }
    }

    record Array(String name, int nameOff, int type, int indexType, int nelems) implements BtfType {
        public BtfKind kind() {
            return BtfKind.ARRAY;
        }

        /** Element count as an unsigned number. */
        public long count() {
            return Integer.toUnsignedLong(nelems);
        }
    }

    record Struct(String name, int nameOff, int size, boolean kindFlag, List<Member> members) implements Composite {
        public Struct {
            members = List.copyOf(members);
        }

        public BtfKind kind() {
            return BtfKind.STRUCT;
        }
    }

    record Union(String name, int nameOff, int size, boolean kindFlag, List<Member> members) implements Composite {
        public Union {
            members = List.copyOf(members);
        }

        public BtfKind kind() {
            return BtfKind.UNION;
        }
    }

    /** ENUM: 32-bit values, sign-extended into {@link EnumValue#value()} when signed. */
    record Enum(String name, int nameOff, int size, boolean signed, List<EnumValue> values) implements EnumType {
        public Enum {
            values = List.copyOf(values);
        }

        public BtfKind kind() {
            return BtfKind.ENUM;
        }
    }

    record Enum64(String name, int nameOff, int size, boolean signed, List<EnumValue> values) implements EnumType {
        public Enum64 {
            values = List.copyOf(values);
        }

        public BtfKind kind() {
            return BtfKind.ENUM64;
        }
    }

    /** FWD: a forward declaration of a struct, or of a union when {@code union} (kind_flag). */
    record Fwd(String name, int nameOff, boolean union) implements BtfType {
        public BtfKind kind() {
            return BtfKind.FWD;
        }
    }

    record Typedef(String name, int nameOff, int type) implements Referring {
        public BtfKind kind() {
            return BtfKind.TYPEDEF;
        }
    }

    record Volatile(String name, int nameOff, int type) implements Modifier {
        public BtfKind kind() {
            return BtfKind.VOLATILE;
        }
    }

    record Const(String name, int nameOff, int type) implements Modifier {
        public BtfKind kind() {
            return BtfKind.CONST;
        }
    }

    record Restrict(String name, int nameOff, int type) implements Modifier {
        public BtfKind kind() {
            return BtfKind.RESTRICT;
        }
    }

    /** TYPE_TAG; {@code kindFlag} marks an attribute tag (newer kernels). */
    record TypeTag(String name, int nameOff, int type, boolean kindFlag) implements Modifier {
        public BtfKind kind() {
            return BtfKind.TYPE_TAG;
        }
    }

    /** FUNC: {@code type} is a FUNC_PROTO; linkage is {@link #STATIC}, {@link #GLOBAL} or {@link #EXTERN}. */
    record Func(String name, int nameOff, int type, int linkage) implements Referring {
        public static final int STATIC = 0;
        public static final int GLOBAL = 1;
        public static final int EXTERN = 2;

        public BtfKind kind() {
            return BtfKind.FUNC;
        }
    }

    /** FUNC_PROTO: a variadic prototype ends with a parameter of type 0 and no name. */
    record FuncProto(String name, int nameOff, int returnType, List<Param> params) implements BtfType {
        public FuncProto {
            params = List.copyOf(params);
        }

        public BtfKind kind() {
            return BtfKind.FUNC_PROTO;
        }

        public boolean variadic() {
            if (params.isEmpty()) {
                return false;
            }
            Param last = params.getLast();
            return last.type() == 0 && last.nameOff() == 0;
        }
    }

    /** VAR: linkage is {@link #STATIC}, {@link #GLOBAL} (allocated) or {@link #EXTERN}. */
    record Var(String name, int nameOff, int type, int linkage) implements Referring {
        public static final int STATIC = 0;
        public static final int GLOBAL = 1;
        public static final int EXTERN = 2;

        public BtfKind kind() {
            return BtfKind.VAR;
        }
    }

    record Datasec(String name, int nameOff, int size, List<VarSecinfo> vars) implements Sized {
        public Datasec {
            vars = List.copyOf(vars);
        }

        public BtfKind kind() {
            return BtfKind.DATASEC;
        }
    }

    record Float(String name, int nameOff, int size) implements Sized {
        public BtfKind kind() {
            return BtfKind.FLOAT;
        }
    }

    /**
     * DECL_TAG on {@code type}: {@code componentIdx} -1 tags the type itself, otherwise the member
     * or parameter of that index; {@code kindFlag} marks an attribute tag (newer kernels).
     */
    record DeclTag(String name, int nameOff, int type, int componentIdx, boolean kindFlag) implements Referring {
        public BtfKind kind() {
            return BtfKind.DECL_TAG;
        }
    }

    /** A struct or union member: {@code bitfieldSize} is 0 for a plain member. */
    record Member(String name, int nameOff, int type, int bitOffset, int bitfieldSize) {
    }

    /** An enumerator; for ENUM the value is the 32-bit value sign- or zero-extended per signedness. */
    record EnumValue(String name, int nameOff, long value) {
    }

    record Param(String name, int nameOff, int type) {
    }

    /** A DATASEC entry: a VAR (or FUNC) and its place in the section. */
    record VarSecinfo(int type, int offset, int size) {
    }
}
