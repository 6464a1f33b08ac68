/**
 * Intel Processor Trace (Intel SDM vol. 3, chapter 32 "Intel Processor Trace", section 32.4
 * "Packet Formats"): the packets of an AUXTRACE payload ({@link io.perfj.intelpt.PtPacketReader},
 * {@link io.perfj.intelpt.PtPacket}), the Intel PT fields of a PERF_RECORD_AUXTRACE_INFO
 * ({@link io.perfj.intelpt.IntelPtInfo}), perf's packet dump of {@code perf report -D}
 * ({@link io.perfj.intelpt.PtPacketDump}), and the decoder walk perf's {@code --itrace} runs:
 * {@link io.perfj.intelpt.PtDecoder} over one queue's trace, the code between packets from an
 * {@link io.perfj.intelpt.InstructionWalker}, and {@link io.perfj.intelpt.PtQueueRunner}, which
 * runs the queues in step with the recording's records and gives the events perf synthesizes.
 */
package io.perfj.intelpt;
