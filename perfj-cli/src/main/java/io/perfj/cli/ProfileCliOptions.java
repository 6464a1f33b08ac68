package io.perfj.cli;

import io.perfj.perfdata.PerfData;
import io.perfj.profile.Profile;
import io.perfj.session.Session;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * What the commands that read a whole profile share (export, flamegraph): the input, symbol
 * and filter options, {@code --event} and {@code --max-stack}, and the reading itself.
 */
public final class ProfileCliOptions {
    final InputOptions in = new InputOptions();
    final SymbolCliOptions sym = new SymbolCliOptions();
    final FilterCliOptions filters = new FilterCliOptions();
    String event;
    int maxStack;

    /**
     * Adds the options; {@code second} describes what a second -i does (null: -i is taken once)
     * and {@code eventHelp} what --event picks.
     */
    void declare(CommandModel m, String second, String eventHelp) {
        if (second == null) {
            in.declare(m);
        } else {
            in.declareTwo(m, second);
        }
        sym.declare(m);
        filters.declare(m);
        m.option("--event").label("NAME").describe(eventHelp).value(String.class, v -> event = v);
        m.option("--max-stack").label("N").defaultValue("127").describe("Use at most N callchain frames.")
                .value(int.class, v -> maxStack = v);
    }

    /** The first damage met by {@link #read} (its profile has the samples before it), or null. */
    private io.perfj.io.FormatException damage;

    /**
     * The profile of one recording; the session's warnings go to {@code err}. A recording
     * damaged part-way gives the samples before the damage: the command writes what it makes of
     * them and then calls {@link #failIfDamaged()}, so that it still ends with the error.
     */
    Profile read(Path file, PrintWriter err) {
        try (PerfData data = PerfData.open(file); Session session = sym.session(data)) {
            return read(data, session, err);
        }
    }

    /** What a command does with a profile while the session that read it is open. */
    interface WithSession {
        void accept(Profile profile, Session session) throws java.io.IOException;
    }

    /**
     * As {@link #read(Path, PrintWriter)}, handing the profile to {@code use} before the session
     * closes: its objects still answer questions (source lines).
     */
    void read(Path file, PrintWriter err, WithSession use) throws java.io.IOException {
        try (PerfData data = PerfData.open(file); Session session = sym.session(data)) {
            use.accept(read(data, session, err), session);
        }
    }

    private Profile read(PerfData data, Session session, PrintWriter err) {
        Profile.Read r = Profile.readUntilDamage(session, maxStack, filters.filter(data));
        for (String w : session.warnings()) {
            err.println(w);
        }
        if (r.damage() != null && damage == null) {
            damage = r.damage();
        }
        return r.profile();
    }

    /** For a command that goes on (serve): the damage {@link #read} met, as a warning line, if any. */
    void warnIfDamaged(PrintWriter err) {
        if (damage != null) {
            err.println("perfj: warning: " + damage.getMessage() + " (the samples before it are shown)");
        }
    }

    /** Throws the damage {@link #read} met, if any (after the command wrote what was read before it). */
    void failIfDamaged() {
        if (damage != null) {
            throw damage;
        }
    }

    /** The event to show: {@code asked} (null: the first one sampled); a clear error when it has no samples. */
    public static int event(Profile p, Path file, String asked) {
        int e = p.firstSampled(asked);
        if (e < 0) {
            throw new CliError(file + ": no samples" + (asked == null ? "" : " of event '" + asked
                    + "' (the recording has: " + String.join(", ", p.events()) + ")"));
        }
        return e;
    }
}
