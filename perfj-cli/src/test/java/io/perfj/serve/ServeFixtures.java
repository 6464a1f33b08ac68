package io.perfj.serve;

import io.perfj.perfdata.PerfData;
import io.perfj.profile.Profile;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The committed recordings as the server loads them (symbols from the fixtures only), read once. */
final class ServeFixtures {
    private static final Map<String, Recording> LOADED = new HashMap<>();

    private ServeFixtures() {
    }

    static SessionOptions options() {
        return SessionOptions.of(SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Fixtures.file("perf-maps")).noSystemFiles().build());
    }

    static synchronized Recording recording(String name) {
        return LOADED.computeIfAbsent(name, n -> {
            Path file = Fixtures.recording(n);
            try (PerfData data = PerfData.open(file)) {
                Profile p = Profile.read(Session.of(data, options()), 127);
                return new Recording(n + ".data", file, p, options());
            }
        });
    }

    /** A server on a free loopback port over these recordings. */
    static UiServer start(String... names) throws java.io.IOException {
        Recording[] r = new Recording[names.length];
        for (int i = 0; i < names.length; i++) {
            r[i] = recording(names[i]);
        }
        return UiServer.start(new Api(r), "127.0.0.1", 0);
    }

    /** The server's token (the first segment of its address's path). */
    static String token(UiServer s) {
        String path = java.net.URI.create(s.url()).getPath();
        return path.substring(1, path.length() - 1);
    }
}
