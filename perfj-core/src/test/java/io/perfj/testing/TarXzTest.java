package io.perfj.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TarXz} unpacks what GNU tar writes for a build-id cache, and nothing outside its target. */
class TarXzTest {
    @TempDir
    Path tmp;

    private static void header(ByteArrayOutputStream tar, String name, char type, long size, String link) {
        byte[] h = new byte[512];
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(n, 0, h, 0, Math.min(100, n.length));
        put(h, 100, "0000644\0");
        put(h, 124, String.format("%011o\0", size));
        h[156] = (byte) type;
        put(h, 157, link);
        put(h, 257, "ustar  \0");
        put(h, 148, "        ");
        int sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        put(h, 148, String.format("%06o\0 ", sum));
        tar.writeBytes(h);
    }

    private static void put(byte[] h, int off, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(b, 0, h, off, b.length);
    }

    private static void data(ByteArrayOutputStream tar, byte[] d) {
        tar.writeBytes(d);
        tar.writeBytes(new byte[(512 - d.length % 512) % 512]);
    }

    private Path xz(ByteArrayOutputStream tar) throws IOException {
        tar.writeBytes(new byte[1024]);
        Path f = tmp.resolve("a.tar.xz");
        try (OutputStream out = new XZOutputStream(Files.newOutputStream(f), new LZMA2Options(1))) {
            out.write(tar.toByteArray());
        }
        return f;
    }

    @Test
    void unpacksFilesDirectoriesLongNamesAndLinks() throws IOException {
        String longName = "usr/lib/" + "x".repeat(120) + "/0123456789abcdef/elf";
        byte[] elf = "\u007fELF and more".getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        header(tar, "usr/", '5', 0, "");
        header(tar, "././@LongLink", 'L', longName.length() + 1, "");
        data(tar, (longName + "\0").getBytes(StandardCharsets.UTF_8));
        header(tar, longName.substring(0, 100), '0', elf.length, "");
        data(tar, elf);
        header(tar, ".build-id/01/23", '2', 0, "../../usr/lib/" + "x".repeat(20));
        Path out = tmp.resolve("out");
        TarXz.unpack(xz(tar), out);
        assertEquals("\u007fELF and more", Files.readString(out.resolve(longName)));
        assertTrue(Files.isSymbolicLink(out.resolve(".build-id/01/23")));
        assertEquals("../../usr/lib/" + "x".repeat(20), Files.readSymbolicLink(out.resolve(".build-id/01/23")).toString());
    }

    @Test
    void refusesMembersOutsideTheTarget() throws IOException {
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        header(tar, "../escaped", '0', 1, "");
        data(tar, new byte[] {'x'});
        Path archive = xz(tar);
        IOException e = assertThrows(IOException.class, () -> TarXz.unpack(archive, tmp.resolve("out")));
        assertTrue(e.getMessage().contains("outside the target"), e.getMessage());
        assertTrue(Files.notExists(tmp.resolve("escaped")));
    }
}
