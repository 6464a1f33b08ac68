package io.perfj.symbols;

/**
 * How a session names the mangled symbols of user objects (ELF symbols, their PLT entries,
 * inlined functions), chosen once when the session is opened: the symbol tables it loads are
 * named this way, and tables kept between sessions ({@link SharedSymbolTables},
 * {@link ElfSymbolCache}) are kept apart by {@link #key()}.
 *
 * <p>C++ names are where the two differ. Rust (legacy and v0) and OCaml names are the same in
 * both; kernel symbols are never demangled.
 */
public enum Demangling {
    /**
     * perf 7.2's (built without libbfd, it demangles C++ with libstdc++'s {@code __cxa_demangle},
     * whatever {@code -v} says): C++ names with their parameter lists and qualifiers,
     * {@code SharedDataRelocationTask::work(int, int)}, {@code A::f() const}, {@code f(int)
     * [clone .cold]}.
     */
    CURRENT("params", true, true),
    /**
     * perf 6.1's without {@code -v} (libiberty's {@code cplus_demangle} without
     * {@code DMGL_PARAMS}): C++ names without parameter lists, return types or clone suffixes,
     * {@code SharedDataRelocationTask::work}.
     */
    PERF_6_1("no-params", false, false),
    /**
     * perf 6.1's with {@code -v} ({@code cplus_demangle} with {@code DMGL_PARAMS | DMGL_ANSI}):
     * the names of {@link #CURRENT}, but a symbol asked for by name answers to its whole name
     * alone.
     */
    PERF_6_1_VERBOSE("params", true, false);

    private final String key;
    private final boolean params;
    private final boolean shortNameAsked;

    Demangling(String key, boolean params, boolean shortNameAsked) {
        this.key = key;
        this.params = params;
        this.shortNameAsked = shortNameAsked;
    }

    /** {@code raw} demangled this way, or {@code raw} itself when it is not a mangled name. */
    public String demangle(String raw) {
        String d = Demangler.demangleOrNull(raw, params, false);
        return d != null ? d : raw;
    }

    /** What names tables made this way in the keys of kept tables. */
    public String key() {
        return key;
    }

    /**
     * Whether a symbol named {@code name} (named this way) is one of the names a user asked for
     * ({@code annotate SYMBOL}, {@code --symbols}): its name, or with {@link #CURRENT} also its
     * name without the parameter list ({@link #withoutParameters}), so that both
     * {@code SharedDataRelocationTask::work(int, int)} and {@code SharedDataRelocationTask::work}
     * name it (perf 7.2 takes only the first). perf 6.1 compares whole names.
     */
    public boolean isAsked(java.util.Set<String> asked, String name) {
        if (asked.contains(name)) {
            return true;
        }
        if (!shortNameAsked) {
            return false;
        }
        String shorter = withoutParameters(name);
        return shorter != null && asked.contains(shorter);
    }

    /**
     * A demangled C++ function name without its parameter list, the qualifiers after it and its
     * clone suffixes, as perf 6.1 prints it: {@code A<int>::f(int) const [clone .cold]} is
     * {@code A<int>::f}. Null when {@code name} has no parameter list to drop, or a return type
     * or an operator name before it ({@code void f<int>(int)}, {@code operator new(unsigned long)},
     * {@code long Hot.alpha(long)}), which such a cut would not give as perf 6.1 does.
     */
    static String withoutParameters(String name) {
        int end = name.length();
        while (end > 0 && name.charAt(end - 1) == ']') {
            int clone = name.lastIndexOf(" [clone ", end - 1);
            if (clone < 0) {
                return null;
            }
            end = clone;
        }
        for (boolean more = true; more; ) {
            more = false;
            for (String q : QUALIFIERS) {
                if (name.startsWith(q, end - q.length())) {
                    end -= q.length();
                    more = true;
                }
            }
        }
        if (end == 0 || name.charAt(end - 1) != ')') {
            return null;
        }
        int depth = 0;
        int open = end - 1;
        for (; open >= 0; open--) {
            char c = name.charAt(open);
            if (c == ')') {
                depth++;
            } else if (c == '(' && --depth == 0) {
                break;
            }
        }
        if (open <= 0) {
            return null;
        }
        String prefix = name.substring(0, open);
        if (prefix.startsWith("operator") || prefix.contains("::operator")) {
            return null;
        }
        depth = 0;
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            switch (c) {
                case '<', '(', '{', '[' -> depth++;
                case '>', ')', '}', ']' -> depth--;
                case ' ' -> {
                    if (depth == 0) {
                        return null;
                    }
                }
                default -> {
                }
            }
            if (depth < 0) {
                return null;
            }
        }
        return depth == 0 ? prefix : null;
    }

    private static final String[] QUALIFIERS = {" const", " volatile", " restrict", " &&", " &"};
}
