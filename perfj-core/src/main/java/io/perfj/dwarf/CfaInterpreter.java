package io.perfj.dwarf;

import io.perfj.io.Bytes;
import io.perfj.io.Cursor;
import io.perfj.io.Leb128;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Executes call frame instructions (DWARF 5 section 6.4.2, "Call Frame Instructions", plus the
 * GNU extensions DW_CFA_GNU_args_size and DW_CFA_GNU_negative_offset_extended): first the CIE's
 * initial instructions, then the FDE's, producing the unwind table rows.
 */
final class CfaInterpreter {
    private static final int MAX_REGISTER = 0xffff;
    private static final int MAX_STATE_DEPTH = 4096;

    /** Receives each finished row; returns false to stop. */
    interface RowSink {
        boolean row(UnwindRow row);
    }

    private final Fde fde;
    private final Cie cie;
    private final PointerEncoding.Bases setLocBases;

    /**
     * @param setLocBases bases for DW_CFA_set_loc in .eh_frame (sectionAddress = address of the
     *                    instruction view's first byte), or null for .debug_frame
     */
    CfaInterpreter(Fde fde, PointerEncoding.Bases setLocBases) {
        this.fde = fde;
        this.cie = fde.cie();
        this.setLocBases = setLocBases;
    }

    /** The row covering {@code pc} (which must lie in the FDE's range). */
    UnwindRow rowFor(long pc) {
        UnwindRow[] found = new UnwindRow[1];
        run(row -> {
            if (Long.compareUnsigned(pc, row.end()) < 0) {
                found[0] = row;
                return false;
            }
            return true;
        });
        return found[0];
    }

    /** Every row, in address order (rows of zero length included as the instructions produce them). */
    List<UnwindRow> rows() {
        List<UnwindRow> out = new ArrayList<>();
        run(out::add);
        return out;
    }

    void run(RowSink sink) {
        RuleState initial = new RuleState();
        long[] loc = {fde.pcBegin()};
        execute(cie.initialInstructions(), initial, null, loc, null, null);
        if (!initial.cfaSet) {
            // a CIE that defines no CFA is allowed; rows then carry r0+0 like readelf's default
            initial.cfaSet = true;
        }
        RuleState state = initial.copy();
        loc[0] = fde.pcBegin();
        if (!execute(fde.instructions(), state, initial, loc, sink, setLocBases)) {
            return;
        }
        sink.row(state.toRow(loc[0], fde.pcEnd(), cie.returnAddressRegister()));
    }

    /** Returns false when the sink asked to stop. */
    private boolean execute(Bytes code, RuleState st, RuleState initial, long[] loc, RowSink sink,
                            PointerEncoding.Bases bases) {
        Cursor c = code.cursor();
        ArrayDeque<RuleState> stack = new ArrayDeque<>();
        while (c.hasRemaining()) {
            long at = c.position();
            int op = c.u8();
            int high = op & 0xc0;
            int low = op & 0x3f;
            if (high == 0x40) { // DW_CFA_advance_loc
                if (!advance(st, loc, low * cie.codeAlignment(), sink)) {
                    return false;
                }
                continue;
            }
            if (high == 0x80) { // DW_CFA_offset
                st.set(low, new RegisterRule.Offset(Leb128.unsigned(c) * cie.dataAlignment()));
                continue;
            }
            if (high == 0xc0) { // DW_CFA_restore
                restore(code, at, st, initial, low);
                continue;
            }
            switch (op) {
                case 0x00 -> { // nop
                }
                case 0x01 -> { // set_loc
                    long target = bases == null
                            ? PointerEncoding.readValue(c, PointerEncoding.ABSPTR, cie.addressSize())
                            : PointerEncoding.read(c, cie.fdeEncoding(), bases, true);
                    if (sink != null) {
                        if (Long.compareUnsigned(target, loc[0]) < 0) {
                            throw code.error(at, "DW_CFA_set_loc moves backwards to 0x" + Long.toHexString(target));
                        }
                        if (!emit(st, loc, target, sink)) {
                            return false;
                        }
                    }
                }
                case 0x02 -> {
                    if (!advance(st, loc, c.u8() * cie.codeAlignment(), sink)) {
                        return false;
                    }
                }
                case 0x03 -> {
                    if (!advance(st, loc, c.u16() * cie.codeAlignment(), sink)) {
                        return false;
                    }
                }
                case 0x04 -> {
                    if (!advance(st, loc, c.u32() * cie.codeAlignment(), sink)) {
                        return false;
                    }
                }
                case 0x05 -> st.set(reg(c), new RegisterRule.Offset(Leb128.unsigned(c) * cie.dataAlignment()));
                case 0x06 -> restore(code, at, st, initial, reg(c));
                case 0x07 -> st.set(reg(c), RegisterRule.UNDEFINED);
                case 0x08 -> st.set(reg(c), RegisterRule.SAME_VALUE);
                case 0x09 -> {
                    int r = reg(c);
                    st.set(r, new RegisterRule.Register(reg(c)));
                }
                case 0x0a -> { // remember_state
                    if (stack.size() >= MAX_STATE_DEPTH) {
                        throw code.error(at, "DW_CFA_remember_state nested deeper than " + MAX_STATE_DEPTH);
                    }
                    stack.push(st.copy());
                }
                case 0x0b -> { // restore_state: rules and CFA come back; the location stays
                    RuleState saved = stack.poll();
                    if (saved == null) {
                        throw code.error(at, "DW_CFA_restore_state without a remembered state");
                    }
                    st.cfa = saved.cfa;
                    st.cfaSet = saved.cfaSet;
                    st.regs = saved.regs;
                    st.rules = saved.rules;
                    st.count = saved.count;
                    st.raSigned = saved.raSigned; // RA_SIGN_STATE is one of the rules
                }
                case 0x0c -> defCfa(st, reg(c), Leb128.unsigned(c));
                case 0x0d -> { // def_cfa_register: keeps the offset
                    int r = reg(c);
                    long off = st.cfa instanceof CfaRule.RegisterOffset ro ? ro.offset() : 0;
                    defCfa(st, r, off);
                }
                case 0x0e -> defCfa(st, cfaRegister(st), Leb128.unsigned(c));
                case 0x0f -> {
                    st.cfa = new CfaRule.Expression(block(c));
                    st.cfaSet = true;
                }
                case 0x10 -> {
                    int r = reg(c);
                    st.set(r, new RegisterRule.Expression(block(c)));
                }
                case 0x11 -> st.set(reg(c), new RegisterRule.Offset(Leb128.signed(c) * cie.dataAlignment()));
                case 0x12 -> {
                    int r = reg(c);
                    defCfa(st, r, Leb128.signed(c) * cie.dataAlignment());
                }
                case 0x13 -> defCfa(st, cfaRegister(st), Leb128.signed(c) * cie.dataAlignment());
                case 0x14 -> st.set(reg(c), new RegisterRule.ValOffset(Leb128.unsigned(c) * cie.dataAlignment()));
                case 0x15 -> st.set(reg(c), new RegisterRule.ValOffset(Leb128.signed(c) * cie.dataAlignment()));
                case 0x16 -> {
                    int r = reg(c);
                    st.set(r, new RegisterRule.ValExpression(block(c)));
                }
                // DW_CFA_AARCH64_negate_ra_state (the opcode of SPARC's GNU_window_save, which
                // no x86-64 or aarch64 object has): RA_SIGN_STATE flips
                case 0x2d -> st.raSigned = !st.raSigned;
                case 0x2e -> Leb128.unsigned(c); // GNU_args_size: only matters for exception handling
                case 0x2f -> st.set(reg(c), new RegisterRule.Offset(-Leb128.unsigned(c) * cie.dataAlignment()));
                default -> throw code.error(at, "unknown call frame instruction 0x" + Integer.toHexString(op));
            }
        }
        return true;
    }

    private boolean advance(RuleState st, long[] loc, long delta, RowSink sink) {
        if (sink == null) {
            return true; // advances in CIE initial instructions carry no location
        }
        return emit(st, loc, loc[0] + delta, sink);
    }

    private boolean emit(RuleState st, long[] loc, long next, RowSink sink) {
        if (cie.addressSize() == 4) {
            next &= 0xffff_ffffL;
        }
        boolean more = sink.row(st.toRow(loc[0], next, cie.returnAddressRegister()));
        loc[0] = next;
        return more;
    }

    private void restore(Bytes code, long at, RuleState st, RuleState initial, int r) {
        if (initial == null) {
            throw code.error(at, "DW_CFA_restore in CIE initial instructions");
        }
        RegisterRule rule = initial.get(r);
        if (rule == null) {
            st.remove(r);
        } else {
            st.set(r, rule);
        }
    }

    private static void defCfa(RuleState st, int r, long off) {
        st.cfa = new CfaRule.RegisterOffset(r, off);
        st.cfaSet = true;
    }

    private static int cfaRegister(RuleState st) {
        return st.cfa instanceof CfaRule.RegisterOffset ro ? ro.register() : 0;
    }

    private static int reg(Cursor c) {
        long at = c.position();
        long r = Leb128.unsigned(c);
        if (r < 0 || r > MAX_REGISTER) {
            throw c.bytes().error(at, "register number " + Long.toUnsignedString(r) + " is out of range");
        }
        return (int) r;
    }

    private static byte[] block(Cursor c) {
        long at = c.position();
        long len = Leb128.unsigned(c);
        if (len < 0 || len > c.remaining()) {
            throw c.bytes().error(at, "expression of " + Long.toUnsignedString(len) + " bytes runs past the instructions");
        }
        return c.bytes(len);
    }
}
