package io.perfj.btf.encode;

/** DWARF that BTF cannot represent (pahole fails on the same input), or a BTF limit exceeded. */
public final class EncodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EncodeException(String message) {
        super(message);
    }
}
