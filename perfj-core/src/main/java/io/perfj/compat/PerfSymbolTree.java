package io.perfj.compat;

import io.perfj.elf.ElfFile;
import io.perfj.symbols.Demangling;
import io.perfj.symbols.ElfSymbols;
import io.perfj.symbols.UserSymbolRules;
import io.perfj.symbols.Symbol;
import io.perfj.symbols.SymbolFixups;
import io.perfj.symbols.SymbolTable;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape of perf's per-DSO symbol rb-tree, replayed so that lookups among overlapping symbols
 * give perf's answer.
 *
 * <p>perf 6.1 keeps a DSO's symbols in a Linux red-black tree keyed by start address (an equal
 * start goes right, {@code __symbols__insert}). {@code dso__load} first inserts the ELF symbols in
 * symbol-table order ({@code dso__load_sym}), runs {@code symbols__fixup_end} and
 * {@code symbols__fixup_duplicate} (which erases nodes), and only then inserts the synthesized
 * {@code name@plt} symbols ({@code dso__synthesize_plt_symbols}). A zero-sized symbol in front of
 * .plt, typically {@code _init} in .init, has by then been stretched up to the next ELF symbol, so
 * it overlaps the PLT entries. {@code symbols__find} walks down from the root and returns the
 * first node whose range holds the address, so which of two overlapping symbols wins depends on
 * which is the ancestor of the other. This class rebuilds the tree ({@link KernelRbTree}) and
 * gives its shape for lookups by the same walk.
 *
 * <p>Mirrors: perf 6.1's {@code __symbols__insert}, {@code symbols__fixup_end},
 * {@code symbols__fixup_duplicate} and {@code symbols__find} (tools/perf/util/symbol.c).
 */
public final class PerfSymbolTree {
    /**
     * perf 6.1's user symbols: no MiniDebugInfo, its PLT entries ({@link ElfSymbols#pltSymbols}),
     * lookups as its tree answers them.
     */
    public static final UserSymbolRules RULES = new UserSymbolRules() {
        @Override
        public boolean readsMiniDebugInfo() {
            return false;
        }

        @Override
        public List<Symbol> pltEntries(ElfFile runtime, Demangling names) {
            return ElfSymbols.pltSymbols(runtime, names);
        }

        @Override
        public SymbolTable table(List<Symbol> elf, List<Symbol> plt) {
            return of(elf, plt);
        }

        @Override
        public String cacheKey() {
            return "perf-trees ";
        }
    };

    private final KernelRbTree<Symbol> tree = new KernelRbTree<>();

    /**
     * dso__load's tree: the ELF symbols inserted and fixed up, then the PLT ones inserted, whose
     * shape decides lookups among overlapping symbols.
     */
    public static SymbolTable of(List<Symbol> syms, List<Symbol> plt) {
        PerfSymbolTree tree = new PerfSymbolTree();
        syms.forEach(tree::insert);
        tree.fixup();
        plt.forEach(tree::insert);
        return tree.table();
    }

    /** {@code __symbols__insert}: descend by start (unsigned), equal starts to the right. */
    public void insert(Symbol sym) {
        tree.insert(sym, (node, s) -> Long.compareUnsigned(s.start(), node.start()) < 0);
    }

    /** The symbols in address order. */
    public List<Symbol> symbols() {
        return tree.values();
    }

    /** {@code symbols__fixup_end} then {@code symbols__fixup_duplicate} on the tree's nodes. */
    public void fixup() {
        List<KernelRbTree.Node<Symbol>> ns = tree.nodes();
        List<Symbol> syms = new ArrayList<>(ns.size());
        for (KernelRbTree.Node<Symbol> n : ns) {
            syms.add(n.value());
        }
        SymbolFixups.fixupEnd(syms, false);
        for (int i = 0; i < ns.size(); i++) {
            ns.get(i).value(syms.get(i));
        }
        KernelRbTree.Node<Symbol> curr = tree.first();
        while (curr != null) {
            KernelRbTree.Node<Symbol> nx = tree.next(curr);
            if (nx == null) {
                break;
            }
            if (nx.value().start() != curr.value().start()) {
                curr = nx;
                continue;
            }
            if (SymbolFixups.better(nx.value(), curr.value())) {
                tree.erase(curr);
                curr = nx;
            } else {
                tree.erase(nx);
            }
        }
    }

    /**
     * The tree's shape, as arrays indexed by position in {@link #symbols()}: the root's position
     * and each position's left and right child (-1 for none).
     */
    int[][] shape() {
        return tree.shape();
    }

    /**
     * The table of the tree's symbols. When no two symbols overlap every walk finds the one
     * symbol holding an address, so the table keeps its binary search; otherwise its lookups walk
     * perf's tree shape ({@code symbols__find}).
     */
    public SymbolTable table() {
        List<Symbol> sorted = symbols();
        boolean overlap = false;
        for (int i = 1; i < sorted.size() && !overlap; i++) {
            overlap = Long.compareUnsigned(sorted.get(i - 1).end(), sorted.get(i).start()) > 0;
        }
        return overlap ? SymbolTable.ofTreeShape(sorted, tree.shape()) : SymbolTable.ofSorted(sorted);
    }
}
