package io.perfj.annotate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A disassembler backend. It returns a listing in objdump's text format (address lines
 * {@code "  1187:\tmov    %rdi,%rax"}, labels, and with {@code lineNumbers}/{@code source} the
 * {@code file:line} markers and source text) that {@link Annotation#fromListing} reads.
 */
public interface Disassembler {
    /** What to put in the listing. */
    record Request(boolean lineNumbers, boolean source, boolean rawInsn, String style, String prefix,
                   String prefixStrip, java.nio.file.Path debugFile) {
        public static Request plain() {
            return new Request(false, false, false, null, null, null, null);
        }
    }

    /** The backend's name: objdump, llvm-objdump or capstone. */
    String name();

    /** The listing of [start, end) of an ELF file (addresses as in the file). */
    List<String> listing(Path elf, long start, long end, Request r) throws IOException;

    /** The listing of machine code loaded at {@code base} (a JIT image); no source markers. */
    List<String> listing(byte[] code, long base, String symbol, Request r) throws IOException;

    /** Thrown when the backend's program or library is not installed. */
    final class MissingException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public MissingException(String message) {
            super(message);
        }
    }

    /** A backend by name; {@code null} or "objdump" is the default, as in perf. */
    static Disassembler named(String name, String objdumpPath) {
        if (name == null || name.equals("objdump")) {
            return new ObjdumpDisassembler(objdumpPath == null ? "objdump" : objdumpPath, false);
        }
        return switch (name) {
            case "llvm-objdump" -> new ObjdumpDisassembler(objdumpPath == null ? "llvm-objdump" : objdumpPath, true);
            case "capstone" -> new CapstoneDisassembler();
            default -> throw new IllegalArgumentException(
                    "unknown disassembler '" + name + "' (objdump, llvm-objdump or capstone)");
        };
    }
}
