package io.perfj.intelpt;

import java.util.Arrays;

/**
 * A thread's call stack as the decoder's branches make it, for the callchains perf gives the
 * samples it synthesizes and (report's default) the recorded ones (util/thread-stack.c,
 * thread_stack__event, thread_stack__sample, thread_stack__sample_late): a call pushes its return
 * address, a return pops to it, where the trace begins the stack is made sense of, a new trace
 * (another buffer) empties it.
 */
final class PtThreadStack {
    private static final long KERNEL_START = 1L << 63;
    /** perf's PERF_CONTEXT_USER and PERF_CONTEXT_KERNEL markers. */
    static final long CONTEXT_USER = -512L;
    static final long CONTEXT_KERNEL = -128L;

    private long[] retAddr = new long[16];
    private boolean[] traceEnd = new boolean[16];
    private int cnt;
    private long traceNr;

    /** A branch with perf's sample {@code flags}. */
    void event(int flags, long fromIp, long toIp, int insnLen, long trace) {
        if (trace != traceNr) {
            cnt = 0;
            traceNr = trace;
        }
        if ((flags & PtEvent.FLAG_CALL) != 0) {
            if (toIp == 0) {
                return;
            }
            long ret = fromIp + insnLen;
            if (ret == toIp) {
                return; // zero-length calls are not calls
            }
            push(ret, (flags & PtEvent.FLAG_TRACE_END) != 0);
        } else if ((flags & PtEvent.FLAG_TRACE_BEGIN) != 0) {
            pop(toIp);
            while (cnt > 0 && traceEnd[cnt - 1]) {
                cnt--;
            }
        } else if ((flags & PtEvent.FLAG_RETURN) != 0 && fromIp != 0) {
            pop(toIp);
        }
    }

    private void push(long ret, boolean end) {
        if (cnt == retAddr.length) {
            retAddr = Arrays.copyOf(retAddr, cnt * 2);
            traceEnd = Arrays.copyOf(traceEnd, cnt * 2);
        }
        retAddr[cnt] = ret;
        traceEnd[cnt] = end;
        cnt++;
    }

    private void pop(long ret) {
        for (int i = cnt; i > 0; ) {
            if (retAddr[--i] == ret) {
                cnt = i;
                return;
            }
        }
    }

    static long context(long ip) {
        return Long.compareUnsigned(ip, KERNEL_START) < 0 ? CONTEXT_USER : CONTEXT_KERNEL;
    }

    /** The callchain of a synthesized sample at {@code ip}: at most {@code sz} entries. */
    static long[] sample(PtThreadStack ts, long ip, int sz) {
        long[] chain = new long[sz];
        long last = context(ip);
        chain[0] = last;
        chain[1] = ip;
        if (ts == null) {
            return Arrays.copyOf(chain, 2);
        }
        int i = 2;
        for (int j = 1; i < sz && j <= ts.cnt; i++, j++) {
            long a = ts.retAddr[ts.cnt - j];
            long c = context(a);
            if (c != last) {
                if (i >= sz - 1) {
                    break;
                }
                chain[i++] = c;
                last = c;
            }
            chain[i] = a;
        }
        return Arrays.copyOf(chain, i);
    }

    /** The callchain perf adds to a recorded sample at {@code ip} (report's add_callchain). */
    static long[] sampleLate(PtThreadStack ts, long ip, int sz) {
        long sampleContext = context(ip);
        long[] chain = new long[sz];
        int nr = 0;
        if (ts != null) {
            int j = 1;
            // kernel addresses on top of the stack after the event, before tracing stopped: skipped
            for (; j <= ts.cnt; j++) {
                long a = ts.retAddr[ts.cnt - j];
                long c = context(a);
                if (c == CONTEXT_USER || (c == sampleContext && a == ip)) {
                    break;
                }
            }
            long last = ip; // no context
            for (; nr < sz && j <= ts.cnt; nr++, j++) {
                long a = ts.retAddr[ts.cnt - j];
                long c = context(a);
                if (c != last) {
                    if (nr >= sz - 1) {
                        break;
                    }
                    chain[nr++] = c;
                    last = c;
                }
                chain[nr] = a;
            }
        }
        if (nr == 0) {
            return new long[] {sampleContext, ip};
        }
        return Arrays.copyOf(chain, nr);
    }
}
