/**
 * ELF objects, mapped and never written (System V gABI, the x86-64 psABI, GNU extensions):
 * {@link io.perfj.elf.ElfFile} with its header, program and section headers, symbol tables
 * with GNU symbol versions, notes and build-ids, {@code .gnu_debuglink} and MiniDebugInfo
 * ({@code .gnu_debugdata}, xz). Every out-of-range read is an {@link io.perfj.io.FormatException}.
 */
package io.perfj.elf;
