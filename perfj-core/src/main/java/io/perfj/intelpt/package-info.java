/**
 * Intel Processor Trace (Intel SDM vol. 3, chapter 32 "Intel Processor Trace", section 32.4
 * "Packet Formats"): the packets of an AUXTRACE payload ({@link io.perfj.intelpt.PtPacketReader},
 * {@link io.perfj.intelpt.PtPacket}), the Intel PT fields of a PERF_RECORD_AUXTRACE_INFO
 * ({@link io.perfj.intelpt.IntelPtInfo}) and perf's packet dump of {@code perf report -D}
 * ({@link io.perfj.intelpt.PtPacketDump}).
 */
package io.perfj.intelpt;
