package io.perfj.intelpt;

import java.util.OptionalLong;

/**
 * One PSB+ of a trace buffer (Intel SDM vol. 3, 32.4.2.17 "PSB"; 32.3.7.1, what the packets
 * between a PSB and its PSBEND give): where a decoder can start, with the state the processor
 * wrote there. A value the PSB+ did not carry is empty (or 0 for the CBR ratio).
 *
 * @param offset   the PSB's offset in the buffer
 * @param tsc      the TSC packet's value
 * @param cbr      the core:bus ratio of the CBR packet
 * @param ip       the IP of the FUP packet (tracing was on there), IP compression reset by the PSB
 * @param execBits the MODE.Exec address size (16, 32 or 64), or 0
 * @param cr3      the PIP packet's CR3 value (its payload bits 47:1 shifted into place)
 */
public record PtSyncPoint(long offset, OptionalLong tsc, int cbr, OptionalLong ip, int execBits, OptionalLong cr3) {
}
