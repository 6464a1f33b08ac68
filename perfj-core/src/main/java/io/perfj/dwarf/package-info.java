/**
 * DWARF call frame information: {@code .eh_frame} (LSB 5.0 "Exception Frames"),
 * {@code .eh_frame_hdr} and {@code .debug_frame} (DWARF 5 section 6.4), the unwind tables a
 * DWARF unwinder runs on. Entry point: {@link io.perfj.dwarf.CallFrameInfo}.
 */
package io.perfj.dwarf;
