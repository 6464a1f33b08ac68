package io.perfj.io;

/**
 * A malformed input: names the file, the structure being read and the absolute offset where
 * reading failed. Every error a user can cause through bad input is one of these (or a subclass),
 * so the command line can print it as a single line.
 */
public class FormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final String structure;
    private final long offset;

    public FormatException(String source, String structure, long offset, String detail) {
        super(format(source, structure, offset, detail));
        this.source = source;
        this.structure = structure;
        this.offset = offset;
    }

    public FormatException(String source, String structure, long offset, String detail, Throwable cause) {
        super(format(source, structure, offset, detail), cause);
        this.source = source;
        this.structure = structure;
        this.offset = offset;
    }

    private static String format(String source, String structure, long offset, String detail) {
        StringBuilder sb = new StringBuilder();
        sb.append(source == null ? "<input>" : source).append(": ");
        sb.append(structure);
        if (offset >= 0) {
            sb.append(" at offset 0x").append(Long.toHexString(offset));
        }
        if (detail != null && !detail.isEmpty()) {
            sb.append(": ").append(detail);
        }
        return sb.toString();
    }

    /** The file (or stream name) the error was found in. */
    public String source() {
        return source;
    }

    /** The structure being decoded, e.g. "perf_file_header" or "PERF_RECORD_SAMPLE". */
    public String structure() {
        return structure;
    }

    /** Absolute offset in the file, or -1 when not known. */
    public long offset() {
        return offset;
    }
}
