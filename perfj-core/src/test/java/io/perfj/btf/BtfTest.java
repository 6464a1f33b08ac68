package io.perfj.btf;

import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BtfTest {

    @Test
    void vmlinuxParsesAndWritesBackByteForByte() {
        byte[] raw = BtfSamples.vmlinux();
        Btf btf = Btf.parse(raw, "vmlinux");
        assertTrue(btf.typeCount() > 1000);
        assertEquals(1, btf.startId());
        assertArrayEquals(raw, BtfWriter.write(btf));
        int task = btf.findByName("task_struct", BtfKind.STRUCT).orElseThrow();
        BtfType.Struct s = (BtfType.Struct) btf.type(task);
        assertEquals(s.size(), btf.resolveSize(task));
        assertTrue(s.members().stream().anyMatch(m -> m.name().equals("pid")));
        assertEquals(8, btf.pointerSize());
        assertEquals("", btf.string(0));
        assertInstanceOf(BtfType.Void.class, btf.type(0));
    }

    @Test
    void vmlinuxBigEndianRoundTrip() {
        Btf le = Btf.parse(BtfSamples.vmlinux(), "vmlinux");
        byte[] be = BtfWriter.write(le, ByteOrder.BIG_ENDIAN);
        Btf back = Btf.parse(be, "vmlinux.be");
        assertEquals(ByteOrder.BIG_ENDIAN, back.order());
        assertEquals(le, back);
        assertEquals(le.ownTypes(), back.ownTypes());
    }

    @Test
    void everyKindRoundTripsInBothOrders() {
        for (ByteOrder o : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            Btf btf = BtfSamples.allKindsBtf(o);
            assertEquals(20, btf.typeCount());
            for (int id = 1; id < 20; id++) {
                assertEquals(id, btf.type(id).kind().value(), "id " + id);
            }
            byte[] w = BtfWriter.write(btf);
            assertEquals(btf, Btf.parse(w, "again"));
            assertArrayEquals(w, BtfWriter.write(Btf.parse(w, "again")));
        }
    }

    @Test
    void kindFlagMeanings() {
        Btf btf = BtfSamples.allKindsBtf(ByteOrder.LITTLE_ENDIAN);
        BtfType.Struct s = (BtfType.Struct) btf.type(4);
        assertEquals(29, s.members().get(1).bitfieldSize());
        assertEquals(3, s.members().get(1).bitOffset());
        BtfType.Enum e = (BtfType.Enum) btf.type(6);
        assertTrue(e.signed());
        assertEquals(-1, e.values().getFirst().value());
        assertTrue(((BtfType.Fwd) btf.type(7)).union());
        assertEquals(0xffff_ffff_0000_0001L, ((BtfType.Enum64) btf.type(19)).values().getFirst().value());
        assertTrue(((BtfType.FuncProto) btf.type(13)).variadic());
        assertEquals(-1L & 0xffffffffL, e.values().getFirst().value() & 0xffffffffL);
    }

    @Test
    void lookupsAndHelpers() {
        Btf btf = BtfSamples.allKindsBtf(ByteOrder.LITTLE_ENDIAN);
        assertEquals(4, btf.findByName("s").orElseThrow());
        assertEquals(8, btf.findByName("int_t", BtfKind.TYPEDEF).orElseThrow());
        assertFalse(btf.findByName("int_t", BtfKind.STRUCT).isPresent());
        assertEquals(1, btf.skipModsAndTypedefs(10));
        assertEquals(8, btf.skipMods(10));
        assertEquals(64, btf.resolveSize(14));
        assertEquals(8, btf.resolveSize(11));
        assertThrows(FormatException.class, () -> btf.resolveSize(12));
        assertThrows(FormatException.class, () -> btf.resolveSize(0));
        assertEquals("(anon)", btf.nameOrAnon(btf.type(2)));
    }

    @Test
    void referenceLoopsAreFormatErrors() {
        BtfStrings s = new BtfStrings();
        Btf btf = Btf.of("loop", List.of(new BtfType.Const("", 0, 2), new BtfType.Volatile("", 0, 1)),
                s.toByteArray(), null, ByteOrder.LITTLE_ENDIAN);
        assertThrows(FormatException.class, () -> btf.resolveSize(1));
        assertThrows(FormatException.class, () -> btf.skipModsAndTypedefs(1));
    }

    @Test
    void splitBtfContinuesIdsAndStrings() {
        Btf base = BtfSamples.allKindsBtf(ByteOrder.LITTLE_ENDIAN);
        BtfStrings s = new BtfStrings(base);
        int nameOff = s.add("mod_struct");
        int m = s.add("m");
        List<BtfType> types = List.of(new BtfType.Struct("mod_struct", nameOff, 8, false,
                List.of(new BtfType.Member("m", m, 2, 0, 0))), new BtfType.Ptr("", 0, 20));
        Btf split = Btf.of("mod", types, s.toByteArray(), base, ByteOrder.LITTLE_ENDIAN);
        assertEquals(20, split.startId());
        assertEquals(22, split.typeCount());
        assertEquals(base.stringsEnd(), nameOff);
        assertEquals("mod_struct", split.string(nameOff));
        assertEquals("int", split.string(base.type(1).nameOff()));
        assertEquals(BtfKind.INT, split.type(1).kind());
        assertEquals(20, split.findByName("mod_struct").orElseThrow());
        assertEquals(1, split.findByName("int").orElseThrow());
        assertEquals(8, split.resolveSize(21));
        byte[] w = BtfWriter.write(split);
        assertEquals(split, Btf.parse(w, "mod", base));
        FormatException e = assertThrows(FormatException.class, () -> Btf.parse(w, "mod"));
        assertTrue(e.getMessage().contains("mod"), e.getMessage());
    }

    @Test
    void outOfRangeIdsAndStringsNameTheOffset() {
        BtfStrings s = new BtfStrings();
        byte[] bad = BtfWriter.write(List.of(new BtfType.Ptr("", 0, 5)), s.toByteArray(), ByteOrder.LITTLE_ENDIAN);
        FormatException e = assertThrows(FormatException.class, () -> Btf.parse(bad, "bad"));
        assertTrue(e.getMessage().contains("at offset 0x20"), e.getMessage());
        byte[] badName = BtfWriter.write(List.of(new BtfType.Int("x", 99, 4, 0, 0, 32)), s.toByteArray(),
                ByteOrder.LITTLE_ENDIAN);
        e = assertThrows(FormatException.class, () -> Btf.parse(badName, "bad"));
        assertTrue(e.getMessage().contains("at offset 0x18") && e.getMessage().contains("0x63"), e.getMessage());
    }
}
