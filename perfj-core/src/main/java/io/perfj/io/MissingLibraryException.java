package io.perfj.io;

/**
 * An input that needs an optional library which is not on the class path (or whose native part
 * did not load): zstd-jni for zstd-compressed recordings and debug sections, xz-java for
 * MiniDebugInfo. The message names the file being read and the library (its Maven coordinates),
 * so that an application embedding perfj-core without it gets an error it can act on instead of
 * a {@link NoClassDefFoundError} from deep inside a reader.
 */
public final class MissingLibraryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** zstd-jni's Maven coordinates, as the message names them. */
    public static final String ZSTD_JNI = "com.github.luben:zstd-jni";
    /** xz-java's Maven coordinates, as the message names them. */
    public static final String XZ_JAVA = "org.tukaani:xz";

    private final String source;
    private final String library;

    /**
     * @param source  the file being read
     * @param what    what in it needs the library (e.g. "zstd-compressed records")
     * @param library the library's Maven coordinates
     * @param cause   the linkage error the JVM raised
     */
    public MissingLibraryException(String source, String what, String library, Throwable cause) {
        super(source + ": " + what + " need " + library + ", which is not on the class path or did not load ("
                + cause + ")", cause);
        this.source = source;
        this.library = library;
    }

    /** The file being read. */
    public String source() {
        return source;
    }

    /** The missing library's Maven coordinates. */
    public String library() {
        return library;
    }
}
