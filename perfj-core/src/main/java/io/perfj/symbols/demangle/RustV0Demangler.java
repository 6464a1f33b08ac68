package io.perfj.symbols.demangle;

/**
 * Rust v0 symbol names ({@code _R...}, RFC 2603) rendered the way perf does since it carries
 * rustc-demangle's C port ({@code tools/perf/util/demangle-rust-v0.c}, called from
 * {@code dso__demangle_sym} with {@code alternate=true} whatever {@code -v} says):
 * <ul>
 * <li>the prefix may be {@code _R}, {@code R} or {@code __R}; a trailing {@code .llvm.<HEX or @>}
 *     is dropped first, any other "." suffix of printable ASCII is kept and printed after the
 *     name (so {@code .0}, {@code .cold} stay);</li>
 * <li>only the path is printed, not the instantiating crate;</li>
 * <li>the alternate form drops crate hashes ({@code std[1a2b]}) and integer constant types
 *     ({@code 5usize}); with {@code verbose} both are printed, as rustc-demangle's plain form and,
 *     close to it, {@code c++filt} show them.</li>
 * </ul>
 * A name that fails the grammar check is not Rust (null). A name that passes but whose
 * backreferences or lifetimes turn out bad while printing gets perf's inline markers
 * ({@code {invalid syntax}}, {@code ?}), since that is what perf shows. Names past
 * {@link V0Printer#MAX_OUTPUT} characters, which perf cannot print either, are null.
 */
public final class RustV0Demangler {
    private RustV0Demangler() {
    }

    /** The demangled v0 name, or null when {@code s} is not one. Never throws. */
    public static String demangle(String s, boolean verbose) {
        int end = s.length();
        int llvm = s.indexOf(".llvm.");
        if (llvm >= 0 && allHexOrAt(s, llvm + 6)) {
            end = llvm;
        }
        int start;
        if (end >= 2 && s.startsWith("_R")) {
            start = 2;
        } else if (end >= 1 && s.startsWith("R")) {
            start = 1;
        } else if (end >= 3 && s.startsWith("__R")) {
            start = 3;
        } else {
            return null;
        }
        if (start >= end || s.charAt(start) < 'A' || s.charAt(start) > 'Z') {
            return null;
        }
        for (int i = start; i < end; i++) {
            if (s.charAt(i) >= 0x80) {
                return null;
            }
        }
        String inner = s.substring(start, end);
        try {
            // Print first: a name that prints without error passes perf's check too (both passes
            // consume the same characters outside backreferences), so the check only runs when
            // printing met an error, to tell a non-Rust name from one perf shows with markers.
            StringBuilder out = new StringBuilder(inner.length() * 2);
            V0Printer printer = new V0Printer(inner, 0, out, !verbose);
            printer.printPath(true);
            int next = printer.next();
            if (printer.status() != V0Printer.OK) {
                V0Printer check = new V0Printer(inner, 0, null, true);
                check.printPath(false);
                if (check.status() != V0Printer.OK) {
                    return null;
                }
                next = check.next();
            }
            V0Printer crate = new V0Printer(inner, next, null, true);
            if (crate.atUpper()) {
                // the instantiating crate: checked, never printed
                crate.printPath(false);
                if (crate.status() != V0Printer.OK) {
                    return null;
                }
            }
            String suffix = inner.substring(crate.next());
            if (!suffix.isEmpty() && (suffix.charAt(0) != '.' || !symbolLike(suffix))) {
                return null;
            }
            return out.append(suffix).toString();
        } catch (V0Printer.TooBig e) {
            return null;
        }
    }

    private static boolean allHexOrAt(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || c == '@')) {
                return false;
            }
        }
        return true;
    }

    private static boolean symbolLike(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }
}
