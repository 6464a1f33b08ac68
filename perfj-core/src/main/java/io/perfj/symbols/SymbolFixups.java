package io.perfj.symbols;

import java.util.ArrayList;
import java.util.List;

/**
 * perf's symbol table clean-ups (tools/perf/util/symbol.c): sort by address; where several
 * symbols start at the same address keep the one perf prefers ({@code choose_best_symbol}:
 * sized over zero-sized, global over weak over local, no leading underscore, longer name);
 * give zero-sized symbols the room up to the next one ({@code symbols__fixup_end}); clip
 * overlaps ({@code symbols__fixup_duplicate}).
 */
public final class SymbolFixups {
    private SymbolFixups() {
    }

    public static List<Symbol> apply(List<Symbol> in) {
        List<Symbol> sorted = SymbolTable.sortedCopy(in);
        List<Symbol> out = new ArrayList<>(sorted.size());
        for (Symbol s : sorted) {
            if (!out.isEmpty() && out.getLast().start() == s.start()) {
                Symbol prev = out.getLast();
                if (better(s, prev)) {
                    out.set(out.size() - 1, s);
                }
                continue;
            }
            out.add(s);
        }
        for (int i = 0; i + 1 < out.size(); i++) {
            Symbol s = out.get(i);
            if (s.end() == s.start()) {
                out.set(i, new Symbol(s.start(), out.get(i + 1).start(), s.name(), s.binding()));
            }
        }
        return out;
    }

    /** Whether {@code a} should replace {@code b} when both start at the same address. */
    static boolean better(Symbol a, Symbol b) {
        boolean aSized = a.size() != 0;
        boolean bSized = b.size() != 0;
        if (aSized != bSized) {
            return aSized;
        }
        int ra = rank(a.binding());
        int rb = rank(b.binding());
        if (ra != rb) {
            return ra > rb;
        }
        boolean aUnder = a.name().startsWith("_");
        boolean bUnder = b.name().startsWith("_");
        if (aUnder != bUnder) {
            return !aUnder;
        }
        int au = leadingUnderscores(a.name());
        int bu = leadingUnderscores(b.name());
        if (au != bu) {
            return au < bu;
        }
        return a.name().length() > b.name().length();
    }

    private static int rank(char binding) {
        return switch (binding) {
            case 'G' -> 3;
            case 'W' -> 2;
            case 'L' -> 1;
            default -> 0;
        };
    }

    private static int leadingUnderscores(String s) {
        int n = 0;
        while (n < s.length() && s.charAt(n) == '_') {
            n++;
        }
        return n;
    }
}
