package io.perfj.bpf;

import io.perfj.perfdata.feature.BtfNames;

/** Builds the {@link BtfText} of a BTF blob. */
public final class BtfSignatures {
    private BtfSignatures() {
    }

    /** A view of raw BTF {@code data}; {@link BtfText#NONE} when it is not BTF at all. */
    public static BtfText parse(byte[] data, String source) {
        BtfNames names = BtfNames.parse(data);
        return names == null ? BtfText.NONE : new BtfNamesText(names);
    }
}
