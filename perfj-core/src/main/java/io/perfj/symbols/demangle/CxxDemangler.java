package io.perfj.symbols.demangle;

/**
 * Itanium C++ ABI demangling with libiberty's output conventions ({@code cplus_demangle_v3}).
 */
public final class CxxDemangler {
    private CxxDemangler() {
    }

    /**
     * Demangles {@code mangled}, or returns null when it is not a mangled C++ name this
     * demangler understands.
     *
     * @param params  print parameter lists and clone suffixes of the top-level function
     *                (libiberty's DMGL_PARAMS; perf's default is without)
     * @param verbose print std::string etc. in full (DMGL_VERBOSE, which c++filt sets)
     */
    public static String demangle(String mangled, boolean params, boolean verbose) {
        if (mangled == null || mangled.length() < 3) {
            return null;
        }
        try {
            if (mangled.startsWith("_Z")) {
                Parser parser = new Parser(mangled, params, verbose);
                Node n = parser.mangledName(true);
                if (params && !parser.atEnd()) {
                    return null;
                }
                Printer pr = new Printer();
                pr.print(n);
                return pr.sb.toString();
            }
            if (mangled.startsWith("_GLOBAL_") && mangled.length() > 11) {
                char sep = mangled.charAt(8);
                char kind = mangled.charAt(9);
                if ((sep == '.' || sep == '_' || sep == '$') && (kind == 'I' || kind == 'D') && mangled.charAt(10) == '_') {
                    String rest = mangled.substring(11);
                    String inner = demangle(rest, params, verbose);
                    return (kind == 'I' ? "global constructors keyed to " : "global destructors keyed to ")
                            + (inner != null ? inner : rest);
                }
            }
            return null;
        } catch (Parser.Fail | Printer.PrintException | StackOverflowError e) {
            return null;
        }
    }
}
