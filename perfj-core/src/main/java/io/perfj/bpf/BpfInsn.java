package io.perfj.bpf;

import java.nio.ByteOrder;

/**
 * One 8-byte eBPF instruction ({@code struct bpf_insn}, include/uapi/linux/bpf.h): opcode,
 * destination and source register nibbles, signed 16-bit offset and signed 32-bit immediate.
 * A 64-bit immediate load ({@link #LD_IMM64}) takes two of them; the second carries the upper
 * half in its imm. Field values are kept exactly as read, so any byte pattern is an instruction;
 * whether it means anything is for the printer to say.
 *
 * @param code opcode byte, 0..255
 * @param dst  destination register nibble, 0..15
 * @param src  source register nibble, 0..15
 * @param off  signed offset
 * @param imm  signed immediate
 */
public record BpfInsn(int code, int dst, int src, short off, int imm) {
    /** Size of one instruction slot in bytes. */
    public static final int SIZE = 8;

    // Instruction classes (code & 0x07).
    public static final int LD = 0x00;
    public static final int LDX = 0x01;
    public static final int ST = 0x02;
    public static final int STX = 0x03;
    public static final int ALU = 0x04;
    public static final int JMP = 0x05;
    public static final int JMP32 = 0x06;
    public static final int ALU64 = 0x07;

    // Sizes (code & 0x18).
    public static final int W = 0x00;
    public static final int H = 0x08;
    public static final int B = 0x10;
    public static final int DW = 0x18;

    // Modes (code & 0xe0).
    public static final int IMM = 0x00;
    public static final int ABS = 0x20;
    public static final int IND = 0x40;
    public static final int MEM = 0x60;
    public static final int MEMSX = 0x80;
    public static final int ATOMIC = 0xc0;
    /** BPF_NOSPEC: kernel-internal speculation barrier, an ST-class mode with no uapi name. */
    public static final int NOSPEC = 0xc0;

    // Source (code & 0x08).
    public static final int K = 0x00;
    public static final int X = 0x08;

    // ALU operations (code & 0xf0).
    public static final int ADD = 0x00;
    public static final int SUB = 0x10;
    public static final int MUL = 0x20;
    public static final int DIV = 0x30;
    public static final int OR = 0x40;
    public static final int AND = 0x50;
    public static final int LSH = 0x60;
    public static final int RSH = 0x70;
    public static final int NEG = 0x80;
    public static final int MOD = 0x90;
    public static final int XOR = 0xa0;
    public static final int MOV = 0xb0;
    public static final int ARSH = 0xc0;
    public static final int END = 0xd0;

    // Jump operations (code & 0xf0).
    public static final int JA = 0x00;
    public static final int JEQ = 0x10;
    public static final int JGT = 0x20;
    public static final int JGE = 0x30;
    public static final int JSET = 0x40;
    public static final int JNE = 0x50;
    public static final int JSGT = 0x60;
    public static final int JSGE = 0x70;
    public static final int CALL = 0x80;
    public static final int EXIT = 0x90;
    public static final int JLT = 0xa0;
    public static final int JLE = 0xb0;
    public static final int JSLT = 0xc0;
    public static final int JSLE = 0xd0;
    public static final int JCOND = 0xe0;

    /** BPF_TO_BE for BPF_END (same bit as BPF_X). */
    public static final int TO_BE = 0x08;

    // Atomic operations (in imm of STX|ATOMIC).
    public static final int FETCH = 0x01;
    public static final int XCHG = 0xe0 | FETCH;
    public static final int CMPXCHG = 0xf0 | FETCH;
    public static final int LOAD_ACQ = 0x100;
    public static final int STORE_REL = 0x110;

    /** Opcode of the first half of a 64-bit immediate load: BPF_LD | BPF_IMM | BPF_DW. */
    public static final int LD_IMM64 = LD | IMM | DW;

    // src_reg of ldimm64.
    public static final int PSEUDO_MAP_FD = 1;
    public static final int PSEUDO_MAP_VALUE = 2;
    public static final int PSEUDO_BTF_ID = 3;
    public static final int PSEUDO_FUNC = 4;
    public static final int PSEUDO_MAP_IDX = 5;
    public static final int PSEUDO_MAP_IDX_VALUE = 6;
    // src_reg of call.
    public static final int PSEUDO_CALL = 1;
    public static final int PSEUDO_KFUNC_CALL = 2;
    /** src_reg of JMP|JCOND. */
    public static final int MAY_GOTO = 0;
    /** off of ALU64|MOV|X for addr_space_cast. */
    public static final int ADDR_SPACE_CAST = 1;
    /** off of ALU64|MOV|X for the kernel-internal per-CPU address move. */
    public static final int ADDR_PERCPU = -1;

    public BpfInsn {
        if ((code & ~0xff) != 0 || (dst & ~0xf) != 0 || (src & ~0xf) != 0) {
            throw new IllegalArgumentException("bpf_insn field out of range: code " + code + " dst " + dst + " src " + src);
        }
    }

    /** Builds an instruction from its fields (convenient for hand-assembled tests). */
    public static BpfInsn of(int code, int dst, int src, int off, int imm) {
        return new BpfInsn(code, dst, src, (short) off, imm);
    }

    /**
     * Decodes the instruction at byte {@code pos} of {@code b}. The register nibbles follow the C
     * bitfield layout: dst in the low nibble on little-endian machines, in the high one on big-endian.
     */
    public static BpfInsn decode(byte[] b, int pos, ByteOrder order) {
        int code = b[pos] & 0xff;
        int regs = b[pos + 1] & 0xff;
        boolean le = order == ByteOrder.LITTLE_ENDIAN;
        int dst = le ? regs & 0xf : regs >>> 4;
        int src = le ? regs >>> 4 : regs & 0xf;
        short off;
        int imm;
        if (le) {
            off = (short) ((b[pos + 2] & 0xff) | (b[pos + 3] & 0xff) << 8);
            imm = (b[pos + 4] & 0xff) | (b[pos + 5] & 0xff) << 8 | (b[pos + 6] & 0xff) << 16 | (b[pos + 7] & 0xff) << 24;
        } else {
            off = (short) ((b[pos + 2] & 0xff) << 8 | (b[pos + 3] & 0xff));
            imm = (b[pos + 4] & 0xff) << 24 | (b[pos + 5] & 0xff) << 16 | (b[pos + 6] & 0xff) << 8 | (b[pos + 7] & 0xff);
        }
        return new BpfInsn(code, dst, src, off, imm);
    }

    /**
     * Decodes {@code bytes.length / 8} instructions, as bpftool does; trailing bytes that do not
     * make a whole instruction are ignored.
     */
    public static BpfInsn[] decodeAll(byte[] bytes, ByteOrder order) {
        BpfInsn[] out = new BpfInsn[bytes.length / SIZE];
        for (int i = 0; i < out.length; i++) {
            out[i] = decode(bytes, i * SIZE, order);
        }
        return out;
    }

    /** The instruction class, {@code code & 0x07}. */
    public int insnClass() {
        return code & 0x07;
    }

    /** The operation of ALU and JMP classes, {@code code & 0xf0}. */
    public int op() {
        return code & 0xf0;
    }

    /** The source bit, {@code code & 0x08}. */
    public int source() {
        return code & 0x08;
    }

    /** The access size of load/store classes, {@code code & 0x18}. */
    public int size() {
        return code & 0x18;
    }

    /** The mode of load/store classes, {@code code & 0xe0}. */
    public int mode() {
        return code & 0xe0;
    }

    /** True for the first half of a 64-bit immediate load (it takes two slots). */
    public boolean isLdImm64() {
        return code == LD_IMM64;
    }
}
