package io.perfj.btf.encode;

/**
 * The BTF records one compile unit contributes, before they are numbered globally: first the
 * unit's types (pahole's types table, in its order), then groups of items (decl tags of types,
 * one group per function, one group per variable). References use unit-local ids: 0 is void,
 * 1..{@link #nTypes} the types, above that the items in order; {@link #INDEX_TYPE} stands for the
 * array index type pahole shares between units.
 */
final class CuBtf {
    static final int INDEX_TYPE = -2;

    /** What the unit's DWARF had that BTF cannot say (skipped with a warning). */
    String[] skipped = new String[0];
    int[] words;
    int[] starts;
    int nRecords;
    int nTypes;
    /** Local id of the unit's first base type named "int", or 0. */
    int intLocal;
    /** Whether the unit has arrays, which need an index type. */
    boolean usesIndex;
    /** First record of each item group. */
    int[] groupStart;
    /** Per group: the function name pahole emits once (a pool id), or -1 for groups always kept. */
    int[] groupKey;
    int nGroups;
    /** Variables for DATASECs: the VAR's local id, ELF section index, offset and size. */
    int[] varLocal;
    int[] varShndx;
    long[] varOffset;
    int[] varSize;
    int nVars;
    /** Signatures of the types in other units this unit refers to; id {@code -3 - i} stands for the i-th. */
    long[] signatures;
    /** For a type unit: its signature and the local id of its type (0 otherwise). */
    long typeSignature;
    int typeLocal;
}
