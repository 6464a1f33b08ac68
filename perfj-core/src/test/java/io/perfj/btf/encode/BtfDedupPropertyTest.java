package io.perfj.btf.encode;

import io.perfj.btf.wire.TypeSection;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.util.Arrays;
import java.util.Random;

import static io.perfj.btf.wire.Kinds.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deduplication on random type graphs: a unit repeated several times (later copies with some
 * structs only forward-declared, with cycles through pointers) deduplicates to exactly what the
 * unit alone deduplicates to, and the unit alone loses nothing.
 */
class BtfDedupPropertyTest {

    /** One unit's layout: 1 int, 2 long, then per struct j: 3+3j STRUCT, 4+3j PTR to it, 5+3j ARRAY of it. */
    private static void addUnit(TypeSection t, StringPool pool, int structs, long seed, boolean fwds, Random fwdRnd) {
        int base = t.end() - 1;
        Random r = new Random(seed);
        put(t, pool.intern("int"), info(INT, 0, false), 4, 1 << 24 | 32);
        put(t, pool.intern("long"), info(INT, 0, false), 8, 1 << 24 | 64);
        for (int j = 0; j < structs; j++) {
            int name = pool.intern("s" + j);
            int members = 1 + r.nextInt(4);
            int[] mt = new int[members];
            for (int m = 0; m < members; m++) {
                int pick = r.nextInt(4);
                mt[m] = switch (pick) {
                    case 0 -> base + 1;
                    case 1 -> base + 2;
                    case 2 -> base + 4 + 3 * r.nextInt(structs);
                    default -> base + 5 + 3 * r.nextInt(structs);
                };
            }
            if (fwds && fwdRnd.nextInt(3) == 0) {
                put(t, name, info(FWD, 0, false), 0);
            } else {
                int id = t.add(3 + 3 * members);
                int p = t.pos(id);
                int[] w = t.words(id);
                w[p] = name;
                w[p + 1] = info(STRUCT, members, false);
                w[p + 2] = 8 * members;
                for (int m = 0; m < members; m++) {
                    w[p + 3 + 3 * m] = pool.intern("m" + m);
                    w[p + 4 + 3 * m] = mt[m];
                    w[p + 5 + 3 * m] = 64 * m;
                }
            }
            put(t, 0, info(PTR, 0, false), base + 3 + 3 * j);
            put(t, 0, info(ARRAY, 0, false), 0, base + 3 + 3 * j, base + 1, 2);
        }
    }

    private static void put(TypeSection t, int... words) {
        int id = t.add(words.length);
        System.arraycopy(words, 0, t.words(id), t.pos(id), words.length);
    }

    /** The words of a deduplicated (flat) section. */
    private static int[] words(TypeSection t) {
        return Arrays.copyOf(t.words(), (int) t.wordCount());
    }

    @Property(tries = 60)
    void repeatedUnitsDeduplicateToOne(@ForAll @IntRange(min = 1, max = 12) int structs,
                                       @ForAll @IntRange(min = 2, max = 5) int copies, @ForAll long seed) {
        StringPool pool = new StringPool();
        TypeSection one = TypeSection.chunked(1, 64, 16);
        addUnit(one, pool, structs, seed, false, null);
        TypeSection once = new BtfDedup(one).run();

        TypeSection many = TypeSection.chunked(1, 64, 16);
        Random fwdRnd = new Random(seed ^ 0x5eed);
        for (int c = 0; c < copies; c++) {
            addUnit(many, pool, structs, seed, c > 0, fwdRnd);
        }
        TypeSection deduped = new BtfDedup(many).run();
        assertEquals(once.size(), deduped.size());
        assertArrayEquals(words(once), words(deduped));
    }

    @Property(tries = 30)
    void smallChunksDeduplicateLikeOneChunk(@ForAll @IntRange(min = 1, max = 12) int structs,
                                            @ForAll @IntRange(min = 2, max = 5) int copies, @ForAll long seed) {
        StringPool pool = new StringPool();
        TypeSection big = TypeSection.chunked(1, 1 << 16, 16);
        TypeSection small = TypeSection.chunked(1, 64, 16, 4); // 16-word chunks: types spread over many
        for (TypeSection t : new TypeSection[] {big, small}) {
            Random fwdRnd = new Random(seed ^ 0x5eed);
            for (int c = 0; c < copies; c++) {
                addUnit(t, pool, structs, seed, c > 0, fwdRnd);
            }
        }
        assertTrue(small.chunks().length > 1 && small.chunks()[1] != null, "the small table has several chunks");
        TypeSection a = new BtfDedup(big).run();
        TypeSection b = new BtfDedup(small).run();
        assertEquals(a.size(), b.size());
        assertArrayEquals(words(a), words(b));
    }

    @Property(tries = 40)
    void distinctStructsStay(@ForAll @IntRange(min = 1, max = 12) int structs, @ForAll long seed) {
        StringPool pool = new StringPool();
        TypeSection one = TypeSection.chunked(1, 64, 16);
        addUnit(one, pool, structs, seed, false, null);
        int before = one.size();
        TypeSection once = new BtfDedup(one).run();
        // nothing in one unit is a duplicate of anything else
        assertEquals(before, once.size());
    }

    /**
     * Units of structs and unions that look alike from outside: few names (0, anonymous, among
     * them), the same member names and offsets, members of many types (inner anonymous structs,
     * pointers, arrays, forward declarations, enums and enum forward declarations), drawn from a
     * few seeds so that some units repeat and others differ only inside.
     */
    private static void addLookalikeUnit(TypeSection t, StringPool pool, int structs, long seed) {
        int base = t.end() - 1;
        Random r = new Random(seed);
        put(t, pool.intern("int"), info(INT, 0, false), 4, 1 << 24 | 32);
        put(t, pool.intern("long"), info(INT, 0, false), 8, 1 << 24 | 64);
        // 3: an enum, full or forward-declared; 4: a FWD of struct s0
        int enumName = r.nextBoolean() ? 0 : pool.intern("e");
        if (r.nextInt(3) == 0) {
            put(t, enumName, info(ENUM, 0, false), 4);
        } else {
            put(t, enumName, info(ENUM, 1, false), 4, pool.intern("E" + r.nextInt(2)), r.nextInt(2));
        }
        put(t, pool.intern("s0"), info(FWD, 0, false), 0);
        // then per struct j: 5+3j STRUCT or UNION, 6+3j PTR to it, 7+3j ARRAY of it
        for (int j = 0; j < structs; j++) {
            int name = r.nextInt(3) == 0 ? 0 : pool.intern("s" + r.nextInt(2));
            int members = 1 + r.nextInt(3);
            int id = t.add(3 + 3 * members);
            int p = t.pos(id);
            int[] w = t.words(id);
            w[p] = name;
            w[p + 1] = info(r.nextInt(4) == 0 ? UNION : STRUCT, members, false);
            w[p + 2] = 8 * members;
            for (int m = 0; m < members; m++) {
                w[p + 3 + 3 * m] = r.nextBoolean() ? 0 : pool.intern("m" + m);
                w[p + 4 + 3 * m] = switch (r.nextInt(7)) {
                    case 0 -> base + 1;
                    case 1 -> base + 2;
                    case 2 -> base + 3;
                    case 3 -> base + 4;
                    case 4 -> base + 5 + 3 * r.nextInt(structs); // a struct, maybe itself or a later one
                    case 5 -> base + 6 + 3 * r.nextInt(structs);
                    default -> base + 7 + 3 * r.nextInt(structs);
                };
                w[p + 5 + 3 * m] = 64 * m;
            }
            put(t, 0, info(PTR, 0, false), base + 5 + 3 * j);
            put(t, 0, info(ARRAY, 0, false), 0, base + 5 + 3 * j, base + 1, 1 + r.nextInt(2));
        }
    }

    @Property(tries = 200)
    void candidatesSkippedByMemberPrintsChangeNothing(@ForAll @IntRange(min = 1, max = 8) int structs,
                                                       @ForAll @IntRange(min = 2, max = 12) int units,
                                                       @ForAll @IntRange(min = 0, max = 3) int baseUnits,
                                                       @ForAll long seed) {
        StringPool pool = new StringPool();
        TypeSection[] tables = {TypeSection.chunked(1, 64, 16), TypeSection.chunked(1, 64, 16)};
        int splitStart = 1;
        for (TypeSection t : tables) {
            Random seeds = new Random(seed);
            for (int u = 0; u < units; u++) {
                if (u == Math.min(baseUnits, units - 1)) {
                    splitStart = t.end(); // the units before are a split's base
                }
                // three seeds: units repeat, and differ from each other only in their members' types
                addLookalikeUnit(t, pool, structs, seed + seeds.nextInt(3));
            }
        }
        TypeSection fast = new BtfDedup(tables[0], splitStart).run();
        TypeSection slow = new BtfDedup(tables[1], splitStart).walkingEveryCandidate().run();
        assertEquals(slow.size(), fast.size());
        assertArrayEquals(words(slow), words(fast));
    }
}
