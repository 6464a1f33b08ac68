/**
 * The DWARF readers: call frame information ({@code .eh_frame}, LSB 5.0 "Exception Frames";
 * {@code .eh_frame_hdr}; {@code .debug_frame}, DWARF 5 section 6.4) and the walk over a copied
 * stack it drives ({@link io.perfj.dwarf.CfiWalk}, through an {@link io.perfj.dwarf.UnwindSpace}
 * its user implements), line tables ({@link io.perfj.dwarf.LineTable}) and inline chains
 * ({@link io.perfj.dwarf.InlineChains}). Depends on {@code elf} and {@code io} (and
 * {@code dwarf.info} for DIEs) only; used by {@code unwind}, {@code symbols}, {@code annotate} and
 * {@code btf.encode}.
 */
package io.perfj.dwarf;
