package io.perfj.serve;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The page's files: a fixed table from a URL name to a class-path resource of this package and
 * its content type. Nothing else is ever served as a file; a name not in the table is not
 * found, whatever it spells.
 */
final class Assets {
    /** A file of the page. */
    record Asset(byte[] bytes, String type) {
    }

    private static final String HTML = "text/html; charset=utf-8";
    private static final String JS = "text/javascript; charset=utf-8";
    private static final String CSS = "text/css; charset=utf-8";

    /** URL name (after the token) to resource name and type. */
    private static final Map<String, String[]> TABLE = Map.of(
            "", new String[] {"index.html", HTML},
            "app.js", new String[] {"app.js", JS},
            "flame.js", new String[] {"flame.js", JS},
            "style.css", new String[] {"style.css", CSS});

    private final Map<String, Asset> loaded = new java.util.HashMap<>();

    Assets() {
        TABLE.forEach((url, res) -> loaded.put(url, new Asset(resource(res[0]), res[1])));
    }

    /** The asset served under {@code name}, or null. */
    Asset get(String name) {
        return loaded.get(name);
    }

    /** A resource of this package, as bytes (the page's files, also for the standalone flame graph). */
    static byte[] resource(String name) {
        try (InputStream in = Assets.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
