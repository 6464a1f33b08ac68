package io.perfj.intelpt;

/**
 * What an {@link InstructionWalker} found at the end of a walk: the instruction it stopped at
 * (the first branch, or the last instruction when it stopped early). Reused from walk to walk.
 */
public final class PtInsn {
    /** What kind of branch the instruction is. */
    public enum Branch {
        /** Not a branch. */
        NONE,
        /** Jcc, LOOP, JCXZ: taken or not as a TNT bit says. */
        CONDITIONAL,
        /** JMP, CALL with a displacement: always taken to a known target. */
        UNCONDITIONAL,
        /** JMP/CALL through a register or memory, RET, far transfers: the target comes in a TIP. */
        INDIRECT
    }

    /** The operation, as far as the call stack and sample flags care. */
    public enum Op {
        OTHER, CALL, RET, JCC, JMP, LOOP, IRET, INT, SYSCALL, SYSRET, VMENTRY
    }

    Branch branch = Branch.NONE;
    Op op = Op.OTHER;
    /** The instruction's length in bytes (0 when the walk ended at the target address). */
    int length;
    /** A direct branch's displacement from the end of the instruction. */
    long rel;

    /** Sets what the walk stopped at. */
    public void set(Branch branch, Op op, int length, long rel) {
        this.branch = branch;
        this.op = op;
        this.length = length;
        this.rel = rel;
    }

    void clear() {
        set(Branch.NONE, Op.OTHER, 0, 0);
    }
}
