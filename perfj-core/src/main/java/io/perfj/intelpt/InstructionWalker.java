package io.perfj.intelpt;

/**
 * Walks the traced program's instructions for the decoder, as perf's {@code walk_insn} callback
 * does: from {@code ip} it reads instructions until the first branch, until {@code toIp} (when not
 * 0) or until {@code maxInsns} instructions (when not 0). That needs the traced code, which a
 * recording does not hold; a walker that cannot read it answers {@link #NO_CODE} (perf reports
 * "Failed to get instruction") or {@link #NO_CODE_QUIET} (the same failure, which perf does not
 * report again).
 */
public interface InstructionWalker {
    /** The walk reached a branch, {@code toIp} or {@code maxInsns}. */
    int OK = 0;
    /** There is no code to read at the address; the decoder reports an error. */
    int NO_CODE = 1;
    /** As {@link #NO_CODE}, but the decoder goes on without reporting it. */
    int NO_CODE_QUIET = 2;

    /**
     * Walks from {@code ip}; on {@link #OK} sets {@code w.ip} to the address of the instruction in
     * {@code insn} (or to {@code toIp}) and {@code w.count} to the instructions walked.
     */
    int walk(Walk w, long ip, long toIp, long maxInsns, PtInsn insn);

    /** The walk's results besides the instruction: where it ended and how many instructions it took. */
    final class Walk {
        public long ip;
        public long count;
    }
}
