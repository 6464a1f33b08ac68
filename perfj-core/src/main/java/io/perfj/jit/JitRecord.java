package io.perfj.jit;

import java.util.List;

/**
 * One record of a jitdump file, after the 16-byte prefix every record starts with (id, total
 * size, timestamp). Offsets are those of the record's first byte in the file.
 */
public sealed interface JitRecord {
    /** JIT_CODE_LOAD. */
    int CODE_LOAD = 0;
    /** JIT_CODE_MOVE. */
    int CODE_MOVE = 1;
    /** JIT_CODE_DEBUG_INFO. */
    int DEBUG_INFO = 2;
    /** JIT_CODE_CLOSE. */
    int CLOSE = 3;
    /** JIT_CODE_UNWINDING_INFO. */
    int UNWINDING_INFO = 4;
    /** The size of the prefix: id, total_size, timestamp. */
    int PREFIX_SIZE = 16;

    long offset();

    long timestamp();

    /** The name perf's specification gives a record id. */
    static String name(int id) {
        return switch (id) {
            case CODE_LOAD -> "JIT_CODE_LOAD";
            case CODE_MOVE -> "JIT_CODE_MOVE";
            case DEBUG_INFO -> "JIT_CODE_DEBUG_INFO";
            case CLOSE -> "JIT_CODE_CLOSE";
            case UNWINDING_INFO -> "JIT_CODE_UNWINDING_INFO";
            default -> "jitdump record " + id;
        };
    }

    /**
     * Code generated at {@code codeAddr}; its bytes are the last {@code codeSize} bytes of the
     * record, at {@code codeOffset} in the file.
     */
    record CodeLoad(long offset, long timestamp, int pid, int tid, long vma, long codeAddr, long codeSize,
                    long codeIndex, String name, long codeOffset) implements JitRecord {
    }

    /** Code {@code codeIndex} moved from {@code oldCodeAddr} to {@code newCodeAddr}. */
    record CodeMove(long offset, long timestamp, int pid, int tid, long vma, long oldCodeAddr, long newCodeAddr,
                    long codeSize, long codeIndex) implements JitRecord {
    }

    /** Source lines of the code load that follows it. */
    record DebugInfo(long offset, long timestamp, long codeAddr, List<LineEntry> lines) implements JitRecord {
    }

    /**
     * One source position: the code from {@code addr} on comes from {@code file}:{@code line}.
     *
     * @param discriminator DWARF's discriminator of the line, 0 when none
     */
    record LineEntry(long addr, int line, int discriminator, String file) {
        /**
         * The position as perf's srcline sort key and objdump's line markers print it,
         * {@code file:line}; the discriminator is left out (V8 stores the column there).
         */
        public String srcline() {
            return file + ":" + Integer.toUnsignedString(line);
        }
    }

    /**
     * Unwinding information (.eh_frame and .eh_frame_hdr bytes) for the code load that follows
     * it; {@code mappedSize} is how much of it the runtime mapped after the code.
     */
    record UnwindingInfo(long offset, long timestamp, long unwindingSize, long ehFrameHdrSize, long mappedSize,
                         long dataOffset) implements JitRecord {
    }

    /** JIT_CODE_CLOSE: the runtime closed the dump. */
    record Close(long offset, long timestamp) implements JitRecord {
    }

    /** A record id the specification does not define (skipped, as perf does). */
    record Unknown(long offset, long timestamp, int id, long size) implements JitRecord {
    }
}
