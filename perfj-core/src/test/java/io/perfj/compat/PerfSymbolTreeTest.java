package io.perfj.compat;

import io.perfj.symbols.Symbol;
import io.perfj.symbols.SymbolFixups;
import io.perfj.symbols.SymbolTable;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Lookups among overlapping symbols follow perf 6.1's rb-tree walk ({@code symbols__find}).
 *
 * <p>The case: a small executable whose .init holds the zero-sized {@code _init} at 0x1000, then
 * .plt at 0x1020 (header + one entry, {@code Py_BytesMain@plt} at 0x1030), .plt.got at 0x1040 and
 * .text at 0x1050 (pyenv's python3.11 launcher). {@code symbols__fixup_end} stretches {@code _init}
 * to 0x1050 before the PLT symbol is inserted; in the tree perf builds, {@code _init} is the
 * ancestor of the PLT node, so perf 6.1 reports samples at 0x1036 as {@code _init}
 * ({@code perf report --stdio --no-children -g none} on such a recording prints {@code [.] _init}).
 */
class PerfSymbolTreeTest {
    private static Symbol sym(long start, long size, String name, char bind) {
        return new Symbol(start, start + size, name, bind);
    }

    /** The launcher's .symtab entries that perf keeps, in table order. */
    static List<Symbol> launcherSymtab() {
        return List.of(
                sym(0x37c, 32, "__abi_tag", 'L'),
                sym(0x1090, 0, "deregister_tm_clones", 'L'),
                sym(0x10c0, 0, "register_tm_clones", 'L'),
                sym(0x1100, 0, "__do_global_dtors_aux", 'L'),
                sym(0x3018, 1, "completed.0", 'L'),
                sym(0x2db8, 0, "__do_global_dtors_aux_fini_array_entry", 'L'),
                sym(0x1140, 0, "frame_dummy", 'L'),
                sym(0x2db0, 0, "__frame_dummy_init_array_entry", 'L'),
                sym(0x20cc, 0, "__FRAME_END__", 'L'),
                sym(0x114c, 0, "_fini", 'L'),
                sym(0x2fe8, 0, "_GLOBAL_OFFSET_TABLE_", 'L'),
                sym(0x3018, 0, "__TMC_END__", 'L'),
                sym(0x3010, 0, "__dso_handle", 'L'),
                sym(0x1050, 5, "main", 'L'),
                sym(0x2dc0, 0, "_DYNAMIC", 'L'),
                sym(0x1000, 0, "_init", 'L'),
                sym(0x3008, 0, "data_start", 'W'),
                sym(0x1060, 34, "_start", 'G'),
                sym(0x2000, 4, "_IO_stdin_used", 'G'),
                sym(0x3008, 0, "__data_start", 'G'),
                sym(0x3018, 0, "_edata", 'G'));
    }

    private static SymbolTable load(List<Symbol> elf, List<Symbol> plt) {
        return PerfSymbolTree.of(elf, plt);
    }

    @Test
    void stretchedInitIsFoundBeforeThePltEntryItCovers() {
        SymbolTable t = load(launcherSymtab(), List.of(sym(0x1030, 16, "Py_BytesMain@plt", 'G')));
        assertEquals("_init", t.find(0x1036).name());
        assertEquals(0x1050, t.find(0x1036).end());
        assertEquals("_init", t.find(0x1044).name());
        assertEquals("main", t.find(0x1050).name());
        assertEquals("_start", t.find(0x1070).name());
        // the PLT symbol is still listed (perf script/annotate see it), it is just never reached
        assertEquals(0x1030, t.byName("Py_BytesMain@plt").start());
    }

    @Test
    void pltEntryWinsWhenItIsTheAncestor() {
        // _init inserted first, then a later symbol: the PLT node ends up above _init.
        List<Symbol> elf = List.of(sym(0x1000, 0, "_init", 'L'), sym(0x1050, 5, "main", 'G'),
                sym(0x1060, 5, "other", 'G'));
        SymbolTable t = load(elf, List.of(sym(0x1030, 16, "f@plt", 'G')));
        // tree after the ELF symbols: main(root) with _init left, other right; the PLT node goes
        // under _init's right, so _init is its ancestor and wins.
        assertEquals("_init", t.find(0x1036).name());
        List<Symbol> plts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            plts.add(sym(0x1030 + 16L * i, 16, "f" + i + "@plt", 'G'));
        }
        SymbolTable many = load(List.of(sym(0x1000, 0, "_init", 'L'), sym(0x1200, 5, "main", 'G')), plts);
        // _init (root) and main, then the PLT nodes: the first one rotates to the root with _init
        // as its left leaf, and every later one lands in its right subtree, away from _init.
        for (int i = 0; i < 8; i++) {
            assertEquals("f" + i + "@plt", many.find(0x1030 + 16L * i + 4).name());
        }
        assertEquals("_init", many.find(0x1004).name());
        assertEquals(0x1200, many.find(0x1004).end());
        assertNull(many.find(0x1000 + 0x130));
    }

    /** Without overlaps the walk and the binary search must agree on every address. */
    @Property(tries = 200)
    void walkEqualsSearchWithoutOverlap(@ForAll @Size(max = 40) List<@IntRange(min = 0, max = 64) Integer> gaps,
                                        @ForAll @IntRange(min = 0, max = 40) int eraseSeed) {
        List<Symbol> elf = new ArrayList<>();
        long at = 0x1000;
        int i = 0;
        for (int g : gaps) {
            elf.add(sym(at, g % 3 == 0 ? 0 : g, "s" + i++, g % 2 == 0 ? 'G' : 'L'));
            if (g % 5 == eraseSeed % 5) {
                elf.add(sym(at, g, "dup" + i, 'W'));
            }
            at += g;
        }
        java.util.Collections.shuffle(elf, new java.util.Random(eraseSeed));
        PerfSymbolTree tree = new PerfSymbolTree();
        elf.forEach(tree::insert);
        tree.fixup();
        List<Symbol> sorted = tree.symbols();
        assertEquals(SymbolFixups.apply(elf).stream().map(Symbol::start).toList(),
                sorted.stream().map(Symbol::start).toList());
        SymbolTable walked = SymbolTable.ofTreeShape(sorted, tree.shape());
        SymbolTable searched = SymbolTable.ofSorted(sorted);
        for (long a = 0xff0; a < at + 0x20; a++) {
            assertEquals(searched.find(a), walked.find(a), "addr " + Long.toHexString(a));
        }
    }
}
