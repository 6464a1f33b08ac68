package io.perfj.cli;

import io.perfj.top.LiveProfile;
import io.perfj.top.TopView;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;
import org.jline.utils.Display;
import org.jline.utils.InfoCmp.Capability;
import org.jline.utils.NonBlockingReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code perfj top}'s full-screen view on a jline {@link Terminal}: raw mode on the alternate
 * screen, a {@link TopView} drawn through jline's {@link Display} (only changed lines are
 * written), a new snapshot every refresh period and after each key that changes what is shown.
 * Everything but the drawing and the reading of keys is the view model's.
 */
final class TopScreen {
    private final Terminal term;
    private final LiveProfile profile;
    private final TopView view;
    /** The events' names: asked once samples came (a pipe's events arrive before its first sample). */
    private final java.util.function.Supplier<String> events;
    private String event = "";
    private final long refreshMillis;
    /** A page for the selected row: annotate's, or the callchains' (true). */
    private final Pages pages;
    /** With -g: report's options for the view's keys (the rows are the report's entries), else null. */
    private final java.util.function.Function<List<io.perfj.report.SortKey>, io.perfj.report.ReportOptions> callchains;
    /** With -g: the entries the rows shown are. */
    private LiveProfile.Entries entries;
    /** The row whose annotation is shown (refreshed with the live sums), or null. */
    private LiveProfile.Row annotated;
    private volatile boolean resized;
    /** Ctrl-C: quit as q does, so the terminal is restored. */
    private volatile boolean interrupted;

    /** Makes the text pages of a row: its annotation, its callchains. */
    interface Pages {
        List<String> annotate(LiveProfile.Row row);

        List<String> callchains(LiveProfile.Row row);
    }

    TopScreen(Terminal term, LiveProfile profile, TopView view, java.util.function.Supplier<String> events,
              long refreshMillis, Pages pages) {
        this(term, profile, view, events, refreshMillis, pages, null);
    }

    /**
     * As the other constructor; with {@code callchains} (top -g: report's options for the view's
     * keys) the rows are the report's entries, with a Children column when the options have
     * --children, and {@code +}/{@code e} show the selected entry's callchain tree.
     */
    TopScreen(Terminal term, LiveProfile profile, TopView view, java.util.function.Supplier<String> events,
              long refreshMillis, Pages pages,
              java.util.function.Function<List<io.perfj.report.SortKey>, io.perfj.report.ReportOptions> callchains) {
        this.callchains = callchains;
        this.term = term;
        this.profile = profile;
        this.view = view;
        this.events = events;
        this.refreshMillis = refreshMillis;
        this.pages = pages;
    }

    /** Runs until q (or the terminal's input ends); the terminal is left as it was found. */
    void run() throws IOException {
        Attributes saved = term.enterRawMode();
        Terminal.SignalHandler winch = term.handle(Terminal.Signal.WINCH, s -> resized = true);
        Terminal.SignalHandler intr = term.handle(Terminal.Signal.INT, s -> interrupted = true);
        term.puts(Capability.enter_ca_mode);
        term.puts(Capability.keypad_xmit);
        term.puts(Capability.cursor_invisible);
        term.flush();
        Display display = new Display(term, true);
        try {
            Size size = size();
            display.resize(size.getRows(), size.getColumns());
            refresh();
            draw(display, size);
            NonBlockingReader in = term.reader();
            long next = System.nanoTime() + refreshMillis * 1_000_000;
            while (true) {
                long wait = Math.max(1, (next - System.nanoTime()) / 1_000_000);
                int c = in.read(wait);
                if (interrupted) {
                    return;
                }
                if (resized) {
                    resized = false;
                    size = size();
                    display.clear();
                    display.resize(size.getRows(), size.getColumns());
                }
                if (c == NonBlockingReader.READ_EXPIRED) {
                    refresh();
                    if (annotated != null && view.showingText()) {
                        view.replaceText(pages.annotate(annotated));
                    }
                    draw(display, size);
                    next = System.nanoTime() + refreshMillis * 1_000_000;
                    continue;
                }
                if (c < 0) {
                    return;
                }
                StringBuilder seq = new StringBuilder().append((char) c);
                if (c == 27) {
                    // an escape sequence's rest comes at once; a lone ESC does not
                    while (!TopView.sequenceDone(seq.toString())) {
                        // a lone ESC is told by 50 ms of quiet; once the sequence began, its rest
                        // (or a terminal's answer) may come later on a busy machine
                        int d = in.read(seq.length() < 2 ? 50 : 1000);
                        if (d < 0) {
                            break;
                        }
                        seq.append((char) d);
                    }
                }
                TopView.Effect e = view.press(TopView.decode(seq.toString()));
                if (!view.showingText()) {
                    annotated = null;
                }
                switch (e) {
                    case QUIT -> {
                        return;
                    }
                    case RESET -> {
                        profile.reset();
                        refresh();
                    }
                    case REFRESH -> refresh();
                    case ANNOTATE -> {
                        annotated = view.selected();
                        view.showText("annotate " + annotated.symbol(), pages.annotate(annotated));
                    }
                    case EXPAND -> view.showText("callchains of " + view.selected().symbol(),
                            entries != null ? entries.callchains(view.selected()) : pages.callchains(view.selected()));
                    default -> {
                    }
                }
                draw(display, size);
            }
        } finally {
            display.update(List.of(), 0);
            term.puts(Capability.cursor_visible);
            term.puts(Capability.keypad_local);
            term.puts(Capability.exit_ca_mode);
            term.flush();
            term.handle(Terminal.Signal.WINCH, winch);
            term.handle(Terminal.Signal.INT, intr);
            term.setAttributes(saved);
        }
    }

    private Size size() {
        Size s = term.getSize();
        // a terminal that does not know its size (a pipe, some emulators): the classic 80x24
        return s.getRows() <= 0 || s.getColumns() <= 0 ? new Size(80, 24) : s;
    }

    private void refresh() {
        if (callchains != null) {
            io.perfj.report.ReportOptions o = callchains.apply(view.keys());
            LiveProfile.Entries en = profile.entries(o, view.zoomComm(), view.zoomDso(),
                    event.isEmpty() ? "samples" : event);
            if (event.isEmpty() && en.snapshot().samples() > 0) {
                event = events.get();
            }
            entries = en;
            view.update(en.snapshot(), o.children() ? en::children : null);
            return;
        }
        LiveProfile.Snapshot snap = profile.snapshot(view.keys(), view.zoomComm(), view.zoomDso());
        if (event.isEmpty() && snap.samples() > 0) {
            event = events.get();
        }
        view.update(snap);
    }

    private void draw(Display display, Size size) {
        view.height(size.getRows() - TopView.HEADER_LINES);
        // the last column is left free: a terminal that wraps there would scroll the screen
        List<String> lines = view.lines(event, size.getColumns() - 1);
        int selected = view.selectedLine();
        List<AttributedString> out = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size() && i < size.getRows(); i++) {
            AttributedStyle style = i == selected ? AttributedStyle.INVERSE
                    : i == 0 || i == TopView.HEADER_LINES - 1 ? AttributedStyle.BOLD : AttributedStyle.DEFAULT;
            out.add(new AttributedString(lines.get(i), style));
        }
        display.update(out, -1);
        term.flush();
    }
}
