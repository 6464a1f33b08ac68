package io.perfj.bpf;

import static io.perfj.bpf.BpfInsn.*;

/**
 * Prints one eBPF instruction in the kernel verifier's syntax (kernel/bpf/disasm.c
 * {@code print_bpf_insn}), e.g. {@code (79) r2 = *(u64 *)(r1 +0)}. What disasm.c prints for an
 * undefined combination is printed the same way: {@code BUG_ldx_99}, or {@code (null)} where its
 * name tables have a hole (glibc's rendering of a NULL {@code %s}), so any byte pattern has a
 * text and nothing throws.
 */
public final class InsnFormatter {
    private InsnFormatter() {
    }

    private static final String NULL = "(null)";

    private static final String[] CLASS = {"ld", "ldx", "st", "stx", "alu", "jmp", "jmp32", "alu64"};
    private static final String[] ALU_OPS = {"+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=", "neg", "%=",
        "^=", "=", "s>>=", "endian", null, null};
    private static final String[] ATOMIC_ALU = {"add", null, null, null, "or", "and", null, null, null,
        null, "xor", null, null, null, null, null};
    private static final String[] LDST = {"u32", "u16", "u8", "u64"};
    private static final String[] LDSX = {"s32", "s16", "s8", null};
    private static final String[] JMP_OPS = {"jmp", "==", ">", ">=", "&", "!=", "s>", "s>=", "call", "exit",
        "<", "<=", "s<", "s<=", null, null};

    /**
     * The text of {@code insn} without a trailing newline. {@code next} is the following slot
     * (needed by a 64-bit immediate load; null when there is none).
     */
    public static String format(BpfInsn insn, BpfInsn next, DisasmCallbacks cb, Syntax syntax) {
        StringBuilder sb = new StringBuilder(48);
        format(sb, insn, next, cb, syntax);
        return sb.toString();
    }

    /** Appends the text of {@code insn} to {@code sb}; see {@link #format(BpfInsn, BpfInsn, DisasmCallbacks, Syntax)}. */
    public static void format(StringBuilder sb, BpfInsn insn, BpfInsn next, DisasmCallbacks cb, Syntax syntax) {
        switch (insn.insnClass()) {
            case ALU, ALU64 -> alu(sb, insn, syntax);
            case STX -> stx(sb, insn, syntax);
            case ST -> st(sb, insn);
            case LDX -> ldx(sb, insn, syntax);
            case LD -> ld(sb, insn, next, cb);
            case JMP, JMP32 -> jmp(sb, insn, cb, syntax);
            default -> code(sb, insn).append(CLASS[insn.insnClass()]);
        }
    }

    private static StringBuilder code(StringBuilder sb, BpfInsn insn) {
        sb.append('(');
        hex2(sb, insn.code());
        return sb.append(") ");
    }

    private static void hex2(StringBuilder sb, int v) {
        if (v < 0x10) {
            sb.append('0');
        }
        sb.append(Integer.toHexString(v));
    }

    private static String str(String[] table, int index) {
        String s = table[index];
        return s == null ? NULL : s;
    }

    private static StringBuilder signedOff(StringBuilder sb, int off) {
        return off >= 0 ? sb.append('+').append(off) : sb.append(off);
    }

    private static void alu(StringBuilder sb, BpfInsn insn, Syntax syntax) {
        boolean alu32 = insn.insnClass() == ALU;
        char r = alu32 ? 'w' : 'r';
        int op = insn.op();
        boolean modern = syntax.modern();
        if (op == END) {
            if (!alu32) {
                if (!modern) {
                    sb.append("BUG_alu64_");
                    hex2(sb, insn.code());
                    return;
                }
                code(sb, insn).append('r').append(insn.dst()).append(" = bswap").append(insn.imm())
                        .append(" r").append(insn.dst());
                return;
            }
            code(sb, insn).append('r').append(insn.dst()).append(" = ")
                    .append(insn.source() == TO_BE ? "be" : "le").append(insn.imm())
                    .append(" r").append(insn.dst());
        } else if (op == NEG) {
            code(sb, insn).append(r).append(insn.dst()).append(" = -").append(r).append(insn.dst());
        } else if (modern && insn.code() == (ALU64 | MOV | X) && insn.off() == ADDR_SPACE_CAST) {
            code(sb, insn).append('r').append(insn.dst()).append(" = addr_space_cast(r").append(insn.src())
                    .append(", ").append(Integer.toUnsignedString(insn.imm() >>> 16)).append(", ")
                    .append(insn.imm() & 0xffff).append(')');
        } else if (modern && insn.code() == (ALU64 | MOV | X) && insn.off() == ADDR_PERCPU) {
            code(sb, insn).append('r').append(insn.dst()).append(" = &(void __percpu *)(r").append(insn.src())
                    .append(')');
        } else {
            boolean signed = modern && (op == DIV || op == MOD) && insn.off() == 1;
            String opText = signed ? (op == DIV ? "s/=" : "s%=") : str(ALU_OPS, op >>> 4);
            code(sb, insn).append(r).append(insn.dst()).append(' ').append(opText).append(' ');
            if (insn.source() == X) {
                int off = insn.off();
                if (modern && op == MOV && (off == 8 || off == 16 || off == 32)) {
                    sb.append(off == 8 ? "(s8)" : off == 16 ? "(s16)" : "(s32)");
                }
                sb.append(r).append(insn.src());
            } else {
                sb.append(insn.imm());
            }
        }
    }

    private static void mem(StringBuilder sb, String type, int reg, int off) {
        sb.append('(').append(type).append(" *)(r").append(reg).append(' ');
        signedOff(sb, off).append(')');
    }

    private static void stx(StringBuilder sb, BpfInsn insn, Syntax syntax) {
        String type = LDST[insn.size() >>> 3];
        int imm = insn.imm();
        if (insn.mode() == MEM) {
            code(sb, insn).append('*');
            mem(sb, type, insn.dst(), insn.off());
            sb.append(" = r").append(insn.src());
            return;
        }
        if (insn.mode() != ATOMIC) {
            sb.append("BUG_");
            hex2(sb, insn.code());
            return;
        }
        String width = insn.size() == DW ? "64" : "";
        if (imm == ADD || imm == AND || imm == OR || imm == XOR) {
            code(sb, insn).append("lock *");
            mem(sb, type, insn.dst(), insn.off());
            sb.append(' ').append(str(ALU_OPS, (imm & 0xf0) >>> 4)).append(" r").append(insn.src());
        } else if (imm == (ADD | FETCH) || imm == (AND | FETCH) || imm == (OR | FETCH) || imm == (XOR | FETCH)) {
            code(sb, insn).append('r').append(insn.src()).append(" = atomic").append(width).append("_fetch_")
                    .append(str(ATOMIC_ALU, (imm & 0xf0) >>> 4)).append('(');
            mem(sb, type, insn.dst(), insn.off());
            sb.append(", r").append(insn.src()).append(')');
        } else if (imm == CMPXCHG) {
            code(sb, insn).append("r0 = atomic").append(width).append("_cmpxchg(");
            mem(sb, type, insn.dst(), insn.off());
            sb.append(", r0, r").append(insn.src()).append(')');
        } else if (imm == XCHG) {
            code(sb, insn).append('r').append(insn.src()).append(" = atomic").append(width).append("_xchg(");
            mem(sb, type, insn.dst(), insn.off());
            sb.append(", r").append(insn.src()).append(')');
        } else if (syntax.modern() && imm == LOAD_ACQ) {
            code(sb, insn).append('r').append(insn.dst()).append(" = load_acquire(");
            mem(sb, type, insn.src(), insn.off());
            sb.append(')');
        } else if (syntax.modern() && imm == STORE_REL) {
            code(sb, insn).append("store_release(");
            mem(sb, type, insn.dst(), insn.off());
            sb.append(", r").append(insn.src()).append(')');
        } else {
            sb.append("BUG_");
            hex2(sb, insn.code());
        }
    }

    private static void st(StringBuilder sb, BpfInsn insn) {
        if (insn.mode() == MEM) {
            code(sb, insn).append('*');
            mem(sb, LDST[insn.size() >>> 3], insn.dst(), insn.off());
            sb.append(" = ").append(insn.imm());
        } else if (insn.mode() == NOSPEC) {
            code(sb, insn).append("nospec");
        } else {
            sb.append("BUG_st_");
            hex2(sb, insn.code());
        }
    }

    private static void ldx(StringBuilder sb, BpfInsn insn, Syntax syntax) {
        boolean sx = syntax.modern() && insn.mode() == MEMSX;
        if (insn.mode() != MEM && !sx) {
            sb.append("BUG_ldx_");
            hex2(sb, insn.code());
            return;
        }
        code(sb, insn).append('r').append(insn.dst()).append(" = *");
        mem(sb, str(sx ? LDSX : LDST, insn.size() >>> 3), insn.src(), insn.off());
    }

    private static void ld(StringBuilder sb, BpfInsn insn, BpfInsn next, DisasmCallbacks cb) {
        String type = LDST[insn.size() >>> 3];
        if (insn.mode() == ABS) {
            code(sb, insn).append("r0 = *(").append(type).append(" *)skb[").append(insn.imm()).append(']');
        } else if (insn.mode() == IND) {
            code(sb, insn).append("r0 = *(").append(type).append(" *)skb[r").append(insn.src()).append(" + ")
                    .append(insn.imm()).append(']');
        } else if (insn.mode() == IMM && insn.size() == DW) {
            if (next == null) {
                // disasm.c assumes the second slot exists; a program cut after the first one has none.
                sb.append("BUG_ld_");
                hex2(sb, insn.code());
                sb.append(" (no second slot)");
                return;
            }
            long full = ((long) next.imm() << 32) | (insn.imm() & 0xffffffffL);
            code(sb, insn).append('r').append(insn.dst()).append(" = ").append(cb.imm(insn, next, full));
        } else {
            sb.append("BUG_ld_");
            hex2(sb, insn.code());
        }
    }

    private static void jmp(StringBuilder sb, BpfInsn insn, DisasmCallbacks cb, Syntax syntax) {
        int code = insn.code();
        boolean j32 = insn.insnClass() == JMP32;
        char r = j32 ? 'w' : 'r';
        boolean modern = syntax.modern();
        if (insn.op() == CALL) {
            String name = callName(insn, cb);
            code(sb, insn).append("call ");
            if (insn.src() == PSEUDO_CALL) {
                sb.append("pc").append(name);
            } else {
                sb.append(name).append('#').append(insn.imm());
            }
        } else if (code == (JMP | JA)) {
            code(sb, insn).append("goto pc");
            signedOff(sb, insn.off());
        } else if (modern && code == (JMP | JA | X)) {
            code(sb, insn).append("gotox r").append(insn.dst());
        } else if (modern && code == (JMP | JCOND) && insn.src() == MAY_GOTO) {
            code(sb, insn).append("may_goto pc");
            signedOff(sb, insn.off());
        } else if (modern && code == (JMP32 | JA)) {
            code(sb, insn).append("gotol pc");
            signedOff(sb, insn.imm());
        } else if (code == (JMP | EXIT)) {
            code(sb, insn).append("exit");
        } else {
            code(sb, insn).append("if ").append(r).append(insn.dst()).append(' ')
                    .append(str(JMP_OPS, insn.op() >>> 4)).append(' ');
            if (insn.source() == X) {
                sb.append(r).append(insn.src());
            } else {
                sb.append("0x").append(Integer.toHexString(insn.imm()));
            }
            sb.append(" goto pc");
            signedOff(sb, insn.off());
        }
    }

    /** disasm.c {@code __func_get_name}: helper table first, then the callback, then a fallback. */
    private static String callName(BpfInsn insn, DisasmCallbacks cb) {
        if (insn.src() == 0 && insn.imm() >= 0 && insn.imm() < HelperNames.MAX_ID) {
            return HelperNames.nameOrUnknown(insn.imm());
        }
        var named = cb.call(insn);
        if (named.isPresent()) {
            return named.get();
        }
        if (insn.src() == PSEUDO_CALL) {
            return insn.imm() >= 0 ? "+" + insn.imm() : Integer.toString(insn.imm());
        }
        if (insn.src() == PSEUDO_KFUNC_CALL) {
            return "kernel-function";
        }
        return "unknown";
    }
}
