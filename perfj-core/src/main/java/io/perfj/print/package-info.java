/**
 * perf's record-level text: {@code HeaderPrinter} ({@code perf report --header-only [-I]}, its
 * layout chosen once by {@code HeaderLayout}), {@code DumpPrinter} ({@code perf report -D}, with
 * perf's thread and dso lines from the process model), {@code StatsPrinter} ({@code --stats}) and
 * {@code EventLine} (a non-sample record's line, shared with script's {@code --show-*-events}).
 *
 * <p>Depends on {@code perfdata}, {@code trace}, {@code intelpt} (the packet dump), {@code bpf},
 * {@code symbols} and {@code session}. Used by {@code perfj header}, {@code perfj dump} and
 * {@code report}. Internal: not exported.
 */
package io.perfj.print;
