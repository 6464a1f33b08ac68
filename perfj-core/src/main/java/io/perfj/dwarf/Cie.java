package io.perfj.dwarf;

import io.perfj.io.Bytes;

/**
 * A Common Information Entry (DWARF 5 section 6.4.1; LSB 5.0 "The Common Information Entry
 * Format"): alignment factors, return address column, augmentation data and the initial
 * instructions every FDE that refers to it starts from.
 *
 * @param offset              offset of the entry's length field in its section
 * @param version             1, 3 or 4
 * @param augmentation        the augmentation string, e.g. {@code "zR"}
 * @param addressSize         size of a target address
 * @param segmentSelectorSize version 4 only; 0 otherwise
 * @param codeAlignment       code alignment factor (multiplies advance_loc deltas)
 * @param dataAlignment       data alignment factor (multiplies factored offsets)
 * @param returnAddressRegister the column holding the return address (16 on x86-64)
 * @param fdeEncoding         DW_EH_PE encoding of FDE addresses ('R'), absptr by default
 * @param lsdaEncoding        DW_EH_PE encoding of FDE LSDA pointers ('L'), or 0xff
 * @param personality         personality routine address ('P'), or 0 when absent or indirect
 * @param signalFrame         'S': frames are signal handler frames
 * @param initialInstructions the CIE's call frame instructions
 */
public record Cie(long offset, int version, String augmentation, int addressSize, int segmentSelectorSize,
                  long codeAlignment, long dataAlignment, int returnAddressRegister, int fdeEncoding,
                  int lsdaEncoding, long personality, boolean signalFrame, Bytes initialInstructions) {

    /** Whether FDEs carry an augmentation data length ('z' augmentations). */
    public boolean hasAugmentationData() {
        return augmentation.startsWith("z");
    }
}
