package io.perfj.trace;

import java.util.List;

/**
 * A parsed {@code print fmt:} line: the format string cut into literal text and conversions, each
 * conversion with the argument it prints (and the argument a {@code *} takes for its width).
 */
public record PrintFormat(List<Part> parts) {
    /** A piece of the format string. */
    public sealed interface Part {
    }

    /** Text printed as it is (escapes already applied). */
    public record Literal(byte[] text) implements Part {
    }

    /** How a conversion prints its argument. */
    public enum Kind {
        /** {@code %d %u %x %c ...}: a number. */
        NUMBER,
        /** {@code %p}, {@code %ps}, {@code %pS}, ...: a pointer or a kernel function. */
        POINTER,
        /** {@code %s}: a string, or what a helper function prints. */
        STRING
    }

    /** One conversion: the C spec as written ({@code %08lx}), its kind, its argument and {@code *} argument (or null). */
    public record Conversion(String spec, Kind kind, PrintArg arg, PrintArg widthArg) implements Part {
    }
}
