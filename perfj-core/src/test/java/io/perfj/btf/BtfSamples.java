package io.perfj.btf;

import io.perfj.testing.Fixtures;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/** BTF for tests: the committed vmlinux BTF, and a small hand-built blob with every kind. */
public final class BtfSamples {
    private static byte[] vmlinux;

    private BtfSamples() {
    }

    /** fixtures/btf/vmlinux.btf.gz unpacked. */
    public static synchronized byte[] vmlinux() {
        if (vmlinux == null) {
            vmlinux = gunzip(Fixtures.file("btf/vmlinux.btf.gz"));
        }
        return vmlinux;
    }

    public static byte[] gunzip(Path f) {
        Fixtures.require(f);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(f), 1 << 16)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every kind once or more: ids 1..N as listed. */
    public static List<BtfType> allKinds(BtfStrings s) {
        List<BtfType> t = new ArrayList<>();
        t.add(new BtfType.Int("int", s.add("int"), 4, BtfType.Int.SIGNED, 0, 32));                       // 1
        t.add(new BtfType.Ptr("", 0, 1));                                                                // 2
        t.add(new BtfType.Array("", 0, 1, 1, 16));                                                       // 3
        t.add(new BtfType.Struct("s", s.add("s"), 8, true, List.of(
                new BtfType.Member("a", s.add("a"), 1, 0, 3),
                new BtfType.Member("b", s.add("b"), 1, 3, 29),
                new BtfType.Member("", 0, 5, 32, 0))));                                                  // 4
        t.add(new BtfType.Union("u", s.add("u"), 4, false, List.of(
                new BtfType.Member("x", s.add("x"), 1, 0, 0),
                new BtfType.Member("y", s.add("y"), 16, 0, 0))));                                        // 5
        t.add(new BtfType.Enum("e", s.add("e"), 4, true, List.of(
                new BtfType.EnumValue("NEG", s.add("NEG"), -1), new BtfType.EnumValue("POS", s.add("POS"), 7)))); // 6
        t.add(new BtfType.Fwd("fu", s.add("fu"), true));                                                 // 7
        t.add(new BtfType.Typedef("int_t", s.add("int_t"), 1));                                          // 8
        t.add(new BtfType.Volatile("", 0, 8));                                                           // 9
        t.add(new BtfType.Const("", 0, 9));                                                              // 10
        t.add(new BtfType.Restrict("", 0, 2));                                                           // 11
        t.add(new BtfType.Func("f", s.add("f"), 13, BtfType.Func.GLOBAL));                               // 12
        t.add(new BtfType.FuncProto("", 0, 1, List.of(new BtfType.Param("p", s.add("p"), 11),
                new BtfType.Param("", 0, 0))));                                                          // 13
        t.add(new BtfType.Var("v", s.add("v"), 3, BtfType.Var.GLOBAL));                                  // 14
        t.add(new BtfType.Datasec(".data", s.add(".data"), 64, List.of(new BtfType.VarSecinfo(14, 0, 64)))); // 15
        t.add(new BtfType.Float("double", s.add("double"), 8));                                          // 16
        t.add(new BtfType.DeclTag("tag", s.add("tag"), 4, 1, false));                                    // 17
        t.add(new BtfType.TypeTag("user", s.add("user"), 1, false));                                     // 18
        t.add(new BtfType.Enum64("e64", s.add("e64"), 8, false, List.of(
                new BtfType.EnumValue("BIG", s.add("BIG"), 0xffff_ffff_0000_0001L))));                   // 19
        return t;
    }

    public static Btf allKindsBtf(ByteOrder order) {
        BtfStrings s = new BtfStrings();
        List<BtfType> t = allKinds(s);
        return Btf.of("all-kinds", t, s.toByteArray(), null, order);
    }
}
