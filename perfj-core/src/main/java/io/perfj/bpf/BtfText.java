package io.perfj.bpf;

import java.util.Optional;

/**
 * What an xlated dump needs from a program's BTF: strings for line info and a type's C
 * spelling for function headers. {@link BtfSignatures} implements it over the BTF model.
 */
public interface BtfText {
    /** No BTF: no function headers and no source lines, as bpftool without BTF. */
    BtfText NONE = new BtfText() {
        @Override
        public Optional<String> string(long offset) {
            return Optional.empty();
        }

        @Override
        public String typeOnly(long typeId) {
            return "";
        }

        @Override
        public Optional<String> typeName(long typeId) {
            return Optional.empty();
        }

        @Override
        public boolean present() {
            return false;
        }
    };

    /** libbpf {@code btf__name_by_offset}: the string at {@code offset}, empty when outside. */
    Optional<String> string(long offset);

    /**
     * bpftool's {@code btf_dumper_type_only}: a FUNC as {@code int name(struct xdp_md * ctx)},
     * other types as their C spelling; the empty string when the type cannot be printed.
     */
    String typeOnly(long typeId);

    /** The name of type {@code typeId} (e.g. a FUNC's), empty when there is none. */
    Optional<String> typeName(long typeId);

    /** False for {@link #NONE}. */
    default boolean present() {
        return true;
    }
}
