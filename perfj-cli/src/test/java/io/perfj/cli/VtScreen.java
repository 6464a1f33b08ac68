package io.perfj.cli;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What a terminal shows after the bytes a program wrote: enough of a VT100/xterm for jline's
 * {@code Display} (cursor moves and addressing, inserting, deleting and erasing characters, erasing to the end of
 * the line or screen, the
 * alternate screen, carriage return, line feed with scrolling, backspace); attributes and modes
 * are read and ignored. An output stream, so a jline terminal can write into it.
 */
final class VtScreen extends OutputStream {
    private final char[][] cells;
    private final int rows;
    private final int cols;
    private int r;
    private int c;
    private final StringBuilder pending = new StringBuilder();
    private final java.io.ByteArrayOutputStream raw = new java.io.ByteArrayOutputStream();

    VtScreen(int rows, int cols) {
        this.rows = rows;
        this.cols = cols;
        cells = new char[rows][cols];
        clear(0, rows);
    }

    private void clear(int from, int to) {
        for (int i = from; i < to; i++) {
            Arrays.fill(cells[i], ' ');
        }
    }

    @Override
    public synchronized void write(int b) {
        raw.write(b);
        // jline writes UTF-8; the tests' screens are ASCII
        char ch = (char) (b & 0xff);
        if (!pending.isEmpty() || ch == 27) {
            pending.append(ch);
            escape();
            return;
        }
        switch (ch) {
            case '\r' -> c = 0;
            case '\n' -> lineFeed();
            case '\b' -> c = Math.max(0, c - 1);
            case 7 -> {
            }
            default -> {
                if (ch >= ' ') {
                    if (c >= cols) {
                        c = 0;
                        lineFeed();
                    }
                    cells[r][c++] = ch;
                }
            }
        }
    }

    private void lineFeed() {
        if (r == rows - 1) {
            System.arraycopy(cells, 1, cells, 0, rows - 1);
            cells[rows - 1] = new char[cols];
            Arrays.fill(cells[rows - 1], ' ');
        } else {
            r++;
        }
    }

    private void escape() {
        String s = pending.toString();
        if (s.length() < 2) {
            return;
        }
        char kind = s.charAt(1);
        if (kind == '(' || kind == ')') {
            if (s.length() == 3) {
                pending.setLength(0);
            }
            return;
        }
        if (kind != '[') {
            pending.setLength(0);
            return;
        }
        char last = s.charAt(s.length() - 1);
        if (s.length() < 3 || last < 0x40 || last > 0x7e) {
            return;
        }
        pending.setLength(0);
        String body = s.substring(2, s.length() - 1);
        boolean priv = body.startsWith("?");
        String[] ps = (priv ? body.substring(1) : body).split(";", -1);
        int n = ps[0].isEmpty() ? 1 : Integer.parseInt(ps[0]);
        switch (last) {
            case 'A' -> r = Math.max(0, r - n);
            case 'B' -> r = Math.min(rows - 1, r + n);
            case 'C' -> c = Math.min(cols - 1, c + n);
            case 'D' -> c = Math.max(0, c - n);
            case 'G' -> c = Math.min(cols - 1, n - 1);
            case 'd' -> r = Math.min(rows - 1, n - 1);
            case 'H', 'f' -> {
                r = Math.min(rows - 1, n - 1);
                c = ps.length > 1 && !ps[1].isEmpty() ? Math.min(cols - 1, Integer.parseInt(ps[1]) - 1) : 0;
            }
            case '@' -> {
                // insert blanks at the cursor, the rest of the line moves right
                int k = Math.min(n, cols - c);
                System.arraycopy(cells[r], c, cells[r], c + k, cols - c - k);
                Arrays.fill(cells[r], c, c + k, ' ');
            }
            case 'P' -> {
                // delete characters at the cursor, the rest moves left
                int k = Math.min(n, cols - c);
                System.arraycopy(cells[r], c + k, cells[r], c, cols - c - k);
                Arrays.fill(cells[r], cols - k, cols, ' ');
            }
            case 'X' -> Arrays.fill(cells[r], c, Math.min(cols, c + n), ' ');
            case 'K' -> {
                int mode = ps[0].isEmpty() ? 0 : n;
                if (mode == 0) {
                    Arrays.fill(cells[r], Math.min(c, cols), cols, ' ');
                } else if (mode == 2) {
                    Arrays.fill(cells[r], ' ');
                }
            }
            case 'J' -> {
                int mode = ps[0].isEmpty() ? 0 : n;
                if (mode == 0) {
                    Arrays.fill(cells[r], Math.min(c, cols), cols, ' ');
                    clear(r + 1, rows);
                } else if (mode == 2) {
                    clear(0, rows);
                }
            }
            case 'h', 'l' -> {
                if (priv && body.equals("?1049")) {
                    clear(0, rows);
                    if (last == 'h') {
                        r = 0;
                        c = 0;
                    }
                }
            }
            default -> {
            }
        }
    }

    /** The screen's lines now, trailing blanks removed. */
    synchronized String text() {
        StringBuilder b = new StringBuilder();
        for (char[] line : cells) {
            b.append(new String(line).stripTrailing()).append('\n');
        }
        return b.toString();
    }

    /** Everything written so far. */
    synchronized String written() {
        return raw.toString(StandardCharsets.UTF_8);
    }
}
