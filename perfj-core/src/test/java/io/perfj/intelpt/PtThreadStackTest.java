package io.perfj.intelpt;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The thread stack as perf's thread-stack.c keeps it for the decoder's callchains. */
class PtThreadStackTest {
    private static final long U = PtThreadStack.CONTEXT_USER;
    private static final long K = PtThreadStack.CONTEXT_KERNEL;
    private static final int CALL = PtEvent.FLAG_BRANCH | PtEvent.FLAG_CALL;
    private static final int RET = PtEvent.FLAG_BRANCH | PtEvent.FLAG_RETURN;
    private static final int ASYNC = CALL | PtEvent.FLAG_ASYNC | PtEvent.FLAG_INTERRUPT;
    private static final int BEGIN = PtEvent.FLAG_BRANCH | PtEvent.FLAG_TRACE_BEGIN;

    @Test
    void callsPushReturnsPop() {
        PtThreadStack t = new PtThreadStack();
        t.event(CALL, 0x1000, 0x2000, 5, 1);
        t.event(CALL, 0x2010, 0x3000, 5, 1);
        assertArrayEquals(new long[] {U, 0x3004, 0x2015, 0x1005}, PtThreadStack.sample(t, 0x3004, 17));
        t.event(RET, 0x3010, 0x2015, 1, 1);
        assertArrayEquals(new long[] {U, 0x2020, 0x1005}, PtThreadStack.sample(t, 0x2020, 17));
        t.event(RET, 0x2030, 0x9999, 1, 1); // a return to no call seen: the stack stays
        assertArrayEquals(new long[] {U, 0x2040, 0x1005}, PtThreadStack.sample(t, 0x2040, 17));
    }

    @Test
    void interruptFromUserThenKernelSample() {
        PtThreadStack t = new PtThreadStack();
        t.event(ASYNC, 0x5cba63221580L, 0xffffffffba001340L, 0, 1); // zero-length: the ip itself returns
        assertArrayEquals(new long[] {K, 0xffffffffba001400L, U, 0x5cba63221580L},
                PtThreadStack.sample(t, 0xffffffffba001400L, 17));
        // the trace begins again at the interrupted address: popped
        t.event(BEGIN, 0, 0x5cba63221580L, 0, 1);
        assertArrayEquals(new long[] {U, 0}, PtThreadStack.sample(t, 0, 17));
        assertArrayEquals(new long[] {K, 0xffffffffb977ef9dL}, PtThreadStack.sampleLate(t, 0xffffffffb977ef9dL, 17));
    }

    @Test
    void newTraceEmptiesTheStack() {
        PtThreadStack t = new PtThreadStack();
        t.event(CALL, 0x1000, 0x2000, 5, 1);
        t.event(CALL, 0x2000, 0x3000, 5, 2);
        assertArrayEquals(new long[] {U, 0x3000, 0x2005}, PtThreadStack.sample(t, 0x3000, 17));
        assertArrayEquals(new long[] {U, 0x2005}, PtThreadStack.sampleLate(t, 0x3000, 17));
    }
}
