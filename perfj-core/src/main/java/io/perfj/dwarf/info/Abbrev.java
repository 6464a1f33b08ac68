package io.perfj.dwarf.info;

/**
 * One abbreviation declaration (DWARF 5 section 7.5.3): a DIE's tag, whether it has children and
 * its attribute specifications as parallel arrays (no object per attribute).
 */
final class Abbrev {
    final int code;
    final int tag;
    final boolean hasChildren;
    final int[] names;
    final int[] forms;
    /** The value of each {@code DW_FORM_implicit_const} attribute (0 for other forms). */
    final long[] implicitConst;

    Abbrev(int code, int tag, boolean hasChildren, int[] names, int[] forms, long[] implicitConst) {
        this.code = code;
        this.tag = tag;
        this.hasChildren = hasChildren;
        this.names = names;
        this.forms = forms;
        this.implicitConst = implicitConst;
    }
}
