package io.perfj.export;

import io.perfj.perfdata.PerfData;
import io.perfj.profile.Profile;
import io.perfj.session.Compat;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;

/** Profiles of the committed recordings, symbols from the committed files alone. */
final class ProfileFixtures {
    private ProfileFixtures() {
    }

    static Profile profile(String name, Compat compat) {
        SymbolOptions symbols = SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Fixtures.file("perf-maps")).noSystemFiles().build();
        try (PerfData data = PerfData.open(Fixtures.recording(name))) {
            return Profile.read(Session.of(data, new SessionOptions(symbols, io.perfj.compat.Perf61Quirks.of(compat))), Session.DEFAULT_MAX_STACK);
        }
    }
}
