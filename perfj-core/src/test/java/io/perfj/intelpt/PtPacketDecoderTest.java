package io.perfj.intelpt;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every packet kind of the SDM's packet table, encoded by hand, with the length and the words
 * perf 6.1's dump gives it; the malformed encodings of each kind are BAD.
 */
class PtPacketDecoderTest {
    static Bytes bytes(String hex) {
        return Bytes.of(HexFormat.of().parseHex(hex.replace(" ", "")), ByteOrder.LITTLE_ENDIAN, "t.data", "x");
    }

    /** Each packet of {@code hex} as "LENGTH DESCRIPTION", the lenient way. */
    static List<String> packets(String hex) {
        PtPacketReader r = PtPacketReader.lenient(bytes(hex));
        List<String> out = new ArrayList<>();
        for (PtPacket p = r.next(); p != null; p = r.next()) {
            out.add(p.length() + " " + p);
        }
        return out;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "00 | 1 PAD",
        "00 00 00 | 3 PAD",
        "06 | 1 TNT T (1)",
        "04 | 1 TNT N (1)",
        "ee | 1 TNT TTNTTT (6)",
        "e0 | 1 TNT TTNNNN (6)",
        "36 | 1 TNT TNTT (4)",
        "02 a3 05 00 00 00 00 00 | 8 TNT NT (2)",
        "2d 94 d7 | 3 TIP 0xd794",
        "4d a2 20 74 b9 | 5 TIP 0xb97420a2",
        "01 | 1 TIP.PGD no ip",
        "71 02 d3 60 b9 ff ff | 7 TIP.PGE 0xffffb960d302",
        "7d 00 d3 60 b9 ff ff 00 | 8 FUP 0xffffb960d300",
        "8d 01 02 03 04 05 06 | 7 TIP 0x60504030201",
        "cd 01 02 03 04 05 06 07 08 | 9 TIP 0x807060504030201",
        "ad | 1 Bad Packet!",
        "19 e8 cf d2 4c bc 00 00 | 8 TSC 0xbc4cd2cfe8",
        "59 48 | 2 MTC 0x48",
        "99 01 | 2 MODE.Exec IF:0 64",
        "99 05 | 2 MODE.Exec IF:1 64",
        "99 00 | 2 MODE.Exec IF:0 16",
        "99 02 | 2 MODE.Exec IF:0 32",
        "99 20 | 2 MODE.TSX TXAbort:0 InTX:0",
        "99 22 | 2 MODE.TSX TXAbort:1 InTX:0",
        "99 21 | 2 MODE.TSX TXAbort:0 InTX:1",
        "03 | 1 CYC 0x0",
        "0b | 1 CYC 0x1",
        "07 02 | 2 CYC 0x20",
        "07 03 02 | 3 CYC 0x1020",
        "02 43 00 34 d4 3f 00 00 | 8 PIP 0x1fea1a00 (NR=0)",
        "02 43 01 34 d4 3f 00 00 | 8 PIP 0x1fea1a00 (NR=1)",
        "02 73 3c b2 00 30 00 | 7 TMA CTC 0xb23c FC 0x30",
        "02 73 3c b2 00 30 01 | 7 TMA CTC 0xb23c FC 0x130",
        "02 03 1d 00 | 4 CBR 0x1d",
        "02 23 | 2 PSBEND",
        "02 f3 | 2 OVF",
        "02 83 | 2 TraceSTOP",
        "02 82 02 82 02 82 02 82 02 82 02 82 02 82 02 82 | 16 PSB",
        "02 c8 01 02 03 04 05 | 7 VMCS 0x504030201",
        "02 c3 88 01 02 03 04 05 06 07 08 | 11 MNT 0x807060504030201",
        "02 12 78 56 34 12 | 6 PTWRITE 0x12345678 IP:0",
        "02 b2 01 00 00 00 00 00 00 80 | 10 PTWRITE 0x8000000000000001 IP:1",
        "02 62 | 2 EXSTOP IP:0",
        "02 e2 | 2 EXSTOP IP:1",
        "02 c2 05 00 00 00 01 00 00 00 | 10 MWAIT 0x100000005 Hints 0x5 Extensions 0x1",
        "02 22 80 21 | 4 PWRE 0x2180 HW:1 CState:2 Sub-CState:1",
        "02 a2 21 03 00 00 00 | 7 PWRX 0x321 Last CState:2 Deepest CState:1 Wake Reason 0x3",
        "02 63 81 | 3 BBP SZ 4-byte Type 0x1",
        "02 63 02 | 3 BBP SZ 8-byte Type 0x2",
        "02 33 | 2 BEP IP:0",
        "02 b3 | 2 BEP IP:1",
        "02 13 81 0e | 4 CFE IP:1 Type 0x01 Vector 0xe",
        "02 13 05 20 | 4 CFE IP:0 Type 0x05 Vector 0x20",
        "02 53 02 01 00 00 00 00 00 00 00 | 11 EVD Type 0x02 Payload 0x1",
    })
    void onePacket(String hex, String expected) {
        assertEquals(List.of(expected.strip()), packets(hex));
    }

    @Test
    void padsFoldIntoThePacketBeforeThemUpToEightBytes() {
        assertEquals(List.of("8 TNT NT (2)", "2 PAD"), packets("0a 00 00 00 00 00 00 00 00 00"));
        assertEquals(List.of("16 PSB", "3 PAD"), packets("02 82 02 82 02 82 02 82 02 82 02 82 02 82 02 82 00 00 00"));
    }

    @Test
    void aBlockMakesItemsOfItsSize() {
        assertEquals(List.of("3 BBP SZ 4-byte Type 0x1", "5 BIP ID 0x01 Value 0x4030201",
                "3 BBP SZ 8-byte Type 0x0", "9 BIP ID 0x02 Value 0x807060504030201", "2 BEP IP:0", "1 TNT N (1)"),
                packets("02 63 81 0c 01 02 03 04 02 63 00 14 01 02 03 04 05 06 07 08 02 33 04"));
        // a timing packet does not end a block; a TNT does
        assertEquals(List.of("3 BBP SZ 8-byte Type 0x0", "2 MTC 0x1", "1 TNT TNNNNN (6)", "1 TNT N (1)"),
                packets("02 63 00 59 01 c0 04"));
    }

    @ParameterizedTest
    @CsvSource({
        "09", "ad", "ed", "99 03", "99 23", "99 40", "02 ff", "02 52", "02 c3 89",
        "02 82 02 82 02 82 02 82 02 82 02 82 02 82 02 83", "39", "79",
    })
    void malformedEncodingsAreBad(String hex) {
        assertEquals("1 Bad Packet!", packets(hex).getFirst());
        FormatException e = assertThrows(FormatException.class, () -> drain(PtPacketReader.strict(bytes(hex))));
        assertEquals(PtPacketReader.STRUCTURE, e.structure());
        assertEquals(0, e.offset());
        assertTrue(e.getMessage().contains("no packet starts with"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"19 01 02", "02", "59", "2d 94", "02 82 02 82", "07 03", "02 c3", "02 c3 88 01"})
    void aPacketCutByTheEndOfTheBufferIsAnError(String hex) {
        FormatException e = assertThrows(FormatException.class, () -> drain(PtPacketReader.strict(bytes(hex))));
        assertTrue(e.getMessage().contains("ends inside a packet"), e.getMessage());
        assertEquals("1 Bad Packet!", packets(hex).getFirst());
    }

    @Test
    void theErrorNamesTheFileOffsetOfTheBadByte() {
        Bytes file = bytes("ff ff 06 06 09 06");
        FormatException e = assertThrows(FormatException.class,
                () -> drain(PtPacketReader.strict(file.slice(2, 4))));
        assertEquals(4, e.offset());
        assertEquals("t.data", e.source());
    }

    @Test
    void cyclesLongerThanTenBytesAreBad() {
        assertEquals("1 Bad Packet!", packets("07 03 03 03 03 03 03 03 03 03 02").getFirst());
        assertEquals("10 CYC 0x" + Long.toHexString(cyc9()),
                packets("07 03 03 03 03 03 03 03 03 02").getFirst());
    }

    /** The value of "07", eight 0x03 bytes and 0x02: the low bit of each seven-bit group from bit 5 set. */
    private static long cyc9() {
        long v = 0;
        for (int shift = 5; shift <= 61; shift += 7) {
            v |= 1L << shift;
        }
        return v;
    }

    @Test
    void theEndIsNull() {
        PtPacketReader r = PtPacketReader.strict(bytes("06"));
        r.next();
        assertNull(r.next());
        assertNull(r.next());
    }

    static int drain(PtPacketReader r) {
        int n = 0;
        while (r.next() != null) {
            n++;
        }
        return n;
    }
}
