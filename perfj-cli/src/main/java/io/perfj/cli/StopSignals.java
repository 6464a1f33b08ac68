package io.perfj.cli;

import io.perfj.record.Sys;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * SIGINT, SIGTERM and SIGHUP as a request to stop a recording, as perf record takes them: the
 * recording ends and its file is finished, instead of the JVM exiting at once. Installed
 * whatever the parent left these signals as: a shell starts a background job ({@code cmd &})
 * with SIGINT ignored, and the JVM installs no handler for an ignored signal, so the
 * disposition is first given back its default (perf, a C program, installs its handlers over
 * an ignored SIGINT too). {@link #close} restores the handlers found.
 */
final class StopSignals implements AutoCloseable {
    static final int SIGHUP = 1;
    static final int SIGINT = 2;
    static final int SIGTERM = 15;
    private static final String[] NAMES = {"INT", "TERM", "HUP"};

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();
    private volatile int received;

    private StopSignals() {
    }

    /**
     * Calls {@code onStop} with the signal's number at the first of these signals; a second one
     * while stopping ends the process at once, with the status a death by that signal gives
     * (the file, whose header was written first, still reads).
     */
    static StopSignals install(IntConsumer onStop) {
        StopSignals s = new StopSignals();
        for (String name : NAMES) {
            Signal sig = new Signal(name);
            Sys.unignore(sig.getNumber());
            try {
                SignalHandler old = Signal.handle(sig, caught -> s.caught(caught.getNumber(), onStop));
                s.signals.add(sig);
                s.previous.add(old);
            } catch (IllegalArgumentException e) {
                // the JVM keeps this signal to itself (-Xrs): its default action stays
            }
        }
        return s;
    }

    private void caught(int signo, IntConsumer onStop) {
        if (received != 0) {
            Runtime.getRuntime().halt(128 + signo);
        }
        received = signo;
        onStop.accept(signo);
    }

    /** The first signal that asked to stop, 0 if none came. */
    int received() {
        return received;
    }

    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
