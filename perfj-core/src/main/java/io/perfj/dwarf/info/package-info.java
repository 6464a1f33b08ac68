/**
 * DWARF debugging information entries: {@code .debug_info} and {@code .debug_types} units
 * (DWARF 2 to 5, section 7.5), their abbreviation tables ({@code .debug_abbrev}) and every
 * attribute form, including DWARF 5's indexed strings and addresses ({@code .debug_str_offsets},
 * {@code .debug_addr}). Entry points: {@link io.perfj.dwarf.info.DwarfInfo} (sections and
 * units) and {@link io.perfj.dwarf.info.DieCursor} (a fast, allocation-free walk over one unit).
 */
package io.perfj.dwarf.info;
