package io.perfj.btf;

import io.perfj.btf.cdump.BtfCDumper;
import io.perfj.btf.cdump.RawTypes;
import io.perfj.btf.dump.BtfRawDumper;
import io.perfj.elf.ElfFile;
import io.perfj.io.FormatException;
import io.perfj.testing.Fixtures;
import io.perfj.testing.MutationMain;
import io.perfj.testing.Mutants;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.fail;

/** Damaged BTF may only ever fail with a FormatException, and resolving its types too. */
class BtfMutationTest {
    /** A split BTF seed's name starts with this; it is read on the Debian 6.1 base. */
    private static final String SPLIT = "split ";

    /**
     * 10^5 mutants of BTF blobs: every kind in both byte orders, the .BTF sections of the BPF
     * objects among the fixtures, and two kernel modules' split BTF (read on their base). Each
     * goes through both readers: the model ({@link Btf#parse}, every type's name, size and
     * modifiers, written back, dumped as bpftool's raw text) and, for stand-alone BTF, the C
     * dumper's word tables and bpftool's {@code format c}.
     */
    static MutationMain.Job job() {
        Path fx = Fixtures.dir().resolve("btf");
        List<Mutants.Seed> seeds = new ArrayList<>();
        for (ByteOrder o : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            byte[] b = BtfWriter.write(BtfSamples.allKindsBtf(o));
            seeds.add(new Mutants.Seed("all kinds " + o, b, new long[] {0, 24}));
        }
        for (String obj : List.of("kinds.bpf.o", "maps.bpf.o", "kinds.linked.o")) {
            try (ElfFile elf = ElfFile.open(fx.resolve("obj").resolve(obj))) {
                byte[] b = elf.sectionData(elf.section(".BTF").orElseThrow()).segment().toArray(ValueLayout.JAVA_BYTE);
                seeds.add(new Mutants.Seed(obj, b, new long[] {0, 24}));
            }
        }
        for (String mod : List.of("nf_conntrack_snmp.btf", "xt_string.btf")) {
            seeds.add(new Mutants.Seed(SPLIT + mod, read(fx.resolve("split").resolve(mod)), new long[] {0, 24}));
        }
        byte[] baseBytes = BtfSamples.gunzip(fx.resolve("split").resolve("debian-6.1-base.btf.gz"));
        Btf base = Btf.parse(baseBytes, "base");
        return new MutationMain.Job(new Mutants("btf", 0x5eed_0002L, seeds, 10_000), m -> {
            boolean split = m.seed().name().startsWith(SPLIT);
            int refused = 0;
            try {
                Btf btf = Btf.parse(m.bytes(), "mutant", split ? base : null);
                for (int id = btf.startId(); id < btf.typeCount(); id++) {
                    BtfType t = btf.type(id);
                    btf.string(t.nameOff());
                    try {
                        btf.resolveSize(id);
                    } catch (FormatException e) {
                        // unsized or looping types are allowed to fail this way
                    }
                    btf.skipModsAndTypedefs(id);
                }
                BtfWriter.write(btf);
                BtfRawDumper.dump(btf, OutputStream.nullOutputStream());
            } catch (FormatException e) {
                refused++;
            }
            if (!split) {
                try {
                    BtfCDumper.dump(RawTypes.parse(m.bytes(), null, "mutant"), OutputStream.nullOutputStream());
                } catch (FormatException e) {
                    refused++;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            if (refused > 0) {
                throw new FormatException("mutant", "BTF", -1, "refused by " + refused + " reader(s)");
            }
        });
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void hundredThousandMutantsFailOnlyWithFormatException() {
        MutationMain.inChildJvm(BtfMutationTest.class, Mutants.count(100_000));
    }

    private static void parseAndUse(byte[] data) {
        try {
            Btf btf = Btf.parse(data, "mutant");
            for (int id = 0; id < btf.typeCount(); id++) {
                BtfType t = btf.type(id);
                btf.string(t.nameOff());
                try {
                    btf.resolveSize(id);
                } catch (FormatException e) {
                    // unsized or looping types are allowed to fail this way
                }
                btf.skipModsAndTypedefs(id);
            }
            BtfWriter.write(btf);
        } catch (FormatException e) {
            // the only allowed failure
        } catch (RuntimeException e) {
            fail("not a FormatException: " + e, e);
        }
    }

    @Test
    void truncations() {
        byte[] good = BtfWriter.write(BtfSamples.allKindsBtf(ByteOrder.LITTLE_ENDIAN));
        for (int n = 0; n < good.length; n++) {
            parseAndUse(Arrays.copyOf(good, n));
        }
    }

    @Test
    void byteFlips() {
        for (ByteOrder o : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            byte[] good = BtfWriter.write(BtfSamples.allKindsBtf(o));
            Random r = new Random(42);
            for (int i = 0; i < good.length; i++) {
                for (int v : new int[] {0, 0xff, 0x80, 0x7f, 1}) {
                    byte[] m = good.clone();
                    m[i] = (byte) v;
                    parseAndUse(m);
                }
                byte[] m = good.clone();
                m[i] ^= (byte) (1 << r.nextInt(8));
                parseAndUse(m);
            }
        }
    }

    @Test
    void absurdHeaderAndRecordFields() {
        byte[] good = BtfWriter.write(BtfSamples.allKindsBtf(ByteOrder.LITTLE_ENDIAN));
        int[] values = {-1, 0x7fffffff, 0x80000000, 0x10000, 0xffff, 3, 25};
        for (int at = 4; at + 4 <= good.length; at += 4) {
            for (int v : values) {
                byte[] m = good.clone();
                ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
                parseAndUse(m);
            }
        }
    }

    @Test
    void vmlinuxPrefixAndFlips() {
        byte[] raw = BtfSamples.vmlinux();
        Random r = new Random(7);
        for (int i = 0; i < 12; i++) {
            byte[] m = raw.clone();
            int at = r.nextInt(Math.min(m.length, 400_000));
            m[at] = (byte) r.nextInt(256);
            try {
                Btf.parse(m, "vmlinux");
            } catch (FormatException e) {
                // allowed
            }
        }
        try {
            Btf.parse(Arrays.copyOf(raw, raw.length / 2), "half");
            fail("half a vmlinux parsed");
        } catch (FormatException e) {
            // expected
        }
    }
}
