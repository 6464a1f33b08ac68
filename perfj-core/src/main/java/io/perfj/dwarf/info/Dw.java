package io.perfj.dwarf.info;

/**
 * DWARF constants used by the reader and the BTF encoder (DWARF 5 section 7, with the GNU and
 * LLVM extensions compilers emit). Values stay open ints: an unknown tag or attribute is kept and
 * printed in hex, never rejected.
 */
public final class Dw {
    private Dw() {
    }

    // Tags (7.5.3)
    public static final int TAG_array_type = 0x01;
    public static final int TAG_class_type = 0x02;
    public static final int TAG_enumeration_type = 0x04;
    public static final int TAG_formal_parameter = 0x05;
    public static final int TAG_label = 0x0a;
    public static final int TAG_lexical_block = 0x0b;
    public static final int TAG_member = 0x0d;
    public static final int TAG_pointer_type = 0x0f;
    public static final int TAG_reference_type = 0x10;
    public static final int TAG_compile_unit = 0x11;
    public static final int TAG_string_type = 0x12;
    public static final int TAG_structure_type = 0x13;
    public static final int TAG_subroutine_type = 0x15;
    public static final int TAG_typedef = 0x16;
    public static final int TAG_union_type = 0x17;
    public static final int TAG_unspecified_parameters = 0x18;
    public static final int TAG_variant = 0x19;
    public static final int TAG_inheritance = 0x1c;
    public static final int TAG_inlined_subroutine = 0x1d;
    public static final int TAG_ptr_to_member_type = 0x1f;
    public static final int TAG_subrange_type = 0x21;
    public static final int TAG_base_type = 0x24;
    public static final int TAG_const_type = 0x26;
    public static final int TAG_enumerator = 0x28;
    public static final int TAG_subprogram = 0x2e;
    public static final int TAG_variable = 0x34;
    public static final int TAG_volatile_type = 0x35;
    public static final int TAG_restrict_type = 0x37;
    public static final int TAG_interface_type = 0x38;
    public static final int TAG_namespace = 0x39;
    public static final int TAG_unspecified_type = 0x3b;
    public static final int TAG_partial_unit = 0x3c;
    public static final int TAG_imported_unit = 0x3d;
    public static final int TAG_rvalue_reference_type = 0x42;
    public static final int TAG_type_unit = 0x41;
    public static final int TAG_atomic_type = 0x47;
    public static final int TAG_call_site = 0x48;
    public static final int TAG_skeleton_unit = 0x4a;
    public static final int TAG_GNU_call_site = 0x4109;
    public static final int TAG_LLVM_annotation = 0x6000;

    // Attributes (7.5.4)
    public static final int AT_sibling = 0x01;
    public static final int AT_location = 0x02;
    public static final int AT_name = 0x03;
    public static final int AT_byte_size = 0x0b;
    public static final int AT_bit_offset = 0x0c;
    public static final int AT_bit_size = 0x0d;
    public static final int AT_stmt_list = 0x10;
    public static final int AT_low_pc = 0x11;
    public static final int AT_high_pc = 0x12;
    public static final int AT_language = 0x13;
    public static final int AT_comp_dir = 0x1b;
    public static final int AT_const_value = 0x1c;
    public static final int AT_inline = 0x20;
    public static final int AT_producer = 0x25;
    public static final int AT_prototyped = 0x27;
    public static final int AT_count = 0x37;
    public static final int AT_upper_bound = 0x2f;
    public static final int AT_abstract_origin = 0x31;
    public static final int AT_data_member_location = 0x38;
    public static final int AT_declaration = 0x3c;
    public static final int AT_encoding = 0x3e;
    public static final int AT_external = 0x3f;
    public static final int AT_specification = 0x47;
    public static final int AT_type = 0x49;
    public static final int AT_ranges = 0x55;
    public static final int AT_data_bit_offset = 0x6b;
    public static final int AT_str_offsets_base = 0x72;
    public static final int AT_addr_base = 0x73;
    public static final int AT_rnglists_base = 0x74;
    public static final int AT_loclists_base = 0x8c;
    public static final int AT_GNU_vector = 0x2107;

    // Forms (7.5.6)
    public static final int FORM_addr = 0x01;
    public static final int FORM_block2 = 0x03;
    public static final int FORM_block4 = 0x04;
    public static final int FORM_data2 = 0x05;
    public static final int FORM_data4 = 0x06;
    public static final int FORM_data8 = 0x07;
    public static final int FORM_string = 0x08;
    public static final int FORM_block = 0x09;
    public static final int FORM_block1 = 0x0a;
    public static final int FORM_data1 = 0x0b;
    public static final int FORM_flag = 0x0c;
    public static final int FORM_sdata = 0x0d;
    public static final int FORM_strp = 0x0e;
    public static final int FORM_udata = 0x0f;
    public static final int FORM_ref_addr = 0x10;
    public static final int FORM_ref1 = 0x11;
    public static final int FORM_ref2 = 0x12;
    public static final int FORM_ref4 = 0x13;
    public static final int FORM_ref8 = 0x14;
    public static final int FORM_ref_udata = 0x15;
    public static final int FORM_indirect = 0x16;
    public static final int FORM_sec_offset = 0x17;
    public static final int FORM_exprloc = 0x18;
    public static final int FORM_flag_present = 0x19;
    public static final int FORM_strx = 0x1a;
    public static final int FORM_addrx = 0x1b;
    public static final int FORM_ref_sup4 = 0x1c;
    public static final int FORM_strp_sup = 0x1d;
    public static final int FORM_data16 = 0x1e;
    public static final int FORM_line_strp = 0x1f;
    public static final int FORM_ref_sig8 = 0x20;
    public static final int FORM_implicit_const = 0x21;
    public static final int FORM_loclistx = 0x22;
    public static final int FORM_rnglistx = 0x23;
    public static final int FORM_ref_sup8 = 0x24;
    public static final int FORM_strx1 = 0x25;
    public static final int FORM_strx2 = 0x26;
    public static final int FORM_strx3 = 0x27;
    public static final int FORM_strx4 = 0x28;
    public static final int FORM_addrx1 = 0x29;
    public static final int FORM_addrx2 = 0x2a;
    public static final int FORM_addrx3 = 0x2b;
    public static final int FORM_addrx4 = 0x2c;
    public static final int FORM_GNU_addr_index = 0x1f01;
    public static final int FORM_GNU_str_index = 0x1f02;
    public static final int FORM_GNU_ref_alt = 0x1f20;
    public static final int FORM_GNU_strp_alt = 0x1f21;

    // Base type encodings (7.8)
    public static final int ATE_boolean = 0x02;
    public static final int ATE_complex_float = 0x03;
    public static final int ATE_float = 0x04;
    public static final int ATE_signed = 0x05;
    public static final int ATE_signed_char = 0x06;
    public static final int ATE_unsigned = 0x07;
    public static final int ATE_unsigned_char = 0x08;

    // Unit types (7.5.1)
    public static final int UT_compile = 0x01;
    public static final int UT_type = 0x02;
    public static final int UT_partial = 0x03;
    public static final int UT_skeleton = 0x04;
    public static final int UT_split_compile = 0x05;
    public static final int UT_split_type = 0x06;

    // Location operations used to find static addresses
    public static final int OP_addr = 0x03;
    public static final int OP_constu = 0x10;
    public static final int OP_plus_uconst = 0x23;
    public static final int OP_addrx = 0xa1;
    public static final int OP_GNU_addr_index = 0xfb;

    private static final String[] TAG_NAMES = new String[0x4c];
    private static final String[] FORM_NAMES = new String[0x2d];

    static {
        String[] t = {"", "array_type", "class_type", "entry_point", "enumeration_type", "formal_parameter",
            null, null, "imported_declaration", null, "label", "lexical_block", null, "member", null,
            "pointer_type", "reference_type", "compile_unit", "string_type", "structure_type", null,
            "subroutine_type", "typedef", "union_type", "unspecified_parameters", "variant", "common_block",
            "common_inclusion", "inheritance", "inlined_subroutine", "module", "ptr_to_member_type",
            "set_type", "subrange_type", "with_stmt", "access_declaration", "base_type", "catch_block",
            "const_type", "constant", "enumerator", "file_type", "friend", "namelist", "namelist_item",
            "packed_type", "subprogram", "template_type_param", "template_value_param", "thrown_type",
            "try_block", "variant_part", "variable", "volatile_type", "dwarf_procedure", "restrict_type",
            "interface_type", "namespace", "imported_module", "unspecified_type", "partial_unit",
            "imported_unit", null, "condition", "shared_type", "type_unit", "rvalue_reference_type",
            "template_alias", "coarray_type", "generic_subrange", "dynamic_type", "atomic_type",
            "call_site", "call_site_parameter", "skeleton_unit", "immutable_type"};
        for (int i = 0; i < t.length && i < TAG_NAMES.length; i++) {
            TAG_NAMES[i] = t[i] == null ? null : "DW_TAG_" + t[i];
        }
        String[] f = {null, "addr", null, "block2", "block4", "data2", "data4", "data8", "string", "block",
            "block1", "data1", "flag", "sdata", "strp", "udata", "ref_addr", "ref1", "ref2", "ref4", "ref8",
            "ref_udata", "indirect", "sec_offset", "exprloc", "flag_present", "strx", "addrx", "ref_sup4",
            "strp_sup", "data16", "line_strp", "ref_sig8", "implicit_const", "loclistx", "rnglistx",
            "ref_sup8", "strx1", "strx2", "strx3", "strx4", "addrx1", "addrx2", "addrx3", "addrx4"};
        for (int i = 0; i < f.length; i++) {
            FORM_NAMES[i] = f[i] == null ? null : "DW_FORM_" + f[i];
        }
    }

    /** The tag's name as readelf prints it, or a hex value for unknown tags. */
    public static String tagName(int tag) {
        if (tag >= 0 && tag < TAG_NAMES.length && TAG_NAMES[tag] != null) {
            return TAG_NAMES[tag];
        }
        return switch (tag) {
            case TAG_GNU_call_site -> "DW_TAG_GNU_call_site";
            case 0x410a -> "DW_TAG_GNU_call_site_parameter";
            case TAG_LLVM_annotation -> "DW_TAG_LLVM_annotation";
            default -> "DW_TAG_0x" + Integer.toHexString(tag);
        };
    }

    public static String formName(int form) {
        if (form >= 0 && form < FORM_NAMES.length && FORM_NAMES[form] != null) {
            return FORM_NAMES[form];
        }
        return "DW_FORM_0x" + Integer.toHexString(form);
    }
}
