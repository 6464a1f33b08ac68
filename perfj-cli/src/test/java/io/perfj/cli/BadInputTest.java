package io.perfj.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inputs fuzzing found the commands could not survive, through the command line's error path:
 * one line naming the file, structure and offset, exit code 2, no stack trace.
 */
class BadInputTest {
    @TempDir
    Path tmp;

    private static void typedError(String expect, String... args) {
        CliFixtures.Run r = CliFixtures.run(args);
        assertEquals(2, r.rc(), String.join(" ", args) + ": " + r.err());
        String[] lines = r.err().strip().split("\n");
        String last = lines[lines.length - 1];
        assertTrue(last.startsWith("perfj: ") && last.contains(" at offset 0x") && last.contains(expect),
                String.join(" ", args) + ": " + r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    /** A perf.data file whose attr section is shorter than one attr, then a COMM and a SAMPLE. */
    private Path sampleWithoutEvent() throws IOException {
        ByteBuffer f = ByteBuffer.allocate(104 + 144 + 32 + 32).order(ByteOrder.LITTLE_ENDIAN);
        f.putLong(0x32454c4946524550L).putLong(104).putLong(144);
        f.putLong(104).putLong(100);            // attrs: 100 bytes, less than one 144-byte entry
        f.putLong(104 + 144).putLong(64);       // data
        f.position(104);
        f.putInt(1).putInt(128).putLong(0).putLong(1).putLong(7); // an attr nobody counts
        f.position(104 + 144);
        f.putInt(3).putShort((short) 0).putShort((short) 32).putInt(5).putInt(5).putLong(0x6f6f66L).putLong(0);
        f.putInt(9).putShort((short) 2).putShort((short) 32).putLong(0x401000L).putInt(5).putInt(5).putLong(1000);
        Path p = tmp.resolve("no-event.data");
        Files.write(p, f.array());
        return p;
    }

    @Test
    void sampleWithoutAnEventIsAFormatErrorInEveryCommand() throws IOException {
        String f = sampleWithoutEvent().toString();
        String at = "PERF_RECORD_SAMPLE at offset 0x" + Long.toHexString(104 + 144 + 32);
        typedError(at, "report", "--stdio", "-i", f, "--no-system-files");
        typedError(at, "report", "--stdio", "--no-children", "-g", "none", "-i", f, "--no-system-files");
        typedError(at, "script", "-i", f, "--no-system-files");
        typedError(at, "annotate", "--stdio", "-i", f, "--no-system-files");
        typedError(at, "dump", "-i", f, "--no-system-files");
    }

    @Test
    void rawBtfPast2GiBThatIsNotBtf() throws IOException {
        Path p = tmp.resolve("big.btf");
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.write(new byte[] {(byte) 0x9f, (byte) 0xeb, 1, 0, 24, 0, 0, 0});
            raf.setLength(3L << 30);           // sparse: no disk space used
        }
        // magic and header length right, sections all zero-sized: no string section for a base BTF
        typedError("at offset 0x18", "btf", "dump", p.toString());
        typedError("at offset 0x18", "btf", "dump", p.toString(), "format", "c");
    }

    @Test
    void zstdBombIsAFormatErrorInDump() throws IOException {
        typedError("exceeds the bound of 8192 bytes", "dump", "-i", ZstdBomb.write(tmp, 8192).toString());
    }
}
