package io.perfj.bpf;


import java.util.Optional;

/**
 * A {@link BtfText} over the feature package's minimal BTF index: strings and type names, but
 * no type spelling (function headers are left out). Used when the full BTF model rejects a
 * blob that still has usable strings.
 */
final class BtfNamesText implements BtfText {
    private final BtfNames names;

    BtfNamesText(BtfNames names) {
        this.names = names;
    }

    @Override
    public Optional<String> string(long offset) {
        return Optional.ofNullable(names.string(offset));
    }

    @Override
    public String typeOnly(long typeId) {
        return "";
    }

    @Override
    public Optional<String> typeName(long typeId) {
        return Optional.ofNullable(names.typeName(typeId));
    }
}
