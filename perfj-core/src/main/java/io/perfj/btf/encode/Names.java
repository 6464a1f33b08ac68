package io.perfj.btf.encode;

/** Name rules of pahole's BTF encoder (btf_encoder.c). */
final class Names {
    private Names() {
    }

    /** KSYM_NAME_LEN of the kernel. */
    private static final int KSYM_NAME_LEN = 128;

    /** Whether the kernel accepts {@code name} as a variable's name in vmlinux BTF (btf_name_valid). */
    static boolean btfNameValid(String name) {
        if (name.isEmpty() || name.length() >= KSYM_NAME_LEN || !ok(name.charAt(0), true)) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            if (!ok(name.charAt(i), false)) {
                return false;
            }
        }
        return true;
    }

    private static boolean ok(char c, boolean first) {
        if (c == '_' || c == '.') {
            return true;
        }
        boolean alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        return first ? alpha : alpha || (c >= '0' && c <= '9');
    }

    /**
     * Compiler-made variables that --vars all leaves out: pahole's prefix list (filter_variable_name
     * in dwarves' btf_encoder.c), {@code __func__}-like names, and names with a dot.
     */
    static boolean filteredVariable(String name) {
        if (name.indexOf('.') >= 0) {
            return true;
        }
        if (name.equals("__func__") || name.equals("__FUNCTION__") || name.equals("__PRETTY_FUNCTION__")) {
            return true;
        }
        return name.startsWith("__UNIQUE_ID") || name.startsWith("__tpstrtab_") || name.startsWith("__exitcall_")
                || name.startsWith("__gendwarfksyms_ptr_") || name.startsWith("__func_stack_frame_non_standard_");
    }
}
