package io.perfj.testing;

import org.tukaani.xz.XZInputStream;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Unpacks a {@code .tar.xz} archive as {@code perf archive} writes them (GNU tar: ustar headers,
 * {@code ././@LongLink} entries for long names, symbolic links for the {@code .build-id} index)
 * with xz-java, so the tests need no tar program. Members that would land outside the target
 * directory, and entry types a build-id cache does not have, are errors.
 */
public final class TarXz {
    private static final int BLOCK = 512;

    private TarXz() {
    }

    /** Unpacks {@code archive} into {@code dir} (created when missing). */
    public static void unpack(Path archive, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path root = dir.toAbsolutePath().normalize();
        try (InputStream in = new XZInputStream(new BufferedInputStream(Files.newInputStream(archive), 1 << 16))) {
            byte[] h = new byte[BLOCK];
            String longName = null;
            String longLink = null;
            while (true) {
                if (!readBlock(in, h)) {
                    throw new IOException(archive + ": ends without the end-of-archive blocks");
                }
                if (isZero(h)) {
                    return;
                }
                if (!new String(h, 257, 5, StandardCharsets.US_ASCII).equals("ustar")) {
                    throw new IOException(archive + ": not a ustar header");
                }
                long size = octal(h, 124, 12);
                char type = h[156] == 0 ? '0' : (char) h[156];
                String name = longName != null ? longName : name(h);
                String link = longLink != null ? longLink : field(h, 157, 100);
                longName = null;
                longLink = null;
                switch (type) {
                    case 'L' -> longName = trimNul(readString(in, size));
                    case 'K' -> longLink = trimNul(readString(in, size));
                    case '0', '7' -> {
                        Path f = inside(root, name, archive);
                        Files.createDirectories(f.getParent());
                        try (OutputStream out = Files.newOutputStream(f)) {
                            copy(in, out, size);
                        }
                        skipPadding(in, size);
                    }
                    case '5' -> Files.createDirectories(inside(root, name, archive));
                    case '2' -> {
                        Path f = inside(root, name, archive);
                        Files.createDirectories(f.getParent());
                        Files.deleteIfExists(f);
                        Files.createSymbolicLink(f, Path.of(link));
                    }
                    case '1' -> {
                        Path f = inside(root, name, archive);
                        Files.createDirectories(f.getParent());
                        Files.copy(inside(root, link, archive), f, StandardCopyOption.REPLACE_EXISTING);
                    }
                    default -> throw new IOException(archive + ": entry " + name + " has tar type '" + type
                            + "', which a build-id cache does not use");
                }
            }
        }
    }

    private static Path inside(Path root, String name, Path archive) throws IOException {
        Path p = root.resolve(name).normalize();
        if (!p.startsWith(root)) {
            throw new IOException(archive + ": member " + name + " is outside the target directory");
        }
        return p;
    }

    private static String name(byte[] h) {
        String n = field(h, 0, 100);
        String prefix = field(h, 345, 155);
        // GNU tar's headers ("ustar  ") keep other data where POSIX has the prefix
        boolean posix = h[262] == 0;
        return posix && !prefix.isEmpty() ? prefix + "/" + n : n;
    }

    private static String field(byte[] h, int off, int len) {
        int e = off;
        while (e < off + len && h[e] != 0) {
            e++;
        }
        return new String(h, off, e - off, StandardCharsets.UTF_8);
    }

    private static String trimNul(String s) {
        int e = s.indexOf('\0');
        return e < 0 ? s : s.substring(0, e);
    }

    private static long octal(byte[] h, int off, int len) throws IOException {
        int i = off;
        int end = off + len;
        while (i < end && h[i] == ' ') {
            i++;
        }
        long v = 0;
        for (; i < end && h[i] >= '0' && h[i] <= '7'; i++) {
            v = v * 8 + (h[i] - '0');
        }
        if (i < end && h[i] != 0 && h[i] != ' ') {
            throw new IOException("bad octal number in a tar header");
        }
        return v;
    }

    private static boolean isZero(byte[] h) {
        for (byte b : h) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean readBlock(InputStream in, byte[] h) throws IOException {
        return in.readNBytes(h, 0, BLOCK) == BLOCK;
    }

    private static String readString(InputStream in, long size) throws IOException {
        if (size > 1 << 20) {
            throw new IOException("long name of " + size + " bytes");
        }
        byte[] b = in.readNBytes((int) size);
        if (b.length != size) {
            throw new IOException("truncated tar archive");
        }
        skipPadding(in, size);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void copy(InputStream in, OutputStream out, long size) throws IOException {
        byte[] buf = new byte[1 << 16];
        long left = size;
        while (left > 0) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (n < 0) {
                throw new IOException("truncated tar archive");
            }
            out.write(buf, 0, n);
            left -= n;
        }
    }

    private static void skipPadding(InputStream in, long size) throws IOException {
        in.skipNBytes((BLOCK - size % BLOCK) % BLOCK);
    }
}
