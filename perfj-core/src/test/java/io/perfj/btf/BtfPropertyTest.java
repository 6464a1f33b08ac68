package io.perfj.btf;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** parse(write(model)) == model, and write(parse(bytes)) == bytes, for random type lists. */
class BtfPropertyTest {

    record Spec(List<Integer> kinds, List<Integer> refs, List<Integer> nums, boolean bigEndian) {
    }

    @Provide
    Arbitrary<Spec> specs() {
        return Combinators.combine(
                Arbitraries.integers().between(1, 19).list().ofMinSize(1).ofMaxSize(40),
                Arbitraries.integers().between(0, 1000).list().ofSize(200),
                Arbitraries.integers().list().ofSize(200),
                Arbitraries.of(true, false)).as(Spec::new);
    }

    @Property(tries = 300)
    void roundTrip(@ForAll("specs") Spec spec) {
        BtfStrings s = new BtfStrings();
        List<BtfType> types = new ArrayList<>();
        int n = spec.kinds().size();
        int[] cursor = {0};
        java.util.function.IntSupplier ref = () -> spec.refs().get(cursor[0]++ % 200) % (n + 1);
        java.util.function.IntSupplier num = () -> spec.nums().get(cursor[0]++ % 200);
        for (int i = 0; i < n; i++) {
            String name = "t" + (num.getAsInt() & 15);
            int off = s.add(name);
            int k = spec.kinds().get(i);
            int vlen = (num.getAsInt() & 3);
            boolean flag = (num.getAsInt() & 1) != 0;
            BtfType t = switch (k) {
                case 1 -> new BtfType.Int(name, off, 4, num.getAsInt() & 7, num.getAsInt() & 0xff, num.getAsInt() & 0xff);
                case 2 -> new BtfType.Ptr("", 0, ref.getAsInt());
                case 3 -> new BtfType.Array("", 0, ref.getAsInt(), ref.getAsInt(), num.getAsInt());
                case 4, 5 -> {
                    List<BtfType.Member> ms = new ArrayList<>();
                    for (int j = 0; j < vlen; j++) {
                        String mn = "m" + j;
                        ms.add(new BtfType.Member(mn, s.add(mn), ref.getAsInt(),
                                flag ? num.getAsInt() & 0xffffff : num.getAsInt(), flag ? num.getAsInt() & 0xff : 0));
                    }
                    yield k == 4 ? new BtfType.Struct(name, off, num.getAsInt(), flag, ms)
                            : new BtfType.Union(name, off, num.getAsInt(), flag, ms);
                }
                case 6 -> {
                    List<BtfType.EnumValue> vs = new ArrayList<>();
                    for (int j = 0; j < vlen; j++) {
                        int v = num.getAsInt();
                        vs.add(new BtfType.EnumValue("E" + j, s.add("E" + j), flag ? v : Integer.toUnsignedLong(v)));
                    }
                    yield new BtfType.Enum(name, off, 4, flag, vs);
                }
                case 19 -> {
                    List<BtfType.EnumValue> vs = new ArrayList<>();
                    for (int j = 0; j < vlen; j++) {
                        vs.add(new BtfType.EnumValue("E" + j, s.add("E" + j),
                                (long) num.getAsInt() << 32 | Integer.toUnsignedLong(num.getAsInt())));
                    }
                    yield new BtfType.Enum64(name, off, 8, flag, vs);
                }
                case 7 -> new BtfType.Fwd(name, off, flag);
                case 8 -> new BtfType.Typedef(name, off, ref.getAsInt());
                case 9 -> new BtfType.Volatile("", 0, ref.getAsInt());
                case 10 -> new BtfType.Const("", 0, ref.getAsInt());
                case 11 -> new BtfType.Restrict("", 0, ref.getAsInt());
                case 12 -> new BtfType.Func(name, off, ref.getAsInt(), vlen % 3);
                case 13 -> {
                    List<BtfType.Param> ps = new ArrayList<>();
                    for (int j = 0; j < vlen; j++) {
                        ps.add(new BtfType.Param("p" + j, s.add("p" + j), ref.getAsInt()));
                    }
                    yield new BtfType.FuncProto("", 0, ref.getAsInt(), ps);
                }
                case 14 -> new BtfType.Var(name, off, ref.getAsInt(), num.getAsInt());
                case 15 -> {
                    List<BtfType.VarSecinfo> vs = new ArrayList<>();
                    for (int j = 0; j < vlen; j++) {
                        vs.add(new BtfType.VarSecinfo(ref.getAsInt(), num.getAsInt(), num.getAsInt()));
                    }
                    yield new BtfType.Datasec(name, off, num.getAsInt(), vs);
                }
                case 16 -> new BtfType.Float(name, off, 8);
                case 17 -> new BtfType.DeclTag(name, off, ref.getAsInt(), num.getAsInt(), flag);
                case 18 -> new BtfType.TypeTag(name, off, ref.getAsInt(), flag);
                default -> throw new IllegalStateException();
            };
            types.add(t);
        }
        ByteOrder order = spec.bigEndian() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        byte[] bytes = BtfWriter.write(types, s.toByteArray(), order);
        Btf btf = Btf.parse(bytes, "random");
        assertEquals(types, btf.ownTypes());
        assertArrayEquals(bytes, BtfWriter.write(btf));
    }
}
