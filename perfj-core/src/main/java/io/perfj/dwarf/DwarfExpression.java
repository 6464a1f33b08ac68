package io.perfj.dwarf;

import java.util.Arrays;

/**
 * The bytes of a DWARF expression (DWARF 5 section 2.5) as a value: compared by content, never
 * shared mutably. Call frame rules keep their expressions as these; they are not evaluated.
 */
public final class DwarfExpression {
    private final byte[] code;

    public DwarfExpression(byte[] code) {
        this.code = code.clone();
    }

    public byte[] bytes() {
        return code.clone();
    }

    public int length() {
        return code.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DwarfExpression e && Arrays.equals(code, e.code);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(code);
    }

    @Override
    public String toString() {
        return "exp[" + code.length + "]";
    }
}
