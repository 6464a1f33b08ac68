package io.perfj.report;

import io.perfj.perfdata.record.BranchStack;
import io.perfj.perfdata.record.Sample;
import io.perfj.io.TextOut;
import io.perfj.session.FrameResolver;
import io.perfj.symbols.Location;

/**
 * perf script's {@code -F brstack} and {@code -F brstacksym} (builtin-script.c
 * {@code perf_sample__fprintf_brstack}, {@code _brstacksym}): every entry of the sample's branch
 * stack as {@code FROM/TO/P/-/-/CYCLES/TYPE }, the ends as addresses or as
 * {@code symbol+0xoffset} ({@code [unknown]} without a symbol).
 */
final class BranchStackLines {
    private BranchStackLines() {
    }

    /** The entries as addresses ({@code brstack}). */
    static void addresses(Sample s, TextOut out) {
        BranchStack bs = s.branchStack();
        if (bs == null) {
            return;
        }
        for (int i = 0; i < bs.size(); i++) {
            out.str(" 0x").hex(bs.from(i)).str("/0x").hex(bs.to(i));
            flags(bs.flags(i), out);
        }
    }

    /** The entries as symbols ({@code brstacksym}). */
    static void symbols(Sample s, FrameResolver resolver, TextOut out) {
        BranchStack bs = s.branchStack();
        if (bs == null) {
            return;
        }
        for (int i = 0; i < bs.size(); i++) {
            symbol(resolve(s, resolver, bs.from(i)), out);
            out.ch('/');
            symbol(resolve(s, resolver, bs.to(i)), out);
            flags(bs.flags(i), out);
        }
    }

    /**
     * perf's {@code thread__find_symbol_fb}: in the sample's cpumode, else, when the address is
     * on the other side of the kernel's start (x86: the upper half), in the other of user and
     * kernel mode.
     */
    private static Location resolve(Sample s, FrameResolver resolver, long ip) {
        int mode = s.cpumode();
        Location l = resolver.resolve(s.pid(), s.tid(), mode, ip);
        int other = ip < 0 ? 1 : 2;
        if (l.map() != null || (mode != 1 && mode != 2) || other == mode) {
            return l;
        }
        return resolver.resolve(s.pid(), s.tid(), other, ip);
    }

    private static void symbol(Location l, TextOut out) {
        if (l.symbol() == null) {
            out.str("[unknown]");
            return;
        }
        out.str(l.symbol().name()).str("+0x").hex(l.mapIp() - l.symbol().start());
    }

    /** {@code print_bstack_flags}: prediction, in_tx, abort, cycles, type. */
    private static void flags(long f, TextOut out) {
        char pred = (f & 3) == 0 ? '-' : (f & 2) != 0 ? 'P' : 'M';
        out.ch('/').ch(pred).ch('/').ch((f & 4) != 0 ? 'X' : '-').ch('/').ch((f & 8) != 0 ? 'A' : '-').ch('/')
                .dec((f >>> 4) & 0xffff).ch('/').str(BranchStack.typeName(f)).ch(' ');
    }
}
