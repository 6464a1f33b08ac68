package io.perfj.export;

import io.perfj.annotate.SourceLocator;
import io.perfj.profile.SourcePositions;
import io.perfj.session.Session;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Symbol;

/**
 * Source positions read where annotate reads them ({@link SourceLocator}: an object's DWARF
 * line table, a jitdump's debug info, a BPF program's line info), from the objects a session
 * found. Used while the session is open.
 */
public final class SessionSources {
    private SessionSources() {
    }

    /** The positions of {@code session}'s objects. */
    public static SourcePositions.Finder of(Session session) {
        SourceLocator locator = new SourceLocator(session.machine().finder(),
                () -> io.perfj.bpf.RecordedBpf.read(session.data()));
        return new SourcePositions.Finder() {
            @Override
            public SourcePositions.Position at(Dso dso, long objectAddress) {
                return position(locator.at(dso, objectAddress));
            }

            @Override
            public SourcePositions.Position start(Dso dso, Symbol sym) {
                return position(locator.find(dso, sym).place());
            }
        };
    }

    private static SourcePositions.Position position(SourceLocator.Place p) {
        return p == null || p == SourceLocator.NO_ROW ? null : new SourcePositions.Position(p.file(), p.line());
    }
}
