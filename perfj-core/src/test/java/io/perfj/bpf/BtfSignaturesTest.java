package io.perfj.bpf;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfStrings;
import io.perfj.btf.BtfType;
import io.perfj.btf.BtfType.*;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Type spellings of bpftool's btf_dumper_type_only for every kind it handles. */
class BtfSignaturesTest {

    @Test
    void everyKind() {
        BtfStrings s = new BtfStrings();
        List<BtfType> t = new ArrayList<>();
        t.add(new Int("int", s.add("int"), 4, Int.SIGNED, 0, 32));                       // 1
        t.add(new Ptr("", 0, 1));                                                         // 2 int *
        t.add(new Const("", 0, 1));                                                       // 3 const int
        t.add(new Volatile("", 0, 3));                                                    // 4 volatile const int
        t.add(new Array("", 0, 1, 1, 16));                                                // 5 int[16]
        t.add(new Struct("sk", s.add("sk"), 4, false, List.of()));                       // 6
        t.add(new Union("u", s.add("u"), 4, false, List.of()));                          // 7
        t.add(new BtfType.Enum("e", s.add("e"), 4, false, List.of()));                   // 8
        t.add(new Fwd("fu", s.add("fu"), true));                                          // 9
        t.add(new Typedef("u64", s.add("u64"), 1));                                       // 10
        t.add(new FuncProto("", 0, 2, List.of(new Param("a", s.add("a"), 10),
                new Param("", 0, 6), new Param("", 0, 0))));                              // 11
        t.add(new Func("fn", s.add("fn"), 11, Func.GLOBAL));                             // 12
        t.add(new Var("v", s.add("v"), 5, Var.STATIC));                                   // 13
        t.add(new Datasec(".bss", s.add(".bss"), 0, List.of()));                          // 14
        t.add(new Restrict("", 0, 2));                                                    // 15
        t.add(new FuncProto("", 0, 0, List.of()));                                        // 16 void (*)()
        t.add(new Func("none", s.add("none"), 16, Func.STATIC));                         // 17
        t.add(new Ptr("", 0, 12));                                                        // 18 pointer to FUNC
        t.add(new BtfType.Float("double", s.add("double"), 8));                          // 19
        t.add(new Enum64("e64", s.add("e64"), 8, false, List.of()));                     // 20
        t.add(new Ptr("", 0, 9));                                                         // 21 union fu *
        Btf btf = Btf.of("test", t, s.toByteArray(), null, ByteOrder.LITTLE_ENDIAN);
        BtfText x = BtfSignatures.of(btf);
        assertEquals("void ", x.typeOnly(0));
        assertEquals("int ", x.typeOnly(1));
        assertEquals("int * ", x.typeOnly(2));
        assertEquals("const int ", x.typeOnly(3));
        assertEquals("volatile const int ", x.typeOnly(4));
        assertEquals("int [16]", x.typeOnly(5));
        assertEquals("struct sk ", x.typeOnly(6));
        assertEquals("union u ", x.typeOnly(7));
        assertEquals("enum e ", x.typeOnly(8));
        assertEquals("union fu ", x.typeOnly(9));
        assertEquals("u64 ", x.typeOnly(10));
        assertEquals("int * (u64 a, struct sk, ...)", x.typeOnly(11));
        assertEquals("int * fn(u64 a, struct sk, ...)", x.typeOnly(12));
        assertEquals("static int [16] v", x.typeOnly(13));
        assertEquals("section (\".bss\") ", x.typeOnly(14));
        assertEquals("restrict int * ", x.typeOnly(15));
        assertEquals("void none()", x.typeOnly(17));
        assertEquals("int * fn(u64 a, struct sk, ...)* ", x.typeOnly(18));
        assertEquals("double ", x.typeOnly(19));
        assertEquals("enum e64 ", x.typeOnly(20));
        assertEquals("union fu * ", x.typeOnly(21));
        assertEquals("", x.typeOnly(22));
        assertEquals("", x.typeOnly(-1));
        assertEquals("fn", x.typeName(12).orElseThrow());
        assertEquals("sk", x.string(s.add("sk")).orElseThrow());
        assertEquals(java.util.Optional.empty(), x.string(1 << 20));
    }

    @Test
    void tooLongForBpftoolsBuffer() {
        BtfStrings s = new BtfStrings();
        List<BtfType> t = new ArrayList<>();
        t.add(new Int("int", s.add("int"), 4, Int.SIGNED, 0, 32));
        List<Param> params = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            params.add(new Param("argument" + i, s.add("argument" + i), 1));
        }
        t.add(new FuncProto("", 0, 1, params));
        t.add(new Func("f", s.add("f"), 2, Func.GLOBAL));
        Btf btf = Btf.of("test", t, s.toByteArray(), null, ByteOrder.LITTLE_ENDIAN);
        assertEquals("", BtfSignatures.of(btf).typeOnly(3));
    }
}
