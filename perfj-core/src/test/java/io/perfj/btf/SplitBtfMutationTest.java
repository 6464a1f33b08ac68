package io.perfj.btf;

import io.perfj.btf.cdump.BtfCDumper;
import io.perfj.btf.cdump.RawTypes;
import io.perfj.btf.cdump.TypeTable;
import io.perfj.btf.dump.BtfRawDumper;
import io.perfj.btf.encode.BtfEncoder;
import io.perfj.btf.encode.EncodeOptions;
import io.perfj.btf.encode.SplitBase;
import io.perfj.btf.layout.BtfLayout;
import io.perfj.elf.ElfFile;
import io.perfj.io.FormatException;
import io.perfj.testing.Fixtures;
import io.perfj.testing.MutationMain;
import io.perfj.testing.Mutants;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Damaged split BTF read on its base, by every reader that takes a base: the word tables and
 * bpftool's raw text ({@code perfj btf dump --base}), the C dumper's tables and {@code format c},
 * and the object model with pahole's layout of every own struct and union ({@code btf layout}).
 * Only a {@link FormatException} may come out: ids past the split's end, names into the base's
 * strings or past the end, counts, header fields, truncations.
 */
class SplitBtfMutationTest {
    /** A base and the split BTF of modules encoded on it. */
    record Base(String name, Btf btf, BtfWords words, TypeTable table, boolean cDump) {
        static Base of(String name, byte[] bytes, boolean cDump) {
            Btf btf = Btf.parse(bytes, name);
            BtfWords words = BtfWords.parse(ByteBuffer.wrap(bytes), 0, null, name);
            words.check(words.firstId(), words.end());
            return new Base(name, btf, words, RawTypes.parse(bytes, null, name), cDump);
        }
    }

    /** The small base of the encoder's fixtures, and the Debian 6.1 kernel's (no C dump: it prints the base). */
    private static final class Seeds {
        static final Base SMALL;
        static final Base DEBIAN;
        static final List<byte[]> ON_SMALL = new ArrayList<>();
        static final List<byte[]> ON_DEBIAN = new ArrayList<>();

        static {
            Path base = Fixtures.file("btf-encode/golden/gcc-base.btf");
            SMALL = Base.of("gcc-base.btf", read(base), true);
            SplitBase split = SplitBase.load(base);
            for (String m : List.of("module.o", "crc7.ko", "gcc-types.o")) {
                try (ElfFile elf = ElfFile.open(Fixtures.file("btf-encode/bin/" + m))) {
                    ON_SMALL.add(BtfEncoder.encode(elf, new EncodeOptions(EncodeOptions.Vars.ALL, 1), w -> { }, split));
                }
            }
            Path fx = Fixtures.dir().resolve("btf/split");
            DEBIAN = Base.of("debian-6.1-base.btf", BtfSamples.gunzip(fx.resolve("debian-6.1-base.btf.gz")), false);
            for (String m : List.of("nf_conntrack_snmp.btf", "xt_string.btf")) {
                ON_DEBIAN.add(read(fx.resolve(m)));
            }
        }
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Reads {@code bytes} on {@code base} with every reader; returns how many refused it with a
     * FormatException. Anything else thrown fails the caller.
     */
    static int readAll(byte[] bytes, Base base) {
        int refused = 0;
        try {
            BtfRawDumper.dump(BtfWords.parse(ByteBuffer.wrap(bytes), 0, base.words(), "mutant"),
                    OutputStream.nullOutputStream());
        } catch (FormatException e) {
            refused++;
        }
        if (base.cDump()) {
            try {
                BtfCDumper.dump(RawTypes.parse(bytes, base.table(), "mutant"), OutputStream.nullOutputStream());
            } catch (FormatException e) {
                refused++;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        try {
            Btf btf = Btf.parse(bytes, "mutant", base.btf());
            for (int id = btf.startId(); id < btf.typeCount(); id++) {
                if (btf.type(id) instanceof BtfType.Composite) {
                    BtfLayout.layout(btf, id);
                }
            }
        } catch (FormatException e) {
            refused++;
        }
        return refused;
    }

    /** 5 * 10^4 random mutants (bit flips, words, cuts, copies, insertions) of the seeds, headers and types favoured. */
    static MutationMain.Job job() {
        List<Mutants.Seed> seeds = new ArrayList<>();
        for (int i = 0; i < Seeds.ON_SMALL.size(); i++) {
            byte[] b = Seeds.ON_SMALL.get(i);
            seeds.add(new Mutants.Seed("small " + i, b, new long[] {0, 24, 24, 24 + typeLen(b)}));
        }
        for (int i = 0; i < Seeds.ON_DEBIAN.size(); i++) {
            byte[] b = Seeds.ON_DEBIAN.get(i);
            seeds.add(new Mutants.Seed("debian " + i, b, new long[] {0, 24, 24, 24 + typeLen(b)}));
        }
        return new MutationMain.Job(new Mutants("split-btf", 0x5eed_0014L, seeds, 10_000), m -> {
            Base base = m.seed().name().startsWith("small") ? Seeds.SMALL : Seeds.DEBIAN;
            int refused = readAll(m.bytes(), base);
            if (refused > 0) {
                throw new FormatException("mutant", "split BTF", -1, "refused by " + refused + " reader(s)");
            }
        });
    }

    private static int typeLen(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(12);
    }

    @Test
    void fiftyThousandMutantsFailOnlyWithFormatException() {
        MutationMain.inChildJvm(SplitBtfMutationTest.class, Mutants.count(50_000));
    }

    /** Fails unless only FormatExceptions came out; returns whether every reader accepted it. */
    private static boolean accepted(byte[] m, Base base, String what) {
        try {
            return readAll(m, base) == 0;
        } catch (RuntimeException | StackOverflowError e) {
            fail(what + ": not a FormatException: " + e, e);
            return false;
        }
    }

    @Test
    void theSeedsAreGood() {
        for (byte[] b : Seeds.ON_SMALL) {
            assertTrue(accepted(b, Seeds.SMALL, "seed"));
        }
        for (byte[] b : Seeds.ON_DEBIAN) {
            assertTrue(accepted(b, Seeds.DEBIAN, "seed"));
        }
    }

    /**
     * Every word of every record set to the ids and string offsets at the edges: the base's
     * last id, the split's first, last and one past it, names at the end of the base's strings,
     * at the split's first, last and one past its end; plus counts and kinds that make records
     * run past the section.
     */
    @Test
    void boundaryIdsAndNameOffsetsInEveryWord() {
        int mutants = 0;
        int refused = 0;
        for (byte[] good : Seeds.ON_SMALL) {
            if (good.length > 4096) {
                continue; // crc7.ko's 11k words are left to the random mutants
            }
            Base base = Seeds.SMALL;
            ByteBuffer b = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
            int hdr = b.getInt(4);
            int typeOff = hdr + b.getInt(8);
            int typeEnd = typeOff + b.getInt(12);
            int strLen = b.getInt(20);
            int baseEnd = base.btf().typeCount();
            int splitEnd = Btf.parse(good, "seed", base.btf()).typeCount();
            int baseStr = base.words().strings().length();
            int[] values = {baseEnd - 1, baseEnd, splitEnd - 1, splitEnd, splitEnd + 1, 0x7fffffff,
                    baseStr - 1, baseStr, baseStr + 1, baseStr + strLen - 1, baseStr + strLen, baseStr + strLen + 1,
                    -1, 0x80000000, 0xffff, 0x0400ffff, 0x0d00ffff, 0x13000001, 0x11000000};
            for (int p = typeOff; p + 4 <= typeEnd; p += 4) {
                for (int v : values) {
                    byte[] m = good.clone();
                    ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(p, v);
                    mutants++;
                    if (!accepted(m, base, "word " + p + " = " + v)) {
                        refused++;
                    }
                }
            }
        }
        assertTrue(mutants > 3_000 && refused > mutants / 10, refused + " of " + mutants + " refused");
    }

    /** Ids past the split's end and name offsets past the strings are refused, not read as something else. */
    @Test
    void danglingIdsAndNamesAreRefused() {
        byte[] good = Seeds.ON_SMALL.get(0);
        Base base = Seeds.SMALL;
        Btf split = Btf.parse(good, "seed", base.btf());
        int splitEnd = split.typeCount();
        ByteBuffer b = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
        int typeOff = b.getInt(4) + b.getInt(8);
        int strLen = b.getInt(20);
        int total = base.words().strings().length() + strLen;
        // the first own record: a name past every string, then a type past the last id
        int firstPtr = -1;
        for (int id = split.startId(); id < splitEnd && firstPtr < 0; id++) {
            if (split.type(id) instanceof BtfType.Ptr) {
                firstPtr = id;
            }
        }
        assertTrue(firstPtr > 0, "a module has pointers");
        byte[] name = good.clone();
        ByteBuffer.wrap(name).order(ByteOrder.LITTLE_ENDIAN).putInt(typeOff, total);
        assertEquals(3, refusals(name, base), "name offset at the end of base + split strings");
        int at = typeOff + recordOffset(split, firstPtr);
        for (int id : new int[] {splitEnd, splitEnd + 1, 0x7fffffff}) {
            byte[] ref = good.clone();
            ByteBuffer.wrap(ref).order(ByteOrder.LITTLE_ENDIAN).putInt(at + 8, id);
            assertEquals(3, refusals(ref, base), "pointer to id " + id + " of " + splitEnd);
        }
        // pointing at the base's last type is fine
        byte[] toBase = good.clone();
        ByteBuffer.wrap(toBase).order(ByteOrder.LITTLE_ENDIAN).putInt(at + 8, base.btf().typeCount() - 1);
        assertEquals(0, refusals(toBase, base));
    }

    private static int refusals(byte[] m, Base base) {
        try {
            return readAll(m, base);
        } catch (RuntimeException e) {
            fail("not a FormatException: " + e, e);
            return -1;
        }
    }

    /** Bytes from the type section's start to record {@code id}. */
    private static int recordOffset(Btf split, int id) {
        int off = 0;
        for (int i = split.startId(); i < id; i++) {
            off += 12 + extraBytes(split.type(i));
        }
        return off;
    }

    private static int extraBytes(BtfType t) {
        return switch (t) {
            case BtfType.Int i -> 4;
            case BtfType.Array a -> 12;
            case BtfType.Composite c -> 12 * c.members().size();
            case BtfType.Enum e -> 8 * e.values().size();
            case BtfType.Enum64 e -> 12 * e.values().size();
            case BtfType.FuncProto f -> 8 * f.params().size();
            case BtfType.Var v -> 4;
            case BtfType.Datasec d -> 12 * d.vars().size();
            case BtfType.DeclTag d -> 4;
            default -> 0;
        };
    }

    /** Every header field (magic, version, flags, lengths, offsets) at absurd and boundary values. */
    @Test
    void headerFields() {
        for (byte[] good : Seeds.ON_SMALL) {
            int[] values = {0, 1, 3, 4, 23, 24, 25, -1, 0x7fffffff, 0x80000000, good.length, good.length - 24,
                    good.length - 23, 0x10000};
            for (int at = 0; at < 24; at += 4) {
                for (int v : values) {
                    byte[] m = good.clone();
                    ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
                    accepted(m, Seeds.SMALL, "header word " + at + " = " + v);
                }
            }
            for (int at = 0; at < 8; at++) {
                for (int v : new int[] {0, 0xff, 0x80, 1}) {
                    byte[] m = good.clone();
                    m[at] = (byte) v;
                    accepted(m, Seeds.SMALL, "header byte " + at + " = " + v);
                }
            }
        }
    }

    /** Every length from 0 to the whole: only the whole is read (a cut split BTF is never half read). */
    @Test
    void truncations() {
        for (byte[] good : Seeds.ON_SMALL) {
            for (int n = 0; n < good.length; n += good.length > 4096 ? 7 : 1) {
                assertTrue(!accepted(Arrays.copyOf(good, n), Seeds.SMALL, "cut to " + n), "cut to " + n + " accepted");
            }
        }
        for (byte[] good : Seeds.ON_DEBIAN) {
            for (int n = 0; n < good.length; n += 3) {
                assertTrue(!accepted(Arrays.copyOf(good, n), Seeds.DEBIAN, "cut to " + n), "cut to " + n + " accepted");
            }
        }
    }
}
