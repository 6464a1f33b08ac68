package io.perfj.bpf;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.perfj.bpf.BpfInsn.of;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Hand-assembled instructions of every class against the text the kernel's disasm.c
 * ({@code print_bpf_insn}, Linux 6.18) prints for them, and against bpftool 7.1's older copy
 * where the two differ. Expected strings follow the format strings of disasm.c.
 */
class InsnFormatterTest {
    private static final Syntax K = Syntax.KERNEL;
    private static final Syntax OLD = Syntax.BPFTOOL_7_1;

    private static String k(BpfInsn i) {
        return InsnFormatter.format(i, null, DisasmCallbacks.NONE, K);
    }

    private static String old(BpfInsn i) {
        return InsnFormatter.format(i, null, DisasmCallbacks.NONE, OLD);
    }

    private static void both(String expected, BpfInsn i) {
        assertEquals(expected, k(i), "kernel");
        assertEquals(expected, old(i), "bpftool 7.1");
    }

    @Test
    void alu() {
        both("(07) r1 += -4", of(0x07, 1, 0, 0, -4));
        both("(0c) w2 += w6", of(0x0c, 2, 6, 0, 0));
        both("(1f) r6 -= r2", of(0x1f, 6, 2, 0, 0));
        both("(2f) r4 *= r3", of(0x2f, 4, 3, 0, 0));
        both("(34) w1 /= 10", of(0x34, 1, 0, 0, 10));
        both("(47) r1 |= 8", of(0x47, 1, 0, 0, 8));
        both("(57) r1 &= 1", of(0x57, 1, 0, 0, 1));
        both("(67) r2 <<= 32", of(0x67, 2, 0, 0, 32));
        both("(7f) r0 >>= r7", of(0x7f, 0, 7, 0, 0));
        both("(97) r1 %= 7", of(0x97, 1, 0, 0, 7));
        both("(af) r0 ^= r1", of(0xaf, 0, 1, 0, 0));
        both("(b7) r2 = -1", of(0xb7, 2, 0, 0, -1));
        both("(bc) w2 = w2", of(0xbc, 2, 2, 0, 0));
        both("(c7) r1 s>>= 3", of(0xc7, 1, 0, 0, 3));
        both("(cc) w1 s>>= w2", of(0xcc, 1, 2, 0, 0));
        both("(87) r7 = -r7", of(0x87, 7, 0, 0, 0));
        both("(84) w4 = -w4", of(0x84, 4, 0, 0, 0));
        both("(dc) r2 = be32 r2", of(0xdc, 2, 0, 0, 32));
        both("(d4) r1 = le16 r1", of(0xd4, 1, 0, 0, 16));
        // op 0xe0 and 0xf0 have no name in disasm.c's table
        both("(e7) r1 (null) 5", of(0xe7, 1, 0, 0, 5));
        both("(ff) r1 (null) r2", of(0xff, 1, 2, 0, 0));
        // off is ignored unless it selects a v4 form
        both("(07) r1 += 1", of(0x07, 1, 0, 5, 1));
    }

    @Test
    void cpuV4Alu() {
        assertEquals("(d7) r1 = bswap64 r1", k(of(0xd7, 1, 0, 0, 64)));
        assertEquals("(d7) r3 = bswap16 r3", k(of(0xd7, 3, 0, 0, 16)));
        assertEquals("BUG_alu64_d7", old(of(0xd7, 1, 0, 0, 64)));
        assertEquals("(37) r1 s/= 3", k(of(0x37, 1, 0, 1, 3)));
        assertEquals("(37) r1 /= 3", old(of(0x37, 1, 0, 1, 3)));
        assertEquals("(9f) r1 s%= r2", k(of(0x9f, 1, 2, 1, 0)));
        assertEquals("(3c) w1 s/= w2", k(of(0x3c, 1, 2, 1, 0)));
        assertEquals("(94) w1 s%= -5", k(of(0x94, 1, 0, 1, -5)));
        assertEquals("(37) r1 /= 3", k(of(0x37, 1, 0, 2, 3)));
        assertEquals("(bf) r1 = (s8)r2", k(of(0xbf, 1, 2, 8, 0)));
        assertEquals("(bf) r1 = (s16)r2", k(of(0xbf, 1, 2, 16, 0)));
        assertEquals("(bf) r1 = (s32)r2", k(of(0xbf, 1, 2, 32, 0)));
        assertEquals("(bc) w1 = (s8)w2", k(of(0xbc, 1, 2, 8, 0)));
        assertEquals("(bc) w1 = (s16)w2", k(of(0xbc, 1, 2, 16, 0)));
        assertEquals("(bf) r1 = r2", old(of(0xbf, 1, 2, 8, 0)));
        assertEquals("(bf) r1 = r2", k(of(0xbf, 1, 2, 24, 0)));
        // movsx is a register form only
        assertEquals("(b7) r1 = 5", k(of(0xb7, 1, 0, 8, 5)));
        assertEquals("(bf) r1 = addr_space_cast(r2, 1, 0)", k(of(0xbf, 1, 2, 1, 1 << 16)));
        assertEquals("(bf) r1 = addr_space_cast(r2, 65535, 7)", k(of(0xbf, 1, 2, 1, 0xffff0007)));
        assertEquals("(bf) r1 = r2", old(of(0xbf, 1, 2, 1, 1 << 16)));
        assertEquals("(bf) r0 = &(void __percpu *)(r0)", k(of(0xbf, 0, 0, -1, 0)));
        assertEquals("(bf) r0 = r0", old(of(0xbf, 0, 0, -1, 0)));
        // the 32-bit move with off -1 is not the per-CPU form
        assertEquals("(bc) w0 = w0", k(of(0xbc, 0, 0, -1, 0)));
    }

    @Test
    void storesAndLoads() {
        both("(7b) *(u64 *)(r10 -24) = r1", of(0x7b, 10, 1, -24, 0));
        both("(63) *(u32 *)(r10 -4) = r1", of(0x63, 10, 1, -4, 0));
        both("(6b) *(u16 *)(r1 +2) = r3", of(0x6b, 1, 3, 2, 0));
        both("(73) *(u8 *)(r1 +0) = r3", of(0x73, 1, 3, 0, 0));
        both("(7a) *(u64 *)(r10 -8) = 0", of(0x7a, 10, 0, -8, 0));
        both("(62) *(u32 *)(r1 +4) = -7", of(0x62, 1, 0, 4, -7));
        both("(c2) nospec", of(0xc2, 0, 0, 0, 0));
        both("BUG_st_22", of(0x22, 0, 0, 0, 0));
        both("(79) r2 = *(u64 *)(r1 +0)", of(0x79, 2, 1, 0, 0));
        both("(61) r0 = *(u32 *)(r2 +0)", of(0x61, 0, 2, 0, 0));
        both("(69) r0 = *(u16 *)(r2 +12)", of(0x69, 0, 2, 12, 0));
        both("(71) r0 = *(u8 *)(r2 -1)", of(0x71, 0, 2, -1, 0));
        both("BUG_ldx_c1", of(0xc1, 0, 2, 0, 0));
        both("BUG_23", of(0x23, 1, 2, 0, 0));
        assertEquals("(91) r1 = *(s8 *)(r2 +4)", k(of(0x91, 1, 2, 4, 0)));
        assertEquals("(89) r1 = *(s16 *)(r2 +4)", k(of(0x89, 1, 2, 4, 0)));
        assertEquals("(81) r1 = *(s32 *)(r2 -8)", k(of(0x81, 1, 2, -8, 0)));
        assertEquals("(99) r1 = *((null) *)(r2 +0)", k(of(0x99, 1, 2, 0, 0)));
        assertEquals("BUG_ldx_91", old(of(0x91, 1, 2, 4, 0)));
        both("(30) r0 = *(u8 *)skb[12]", of(0x30, 0, 0, 0, 12));
        both("(28) r0 = *(u16 *)skb[-4]", of(0x28, 0, 0, 0, -4));
        both("(40) r0 = *(u32 *)skb[r1 + 4]", of(0x40, 0, 1, 0, 4));
        both("BUG_ld_00", of(0x00, 0, 0, 0, 0));
        both("BUG_ld_18 (no second slot)", of(0x18, 1, 0, 0, 5));
    }

    @Test
    void atomics() {
        both("(db) lock *(u64 *)(r1 +0) += r2", of(0xdb, 1, 2, 0, 0x00));
        both("(db) lock *(u64 *)(r3 +0) |= r2", of(0xdb, 3, 2, 0, 0x40));
        both("(db) lock *(u64 *)(r3 +0) &= r2", of(0xdb, 3, 2, 0, 0x50));
        both("(db) lock *(u64 *)(r3 +0) ^= r2", of(0xdb, 3, 2, 0, 0xa0));
        both("(c3) lock *(u32 *)(r3 +8) += r4", of(0xc3, 3, 4, 8, 0x00));
        both("(db) r9 = atomic64_fetch_add((u64 *)(r1 +0), r9)", of(0xdb, 1, 9, 0, 0x01));
        both("(c3) r1 = atomic_fetch_add((u32 *)(r3 +0), r1)", of(0xc3, 3, 1, 0, 0x01));
        both("(db) r6 = atomic64_fetch_and((u64 *)(r3 +0), r6)", of(0xdb, 3, 6, 0, 0x51));
        both("(db) r6 = atomic64_fetch_or((u64 *)(r3 -8), r6)", of(0xdb, 3, 6, -8, 0x41));
        both("(c3) r8 = atomic_fetch_xor((u32 *)(r3 +0), r8)", of(0xc3, 3, 8, 0, 0xa1));
        both("(db) r0 = atomic64_cmpxchg((u64 *)(r2 +0), r0, r1)", of(0xdb, 2, 1, 0, 0xf1));
        both("(c3) r0 = atomic_cmpxchg((u32 *)(r2 +4), r0, r1)", of(0xc3, 2, 1, 4, 0xf1));
        both("(db) r9 = atomic64_xchg((u64 *)(r1 +0), r9)", of(0xdb, 1, 9, 0, 0xe1));
        both("(c3) r9 = atomic_xchg((u32 *)(r1 +0), r9)", of(0xc3, 1, 9, 0, 0xe1));
        both("BUG_db", of(0xdb, 1, 2, 0, 0x20));
        both("BUG_db", of(0xdb, 1, 2, 0, 0xe0));
        assertEquals("(db) r0 = load_acquire((u64 *)(r1 +8))", k(of(0xdb, 0, 1, 8, 0x100)));
        assertEquals("(d3) r0 = load_acquire((u8 *)(r1 +0))", k(of(0xd3, 0, 1, 0, 0x100)));
        assertEquals("(cb) store_release((u16 *)(r1 -2), r2)", k(of(0xcb, 1, 2, -2, 0x110)));
        assertEquals("BUG_db", old(of(0xdb, 0, 1, 8, 0x100)));
        assertEquals("BUG_db", old(of(0xdb, 1, 2, 8, 0x110)));
    }

    @Test
    void jumps() {
        both("(05) goto pc-6", of(0x05, 0, 0, -6, 0));
        both("(05) goto pc+0", of(0x05, 0, 0, 0, 0));
        both("(95) exit", of(0x95, 0, 0, 0, 0));
        both("(15) if r1 == 0x0 goto pc+1", of(0x15, 1, 0, 1, 0));
        both("(55) if r2 != 0xfff goto pc-10", of(0x55, 2, 0, -10, 0xfff));
        both("(35) if r0 >= 0x4 goto pc+3", of(0x35, 0, 0, 3, 4));
        both("(25) if r4 > 0x3e goto pc+6", of(0x25, 4, 0, 6, 0x3e));
        both("(3d) if r7 >= r6 goto pc+5", of(0x3d, 7, 6, 5, 0));
        both("(ad) if r1 < r2 goto pc-12", of(0xad, 1, 2, -12, 0));
        both("(b5) if r1 <= 0x800000 goto pc+2", of(0xb5, 1, 0, 2, 0x800000));
        both("(45) if r1 & 0x8 goto pc+1", of(0x45, 1, 0, 1, 8));
        both("(66) if w2 s> 0xfffffffe goto pc+9", of(0x66, 2, 0, 9, -2));
        both("(ce) if w1 s< w2 goto pc-3", of(0xce, 1, 2, -3, 0));
        both("(7d) if r1 s>= r2 goto pc+3", of(0x7d, 1, 2, 3, 0));
        both("(d5) if r1 s<= 0x0 goto pc+3", of(0xd5, 1, 0, 3, 0));
        both("(1e) if w1 == w2 goto pc+3", of(0x1e, 1, 2, 3, 0));
        both("(96) if w0 exit 0x0 goto pc+0", of(0x96, 0, 0, 0, 0));
        both("(f5) if r0 (null) 0x0 goto pc+0", of(0xf5, 0, 0, 0, 0));
        assertEquals("(06) gotol pc+70000", k(of(0x06, 0, 0, 0, 70000)));
        assertEquals("(06) gotol pc-2", k(of(0x06, 0, 0, 0, -2)));
        assertEquals("(06) if w0 jmp 0x11170 goto pc+0", old(of(0x06, 0, 0, 0, 70000)));
        assertEquals("(0d) gotox r3", k(of(0x0d, 3, 0, 0, 0)));
        assertEquals("(0d) if r3 jmp r0 goto pc+0", old(of(0x0d, 3, 0, 0, 0)));
        assertEquals("(e5) may_goto pc+5", k(of(0xe5, 0, 0, 5, 0)));
        assertEquals("(e5) if r0 (null) 0x0 goto pc+5", old(of(0xe5, 0, 0, 5, 0)));
        assertEquals("(e5) if r0 (null) 0x0 goto pc+5", k(of(0xe5, 0, 1, 5, 0)));
    }

    @Test
    void calls() {
        both("(85) call bpf_map_lookup_elem#1", of(0x85, 0, 0, 0, 1));
        both("(85) call bpf_tail_call#12", of(0x85, 0, 0, 0, 12));
        both("(85) call bpf_unspec#0", of(0x85, 0, 0, 0, 0));
        both("(85) call bpf_cgrp_storage_delete#211", of(0x85, 0, 0, 0, 211));
        both("(85) call unknown#212", of(0x85, 0, 0, 0, 212));
        both("(85) call unknown#-5", of(0x85, 0, 0, 0, -5));
        both("(85) call kernel-function#12345", of(0x85, 0, 2, 0, 12345));
        both("(85) call pc+11", of(0x85, 0, 1, 0, 11));
        both("(85) call pc-3", of(0x85, 0, 1, 0, -3));
        both("(85) call unknown#1", of(0x85, 0, 3, 0, 1));
        both("(86) call bpf_map_lookup_elem#1", of(0x86, 0, 0, 0, 1));
    }

    @Test
    void xlatedCallsAndImmediates() {
        long base = 0xffffffff814dccd0L;
        KernelSymbols syms = KernelSymbols.parseKallsyms(
                "ffffffff814dccd0 T __bpf_call_base\nffffffff8151fe00 T bpf_ktime_get_ns\n")
                .with(Map.of(0xffffffffc0025598L, "bpf_prog_aa_main", 0xffffffffc00258fcL, "bpf_prog_bb_sub"));
        long[] ksyms = {0xffffffffc0025598L, 0xffffffffc00258fcL};
        XlatedCallbacks cb = new XlatedCallbacks(syms, ksyms, K);
        int ktime = (int) (0xffffffff8151fe00L - base);
        assertEquals("(85) call bpf_ktime_get_ns#274736", InsnFormatter.format(of(0x85, 0, 0, 0, ktime), null, cb, K));
        // ids below the helper count are helper names even when a symbol would match
        assertEquals("(85) call bpf_get_prandom_u32#7", InsnFormatter.format(of(0x85, 0, 0, 0, 7), null, cb, K));
        assertEquals("(85) call 0xffffffff814e0bd0#16128", InsnFormatter.format(of(0x85, 0, 0, 0, 16128), null, cb, K));
        assertEquals("(85) call pc+117#bpf_prog_bb_sub", InsnFormatter.format(of(0x85, 0, 1, 117, 1), null, cb, K));
        assertEquals("(85) call pc+5#0xffffffff814dccd7", InsnFormatter.format(of(0x85, 0, 1, 5, 7), null, cb, K));
        XlatedCallbacks interp = new XlatedCallbacks(syms, new long[0], K);
        assertEquals("(85) call pc+5", InsnFormatter.format(of(0x85, 0, 1, 5, 1), null, interp, K));
        assertEquals("(85) call bpf_ktime_get_ns#274736", InsnFormatter.format(of(0x85, 0, 2, 0, ktime), null, cb, K));
        XlatedCallbacks nosyms = new XlatedCallbacks(KernelSymbols.empty(), ksyms, K);
        assertEquals("(85) call 0xfffffffffffffc18#-1000", InsnFormatter.format(of(0x85, 0, 0, 0, -1000), null, nosyms, K));

        BpfInsn hi0 = of(0, 0, 0, 0, 0);
        assertEquals("(18) r1 = map[id:26]", InsnFormatter.format(of(0x18, 1, 1, 0, 26), hi0, cb, K));
        assertEquals("(18) r1 = map[id:31][0]+8", InsnFormatter.format(of(0x18, 1, 2, 0, 31), of(0, 0, 0, 0, 8), cb, K));
        assertEquals("(18) r1 = map[idx:2]+16", InsnFormatter.format(of(0x18, 1, 6, 0, 2), of(0, 0, 0, 0, 16), cb, K));
        assertEquals("(18) r2 = subprog[+95]", InsnFormatter.format(of(0x18, 2, 4, 0, 95), hi0, cb, K));
        assertEquals("(18) r2 = subprog[-4]", InsnFormatter.format(of(0x18, 2, 4, 0, -4), hi0, cb, K));
        assertEquals("(18) r1 = 0xffffffff82a0c000", InsnFormatter.format(of(0x18, 1, 3, 0, 0x82a0c000), of(0, 0, 0, 0, -1), cb, K));
        assertEquals("(18) r1 = 0x5", InsnFormatter.format(of(0x18, 1, 5, 0, 5), hi0, cb, K));
        assertEquals("(18) r3 = 0x9e3779b97f4a7c15", InsnFormatter.format(of(0x18, 3, 0, 0, 0x7f4a7c15), of(0, 0, 0, 0, 0x9e3779b9), cb, K));
        assertEquals("(18) r1 = map[id:-1]", InsnFormatter.format(of(0x18, 1, 1, 0, -1), hi0, cb, K));
        XlatedCallbacks cbOld = new XlatedCallbacks(syms, ksyms, OLD);
        assertEquals("(18) r1 = map[id:4294967295]", InsnFormatter.format(of(0x18, 1, 1, 0, -1), hi0, cbOld, OLD));
        assertEquals("(18) r1 = 0x100000001b3", InsnFormatter.format(of(0x18, 1, 0, 0, 0x1b3), of(0, 0, 0, 0, 0x100), DisasmCallbacks.NONE, K));
    }

    @Test
    void everyOpcodeHasAText() {
        for (int code = 0; code < 256; code++) {
            for (int src = 0; src < 16; src += 5) {
                for (int imm : new int[] {0, 1, 0x100, 0x110, 0xf1, -1}) {
                    for (Syntax s : Syntax.values()) {
                        BpfInsn i = of(code, 3, src, -1, imm);
                        String t = InsnFormatter.format(i, of(0, 0, 0, 0, 0), DisasmCallbacks.NONE, s);
                        org.junit.jupiter.api.Assertions.assertFalse(t.isEmpty());
                        org.junit.jupiter.api.Assertions.assertFalse(t.contains("\n"));
                    }
                }
            }
        }
    }
}
