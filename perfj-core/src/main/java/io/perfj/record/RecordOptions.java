package io.perfj.record;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What {@code perfj record} records.
 *
 * @param events     the events; empty for perf's default (cycles, or cpu-clock without a PMU)
 * @param systemWide every CPU, every process ({@code -a})
 * @param pid        an existing process to record ({@code -p}), or -1
 * @param frequency  samples per second ({@code -F}), or 0 when {@code period} is set
 * @param period     events per sample ({@code -c}), or 0
 * @param callGraph  how call chains are recorded
 * @param stackSize  bytes of user stack copied per sample for {@link CallGraph#DWARF}
 * @param pages      data pages of each ring buffer (a power of two), or {@link #AUTO_PAGES}
 * @param output     the file written
 * @param command    the command to run and record (may be empty with -a or -p)
 * @param cmdline    the recorder's own command line, for the CMDLINE feature
 * @param clockid    the clock of the samples' times ({@code -k}: attr.use_clockid and clockid, the
 *                   CLOCKID and CLOCK_DATA features), or -1 for the kernel's perf clock
 */
public record RecordOptions(List<EventSpec> events, boolean systemWide, int pid, long frequency, long period,
                            CallGraph callGraph, int stackSize, int pages, Path output, List<String> command,
                            List<String> cmdline, int clockid) {
    /** perf record's default frequency. */
    public static final long DEFAULT_FREQUENCY = 4000;
    /** perf's default ring buffer: 512 KiB of data per CPU. */
    public static final int DEFAULT_PAGES = 128;
    /**
     * Ring buffers as large as {@link #autoPages} for root where the kernel maps them (locked
     * memory beyond {@code kernel.perf_event_mlock_kb} needs CAP_IPC_LOCK), else
     * {@link #DEFAULT_PAGES}.
     */
    public static final int AUTO_PAGES = 0;
    /** perf's default stack copy for --call-graph dwarf. */
    public static final int DEFAULT_STACK = 8192;

    public enum CallGraph { NONE, FP, DWARF }

    /** Without {@code -k}: timestamps of the kernel's perf clock. */
    public RecordOptions(List<EventSpec> events, boolean systemWide, int pid, long frequency, long period,
                         CallGraph callGraph, int stackSize, int pages, Path output, List<String> command,
                         List<String> cmdline) {
        this(events, systemWide, pid, frequency, period, callGraph, stackSize, pages, output, command, cmdline, -1);
    }

    /**
     * The clock id of a {@code -k} argument as perf takes it: a name (realtime, monotonic,
     * monotonic_raw, boottime, tai, perf's short forms mono, raw, real, boot, with or without a
     * {@code CLOCK_} prefix, any case) or a number.
     */
    public static int parseClockid(String name) {
        String n = name.strip().toLowerCase(java.util.Locale.ROOT);
        if (n.startsWith("clock_")) {
            n = n.substring(6);
        }
        return switch (n) {
            case "realtime", "real" -> 0;
            case "monotonic", "mono" -> 1;
            case "monotonic_raw", "raw" -> 4;
            case "boottime", "boot" -> 7;
            case "tai" -> 11;
            default -> {
                try {
                    int v = Integer.parseInt(n);
                    if (v < 0) {
                        throw new NumberFormatException();
                    }
                    yield v;
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("-k " + name
                            + ": the clocks are realtime, monotonic, monotonic_raw, boottime, tai or a clock id");
                }
            }
        };
    }

    /**
     * The ring size {@link #AUTO_PAGES} tries first for {@code cpus} rings: 8 MiB of 4 KiB pages
     * per CPU, halved down to perf's 512 KiB so that all rings stay within 64 MiB. The kernel
     * wakes the reader when a ring is half full: at 4 kHz with call chains (~370 KB/s per busy
     * CPU) about every 11 s instead of every 0.7 s, and each wakeup of a mostly idle JVM costs
     * CPU of its own (its code and data are cold again), far more than the bytes it copies.
     */
    public static int autoPages(int cpus) {
        int pages = Integer.highestOneBit(Math.max(1, 16384 / Math.max(1, cpus)));
        return Math.clamp(pages, DEFAULT_PAGES, 2048);
    }

    public RecordOptions {
        events = List.copyOf(events);
        command = List.copyOf(command);
        cmdline = List.copyOf(cmdline);
        Objects.requireNonNull(callGraph, "callGraph");
        Objects.requireNonNull(output, "output");
        if (pages != AUTO_PAGES && Integer.bitCount(pages) != 1) {
            throw new IllegalArgumentException("ring buffer pages must be a power of two, not " + pages);
        }
        if ((frequency > 0) == (period > 0)) {
            throw new IllegalArgumentException("one of a sampling frequency and a period is needed");
        }
        if (stackSize <= 0 || stackSize % 8 != 0 || stackSize > 65528) {
            throw new IllegalArgumentException("the dwarf stack size must be a multiple of 8 up to 65528, not " + stackSize);
        }
        if (!systemWide && pid < 0 && command.isEmpty()) {
            throw new IllegalArgumentException("nothing to record: give a command, -p PID or -a");
        }
    }
}
