package io.perfj.btf.encode;

import io.perfj.btf.wire.TypeSection;

import java.util.Arrays;

import static io.perfj.btf.wire.Kinds.*;

/**
 * Type deduplication as libbpf's {@code btf__dedup} (libbpf 1.1, {@code src/btf.c}) does it, in
 * its passes: primitive types by signature (with enum forward declarations resolved to full
 * enums), structs and unions by a side-by-side walk of both type graphs with a hypothetical
 * canonical-to-candidate map (resolving FWDs to full definitions on the way), remaining FWDs by
 * unique name, reference types bottom-up once what they point to is canonical, then compaction
 * into a new table and remapping of every type id. Strings are already unique (names are
 * {@link StringPool} ids), which is what libbpf's string pass establishes. For split BTF the
 * base's types come first in the table: they are canonical from the start (candidates before any
 * of the split's), are never rewritten nor renumbered, and only the split's types are
 * deduplicated (a base FWD may still resolve to a split struct, as in libbpf).
 */
final class BtfDedup {
    private static final int UNPROCESSED = -1;
    private static final int IN_PROGRESS = -2;

    /** The table's arrays and how type ids find their words in them ({@link TypeSection#starts}). */
    private final int[][] chunks;
    private final int[] start;
    private final int shift;
    private final int mask;
    private final int n;
    private final int[] map;
    private final int[] hypot;
    private final IntBuf hypotList = new IntBuf(64);
    private final DedupTable table;
    /** The first id to deduplicate: 1, or for split BTF one past the base's last. */
    private final int splitStart;
    /** libbpf's hypot_adjust_canon: the graphs match only by resolving a base FWD to a split struct. */
    private boolean adjustCanon;

    /** Deduplicates {@code t} (ids from 1), whose type ids it rewrites on the way. */
    BtfDedup(TypeSection t) {
        this(t, 1);
    }

    /**
     * Deduplicates the types of {@code t} from {@code splitStart} on; those before it are the base
     * of split BTF (ids from 1), canonical as they are.
     */
    BtfDedup(TypeSection t, int splitStart) {
        this(t, splitStart, null);
    }

    /**
     * As {@link #BtfDedup(TypeSection, int)}, the base's candidates already filed in
     * {@code baseCandidates} (from {@link #baseCandidates} on the same base records; this dedup
     * adds to it).
     */
    BtfDedup(TypeSection t, int splitStart, DedupTable baseCandidates) {
        if (t.first() != 1 || splitStart < 1 || splitStart > t.end()) {
            throw new IllegalArgumentException("types must start at id 1 and the split within them");
        }
        this.splitStart = splitStart;
        this.chunks = t.chunks();
        this.start = t.starts();
        this.shift = t.shift();
        this.mask = t.mask();
        this.n = t.end() - 1;
        this.map = new int[n + 1];
        this.hypot = new int[n + 1];
        this.prints = new long[n + 1];
        Arrays.fill(hypot, UNPROCESSED);
        // the base's types are their own canonical types; of the split's, variables and sections
        for (int i = 1; i < splitStart; i++) {
            map[i] = i;
        }
        for (int i = splitStart; i <= n; i++) {
            int k = t.kind(i);
            map[i] = k == VAR || k == DATASEC ? i : UNPROCESSED;
        }
        this.table = baseCandidates != null ? baseCandidates : new DedupTable(Math.max(1024, n / 8));
        if (baseCandidates == null) {
            for (int i = 1; i < splitStart; i++) {
                addBase(i);
            }
        }
    }

    /** The candidates a split on {@code base} (ids from 1, all of it the base) starts from. */
    static DedupTable baseCandidates(TypeSection base) {
        return new BtfDedup(base, base.end()).table;
    }

    /** libbpf's btf_dedup_prep: a base type filed as a candidate under its kind's signature. */
    private void addBase(int id) {
        long h = switch (kindOf(id)) {
            case VAR, DATASEC -> 0;
            case INT, DECL_TAG -> hashIntTag(id);
            case ENUM, ENUM64 -> hashEnum(id);
            case STRUCT, UNION -> hashStruct(id);
            case ARRAY -> hashArray(id);
            case FUNC_PROTO -> hashFnProto(id);
            default -> hashCommon(id);
        };
        int k = kindOf(id);
        if (k != VAR && k != DATASEC) {
            table.add(h, id);
        }
    }

    /** Runs all passes and returns the compacted types, one flat section. */
    TypeSection run() {
        TypeSection[] out = new TypeSection[1];
        RuntimeException[] err = new RuntimeException[1];
        // The graph walks recurse as deep as type chains go; give them a large stack.
        Thread th = new Thread(null, () -> {
            try {
                out[0] = passes();
            } catch (RuntimeException e) {
                err[0] = e;
            } catch (StackOverflowError e) {
                err[0] = new EncodeException("type graph too deep to deduplicate");
            }
        }, "btf-dedup", 1L << 30);
        th.start();
        try {
            th.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (err[0] != null) {
            throw err[0];
        }
        return out[0];
    }

    private TypeSection passes() {
        long t0 = System.nanoTime();
        for (int i = splitStart; i <= n; i++) {
            dedupPrim(i);
        }
        long t1 = System.nanoTime();
        for (int i = splitStart; i <= n; i++) {
            dedupStruct(i);
        }
        long t2 = System.nanoTime();
        resolveFwds();
        for (int i = splitStart; i <= n; i++) {
            dedupRef(i);
        }
        long t3 = System.nanoTime();
        TypeSection out = compactAndRemap();
        if (Boolean.getBoolean("perfj.btf.timing")) {
            System.err.printf("btf dedup: primitives %d ms, structs %d ms, references %d ms, compaction %d ms%n",
                    (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000,
                    (System.nanoTime() - t3) / 1_000_000);
        }
        return out;
    }

    // ---- accessors ----

    /** The array holding type {@code id}'s words. */
    private int[] a(int id) {
        return chunks[start[id] >>> shift];
    }

    /** Where type {@code id}'s words begin in {@link #a}. */
    private int p(int id) {
        return start[id] & mask;
    }

    /** Void (id 0) has no record: libbpf's btf_type_by_id gives it a zeroed one, so no name and kind 0. */
    private int name(int id) {
        return id == 0 ? 0 : a(id)[p(id)];
    }

    private int info(int id) {
        return id == 0 ? 0 : a(id)[p(id) + 1];
    }

    private int word2(int id) {
        return a(id)[p(id) + 2];
    }

    /** Word {@code k} of type {@code id}. */
    private int word(int id, int k) {
        return a(id)[p(id) + k];
    }

    private int kindOf(int id) {
        return kind(info(id));
    }

    private boolean mapped(int id) {
        return map[id] >= 0;
    }

    private int resolve(int id) {
        while (mapped(id) && map[id] != id) {
            id = map[id];
        }
        return id;
    }

    private int resolveFwd(int id) {
        if (kindOf(id) != FWD) {
            return id;
        }
        int orig = id;
        while (mapped(id) && map[id] != id) {
            id = map[id];
        }
        return kindOf(id) != FWD ? id : orig;
    }

    // ---- signatures ----

    private static long combine(long h, long v) {
        return h * 31 + v;
    }

    private static long u(int v) {
        return v & 0xffff_ffffL;
    }

    private long hashCommon(int id) {
        long h = combine(0, u(name(id)));
        h = combine(h, u(info(id)));
        return combine(h, u(word2(id)));
    }

    private boolean equalCommon(int a, int b) {
        return name(a) == name(b) && info(a) == info(b) && word2(a) == word2(b);
    }

    private long hashIntTag(int id) {
        return combine(hashCommon(id), u(word(id, 3)));
    }

    private boolean equalIntTag(int a, int b) {
        return equalCommon(a, b) && word(a, 3) == word(b, 3);
    }

    private long hashEnum(int id) {
        return combine(0, u(name(id)));
    }

    private boolean equalEnum(int a, int b) {
        if (!equalCommon(a, b)) {
            return false;
        }
        int stride = kindOf(a) == ENUM ? 2 : 3;
        int len = vlen(info(a)) * stride;
        return Arrays.equals(a(a), p(a) + 3, p(a) + 3 + len, a(b), p(b) + 3, p(b) + 3 + len);
    }

    private boolean isAnyEnum(int id) {
        int k = kindOf(id);
        return k == ENUM || k == ENUM64;
    }

    private boolean isEnumFwd(int id) {
        return isAnyEnum(id) && vlen(info(id)) == 0;
    }

    private boolean compatEnum(int a, int b) {
        if (!isEnumFwd(a) && !isEnumFwd(b)) {
            return equalEnum(a, b);
        }
        return name(a) == name(b) && isAnyEnum(a) && isAnyEnum(b);
    }

    private long hashStruct(int id) {
        long h = hashCommon(id);
        int[] w = a(id);
        int q = p(id) + 3;
        for (int i = 0, v = vlen(info(id)); i < v; i++, q += 3) {
            h = combine(h, u(w[q]));
            h = combine(h, u(w[q + 2]));
        }
        return h;
    }

    private boolean shallowEqualStruct(int a, int b) {
        if (!equalCommon(a, b)) {
            return false;
        }
        int[] wa = a(a);
        int[] wb = a(b);
        int qa = p(a) + 3;
        int qb = p(b) + 3;
        for (int i = 0, v = vlen(info(a)); i < v; i++, qa += 3, qb += 3) {
            if (wa[qa] != wb[qb] || wa[qa + 2] != wb[qb + 2]) {
                return false;
            }
        }
        return true;
    }

    private long hashArray(int id) {
        int[] w = a(id);
        int q = p(id);
        long h = hashCommon(id);
        h = combine(h, u(w[q + 3]));
        h = combine(h, u(w[q + 4]));
        return combine(h, u(w[q + 5]));
    }

    private boolean equalArray(int a, int b) {
        if (!equalCommon(a, b)) {
            return false;
        }
        int[] wa = a(a);
        int[] wb = a(b);
        int qa = p(a);
        int qb = p(b);
        return wa[qa + 3] == wb[qb + 3] && wa[qa + 4] == wb[qb + 4] && wa[qa + 5] == wb[qb + 5];
    }

    private boolean compatArray(int a, int b) {
        return equalCommon(a, b) && word(a, 5) == word(b, 5);
    }

    private long hashFnProto(int id) {
        long h = hashCommon(id);
        int[] w = a(id);
        int q = p(id) + 3;
        for (int i = 0, v = vlen(info(id)); i < v; i++, q += 2) {
            h = combine(h, u(w[q]));
            h = combine(h, u(w[q + 1]));
        }
        return h;
    }

    private boolean equalFnProto(int a, int b) {
        if (!equalCommon(a, b)) {
            return false;
        }
        int len = 2 * vlen(info(a));
        return Arrays.equals(a(a), p(a) + 3, p(a) + 3 + len, a(b), p(b) + 3, p(b) + 3 + len);
    }

    private boolean compatFnProto(int a, int b) {
        if (name(a) != name(b) || info(a) != info(b)) {
            return false;
        }
        int[] wa = a(a);
        int[] wb = a(b);
        int qa = p(a) + 3;
        int qb = p(b) + 3;
        for (int i = 0, v = vlen(info(a)); i < v; i++, qa += 2, qb += 2) {
            if (wa[qa] != wb[qb]) {
                return false;
            }
        }
        return true;
    }

    // ---- primitive types ----

    /** An equality test between two type ids. */
    private interface TypeEquality {
        boolean test(int a, int b);
    }

    // made once: a method reference made per type would be an allocation per type
    private final TypeEquality equalIntTagTest = this::equalIntTag;
    private final TypeEquality equalArrayTest = this::equalArray;
    private final TypeEquality equalFnProtoTest = this::equalFnProto;

    /** The first type in {@code h}'s bucket that {@code equal} matches with {@code id}, else {@code id}. */
    private int firstEqual(long h, int id, TypeEquality equal) {
        for (int e = table.first(h); e >= 0; e = table.nextEntry(e)) {
            int cand = table.value(e);
            if (equal.test(id, cand)) {
                return cand;
            }
        }
        return id;
    }

    /** {@link #firstEqual} with {@link #equalCommon}, id's three words read once. */
    private int firstEqualCommon(long h, int id) {
        int[] w = a(id);
        int q = p(id);
        int name = w[q];
        int info = w[q + 1];
        int word2 = w[q + 2];
        for (int e = table.first(h); e >= 0; e = table.nextEntry(e)) {
            int cand = table.value(e);
            int[] wc = a(cand);
            int qc = p(cand);
            if (wc[qc] == name && wc[qc + 1] == info && wc[qc + 2] == word2) {
                return cand;
            }
        }
        return id;
    }

    private void dedupPrim(int id) {
        int k = kindOf(id);
        int newId = id;
        long h;
        switch (k) {
            case INT -> {
                h = hashIntTag(id);
                newId = firstEqual(h, id, equalIntTagTest);
            }
            case ENUM, ENUM64 -> {
                h = hashEnum(id);
                // equalEnum and compatEnum of each candidate, its words read once (anonymous
                // enums share one signature: a module's are compared with all of vmlinux's)
                int[] w = a(id);
                int q = p(id);
                int name = w[q];
                int info = w[q + 1];
                int size = w[q + 2];
                boolean fwd = vlen(info) == 0;
                int len = vlen(info) * (kind(info) == ENUM ? 2 : 3);
                for (int e = table.first(h); e >= 0; e = table.nextEntry(e)) {
                    int cand = table.value(e);
                    int[] wc = a(cand);
                    int qc = p(cand);
                    int ci = wc[qc + 1];
                    int ck = kind(ci);
                    if (wc[qc] != name || (ck != ENUM && ck != ENUM64)) {
                        continue; // neither equal nor compatible
                    }
                    if (ci == info && wc[qc + 2] == size
                            && Arrays.equals(w, q + 3, q + 3 + len, wc, qc + 3, qc + 3 + len)) {
                        newId = cand;
                        break;
                    }
                    if (fwd || vlen(ci) == 0) { // compatible: one of the two is a forward declaration
                        if (fwd) {
                            newId = cand;
                            break;
                        }
                        map[cand] = id;
                    }
                }
            }
            case FWD, FLOAT -> {
                h = hashCommon(id);
                newId = firstEqualCommon(h, id);
            }
            default -> {
                return;
            }
        }
        map[id] = newId;
        if (newId == id) {
            table.add(h, id);
        }
    }

    // ---- structs and unions ----

    private void dedupStruct(int id) {
        if (mapped(id)) {
            return;
        }
        int k = kindOf(id);
        if (k != STRUCT && k != UNION) {
            return;
        }
        long h = hashStruct(id);
        int newId = id;
        long mine = memberPrint(id);
        for (int e = table.first(h); e >= 0; e = table.nextEntry(e)) {
            int cand = table.value(e);
            if (!shallowEqualStruct(id, cand)) {
                continue;
            }
            long theirs = memberPrint(cand);
            if (usePrints && mine != theirs && mine != ANY_MEMBERS && theirs != ANY_MEMBERS) {
                continue; // the walk below could only fail
            }
            clearHypot();
            if (!isEquiv(id, cand)) {
                continue;
            }
            mergeHypot();
            if (adjustCanon) {
                continue; // not really equivalent
            }
            newId = cand;
            break;
        }
        map[id] = newId;
        if (newId == id) {
            table.add(h, id);
        }
    }

    /** {@link #memberPrint}: not computed yet. */
    private static final long NO_PRINT = 0;
    /** {@link #memberPrint}: a member's type is a FWD, which may match a struct or union of any shape. */
    private static final long ANY_MEMBERS = 1;

    /** Whether candidates are skipped by their {@link #memberPrint} (tests compare with off). */
    private boolean usePrints = true;

    /** This dedup with every candidate walked, as libbpf does (for tests: the same results, more slowly). */
    BtfDedup walkingEveryCandidate() {
        usePrints = false;
        return this;
    }

    /** Struct id's {@link #memberPrint}, by id; {@link #NO_PRINT} until asked for. */
    private final long[] prints;

    /**
     * A hash of what {@link #isEquiv} requires of a struct's member types before it would walk
     * them: for each member, its type's name and kind (FWD, STRUCT and UNION as one kind, ENUM
     * and ENUM64 as one), an array's length, and for a struct or union its
     * {@link #hashStruct shallow signature}. Two structs whose graphs are equivalent have equal
     * prints (a type is only ever mapped to one of the same name and kind whose shallow
     * signature, for structs, is the same, and every path of the walk checks those), so
     * unequal prints skip a candidate without changing what the dedup decides; a member of FWD
     * type, which may stand for a struct of any shape, makes the print {@link #ANY_MEMBERS}.
     * The words read here are not rewritten while structs are deduplicated.
     */
    private long memberPrint(int id) {
        long f = prints[id];
        if (f != NO_PRINT) {
            return f;
        }
        long h = 17;
        int[] w = a(id);
        int q = p(id) + 3;
        for (int i = 0, v = vlen(info(id)); i < v; i++, q += 3) {
            int t = w[q + 1];
            int k = kindOf(t);
            switch (k) {
                case FWD -> {
                    prints[id] = ANY_MEMBERS;
                    return ANY_MEMBERS;
                }
                case STRUCT, UNION -> h = combine(combine(h, STRUCT), hashStruct(t));
                case ENUM, ENUM64 -> h = combine(combine(h, ENUM), u(name(t)));
                case ARRAY -> h = combine(combine(h, ARRAY), u(word(t, 5)));
                default -> h = combine(combine(h, k), u(name(t)));
            }
        }
        if (h == NO_PRINT || h == ANY_MEMBERS) {
            h += 2;
        }
        prints[id] = h;
        return h;
    }

    private void clearHypot() {
        for (int i = 0; i < hypotList.size(); i++) {
            hypot[hypotList.get(i)] = UNPROCESSED;
        }
        hypotList.clear();
        adjustCanon = false;
    }

    private boolean identicalArrays(int a, int b) {
        return kindOf(a) == ARRAY && kindOf(b) == ARRAY && equalArray(a, b);
    }

    private boolean identicalStructs(int a, int b) {
        int ka = kindOf(a);
        if ((ka != STRUCT && ka != UNION) || ka != kindOf(b) || !shallowEqualStruct(a, b)) {
            return false;
        }
        int[] wa = a(a);
        int[] wb = a(b);
        int qa = p(a) + 3;
        int qb = p(b) + 3;
        for (int i = 0, v = vlen(info(a)); i < v; i++, qa += 3, qb += 3) {
            int ta = wa[qa + 1];
            int tb = wb[qb + 1];
            if (ta != tb && !identicalArrays(ta, tb) && !identicalStructs(ta, tb)) {
                return false;
            }
        }
        return true;
    }

    /** libbpf's btf_dedup_is_equiv: whether candidate graph {@code cand} matches canonical graph {@code canon}. */
    private boolean isEquiv(int cand, int canon) {
        if (resolve(cand) == resolve(canon)) {
            return true;
        }
        canon = resolveFwd(canon);
        int h = hypot[canon];
        if (h >= 0) {
            return h == cand || identicalArrays(h, cand) || identicalStructs(h, cand);
        }
        hypot[canon] = cand;
        hypotList.add(canon);
        if (name(cand) != name(canon)) {
            return false;
        }
        int ck = kindOf(cand);
        int nk = kindOf(canon);
        if ((ck == FWD || nk == FWD) && ck != nk) {
            int real;
            int fwd;
            if (ck == FWD) {
                real = nk;
                fwd = kflag(info(cand)) ? UNION : STRUCT;
            } else {
                real = ck;
                fwd = kflag(info(canon)) ? UNION : STRUCT;
                if (fwd == real && canon < splitStart) {
                    adjustCanon = true; // the base's FWD would have to resolve to this struct
                }
            }
            return fwd == real;
        }
        if (ck != nk) {
            return false;
        }
        switch (ck) {
            case INT:
                return equalIntTag(cand, canon);
            case ENUM, ENUM64:
                return compatEnum(cand, canon);
            case FWD, FLOAT:
                return equalCommon(cand, canon);
            case CONST, VOLATILE, RESTRICT, PTR, TYPEDEF, FUNC, TYPE_TAG:
                if (info(cand) != info(canon)) {
                    return false;
                }
                return isEquiv(word2(cand), word2(canon));
            case ARRAY: {
                if (!compatArray(cand, canon)) {
                    return false;
                }
                return isEquiv(word(cand, 4), word(canon, 4)) && isEquiv(word(cand, 3), word(canon, 3));
            }
            case STRUCT, UNION: {
                if (!shallowEqualStruct(cand, canon)) {
                    return false;
                }
                int[] wa = a(cand);
                int[] wb = a(canon);
                int qa = p(cand) + 3;
                int qb = p(canon) + 3;
                for (int i = 0, v = vlen(info(cand)); i < v; i++, qa += 3, qb += 3) {
                    if (!isEquiv(wa[qa + 1], wb[qb + 1])) {
                        return false;
                    }
                }
                return true;
            }
            case FUNC_PROTO: {
                if (!compatFnProto(cand, canon)) {
                    return false;
                }
                if (!isEquiv(word2(cand), word2(canon))) {
                    return false;
                }
                int[] wa = a(cand);
                int[] wb = a(canon);
                int qa = p(cand) + 3;
                int qb = p(canon) + 3;
                for (int i = 0, v = vlen(info(cand)); i < v; i++, qa += 2, qb += 2) {
                    if (!isEquiv(wa[qa + 1], wb[qb + 1])) {
                        return false;
                    }
                }
                return true;
            }
            default:
                throw new EncodeException("type [" + cand + "] of kind " + ck + " inside a struct cannot be deduplicated");
        }
    }

    private void mergeHypot() {
        for (int i = 0; i < hypotList.size(); i++) {
            int canonId = hypotList.get(i);
            int targId = hypot[canonId];
            int tId = resolve(targId);
            int cId = resolve(canonId);
            int tk = kindOf(tId);
            int ck = kindOf(cId);
            if (tk != FWD && ck == FWD) {
                map[cId] = tId;
            }
            if (adjustCanon) {
                continue; // only base FWDs are pointed at split structs
            }
            if (tk == FWD && ck != FWD) {
                map[tId] = cId;
            }
            if ((tk == STRUCT || tk == UNION) && ck != FWD && mapped(cId) && !mapped(tId)) {
                map[tId] = cId;
            }
        }
    }

    // ---- forward declarations left over ----

    private void resolveFwds() {
        // only FWDs still unresolved need the table of names (most modules have none)
        int firstFwd = splitStart;
        while (firstFwd <= n && (kindOf(firstFwd) != FWD || map[firstFwd] != firstFwd)) {
            firstFwd++;
        }
        if (firstFwd > n) {
            return;
        }
        // each name of a canonical struct or union: its id, or 0 when several have it
        io.perfj.util.LongIntMap names = new io.perfj.util.LongIntMap(1024);
        for (int i = 1; i <= n; i++) {
            int k = kindOf(i);
            if ((k != STRUCT && k != UNION) || map[i] != i) {
                continue;
            }
            int name = name(i);
            names.put(name, names.get(name, -1) == -1 ? i : 0);
        }
        for (int i = firstFwd; i <= n; i++) {
            if (kindOf(i) != FWD || map[i] != i) {
                continue;
            }
            int cand = names.get(name(i), 0);
            if (cand == 0) {
                continue;
            }
            int ck = kindOf(cand);
            boolean union = kflag(info(i));
            if ((ck == STRUCT && union) || (ck == UNION && !union)) {
                continue;
            }
            map[i] = cand;
        }
    }

    // ---- reference types ----

    private int dedupRef(int id) {
        if (map[id] == IN_PROGRESS) {
            throw new EncodeException("type [" + id + "] refers to itself through reference types only");
        }
        if (mapped(id)) {
            return resolve(id);
        }
        map[id] = IN_PROGRESS;
        int[] w = a(id);
        int q = p(id);
        int k = kind(w[q + 1]);
        int newId = id;
        long h;
        switch (k) {
            case CONST, VOLATILE, RESTRICT, PTR, TYPEDEF, FUNC, TYPE_TAG -> {
                w[q + 2] = dedupRef(w[q + 2]);
                h = hashCommon(id);
                newId = firstEqualCommon(h, id);
            }
            case DECL_TAG -> {
                w[q + 2] = dedupRef(w[q + 2]);
                h = hashIntTag(id);
                newId = firstEqual(h, id, equalIntTagTest);
            }
            case ARRAY -> {
                w[q + 3] = dedupRef(w[q + 3]);
                w[q + 4] = dedupRef(w[q + 4]);
                h = hashArray(id);
                newId = firstEqual(h, id, equalArrayTest);
            }
            case FUNC_PROTO -> {
                w[q + 2] = dedupRef(w[q + 2]);
                int v = vlen(w[q + 1]);
                for (int i = 0; i < v; i++) {
                    w[q + 4 + 2 * i] = dedupRef(w[q + 4 + 2 * i]);
                }
                h = hashFnProto(id);
                newId = firstEqual(h, id, equalFnProtoTest);
            }
            default -> throw new EncodeException("type [" + id + "] of kind " + k + " was not deduplicated");
        }
        map[id] = newId;
        if (newId == id) {
            table.add(h, id);
        }
        return newId;
    }

    // ---- compaction ----

    private TypeSection compactAndRemap() {
        int[] newId = new int[n + 1];
        for (int i = 1; i < splitStart; i++) {
            newId[i] = i;
        }
        int count = splitStart - 1;
        long total = 0;
        for (int i = splitStart; i <= n; i++) {
            if (map[i] == i) {
                newId[i] = ++count;
                total += words(info(i));
            }
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new EncodeException(total + " words of deduplicated BTF types do not fit one array");
        }
        TypeSection out = TypeSection.flat(splitStart, (int) total, count - (splitStart - 1));
        int[] ow = out.words(); // sized exactly: adding never replaces it
        for (int i = splitStart; i <= n; i++) {
            if (map[i] != i) {
                continue;
            }
            int len = words(info(i));
            int id = out.add(len);
            int q = out.pos(id);
            System.arraycopy(a(i), p(i), ow, q, len);
            forEachTypeRef(ow, q, at -> {
                int v = ow[at];
                ow[at] = v == 0 ? 0 : newId[resolve(v)];
            });
        }
        return out;
    }
}
