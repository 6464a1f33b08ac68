package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** report --json: valid JSON carrying the same events, rows and percentages as the text report. */
class ReportJsonTest {
    /** A small strict JSON reader (objects, arrays, strings, numbers, true/false/null). */
    static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        static Object parse(String s) {
            Json j = new Json(s);
            Object v = j.value();
            j.ws();
            if (j.i != s.length()) {
                throw new IllegalArgumentException("trailing text at " + j.i);
            }
            return v;
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private Object value() {
            ws();
            char c = s.charAt(i);
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                ws();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    ws();
                    String k = string();
                    ws();
                    expect(':');
                    m.put(k, value());
                    ws();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect('}');
                        return m;
                    }
                }
            }
            if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                ws();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    ws();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect(']');
                        return l;
                    }
                }
            }
            if (c == '"') {
                return string();
            }
            if (s.startsWith("true", i)) {
                i += 4;
                return true;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return false;
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            int st = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            if (st == i) {
                throw new IllegalArgumentException("unexpected '" + c + "' at " + i);
            }
            return Double.parseDouble(s.substring(st, i));
        }

        private void expect(char c) {
            if (s.charAt(i) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + i);
            }
            i++;
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (s.charAt(i) != '"') {
                char c = s.charAt(i++);
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n' -> sb.append('\n');
                        case 't' -> sb.append('\t');
                        case 'r' -> sb.append('\r');
                        case 'u' -> {
                            sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                        }
                        default -> sb.append(e);
                    }
                } else if (c < 0x20) {
                    throw new IllegalArgumentException("control character in string at " + i);
                } else {
                    sb.append(c);
                }
            }
            i++;
            return sb.toString();
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void jsonCarriesTheTextReportsRows() {
        String f = Fixtures.recording("two-events").toString();
        String cache = BuildIdCacheFixture.dir().toString();
        CliFixtures.Run text = CliFixtures.run("report", "--stdio", "-i", f, "--buildid-dir", cache, "--no-system-files",
                "--no-children", "-g", "none", "--sort", "comm,dso,symbol");
        CliFixtures.Run json = CliFixtures.run("report", "--json", "-i", f, "--buildid-dir", cache, "--no-system-files",
                "--no-children", "-g", "none", "--sort", "comm,dso,symbol");
        assertEquals(0, json.rc(), json.err());
        Map<String, Object> root = (Map<String, Object>) Json.parse(json.out());
        List<Object> events = (List<Object>) root.get("events");
        assertEquals(2, events.size());
        List<String> textRows = text.out().lines().filter(ReportGoldenTest::isRow).map(String::strip).toList();
        List<String> jsonRows = new ArrayList<>();
        for (Object o : events) {
            Map<String, Object> ev = (Map<String, Object>) o;
            assertTrue(text.out().contains("of event '" + ev.get("event") + "'"), "event " + ev.get("event"));
            double sum = 0;
            for (Object eo : (List<Object>) ev.get("entries")) {
                Map<String, Object> e = (Map<String, Object>) eo;
                double pct = (Double) e.get("self_percent");
                sum += pct;
                jsonRows.add(String.format(Locale.ROOT, "%.2f%% %s %s [%s] %s", pct, e.get("comm"), e.get("dso"),
                        e.get("level"), e.get("symbol")));
            }
            assertEquals(100.0, sum, 0.01, "self percentages of an event add up to 100");
        }
        // The text rows end with perf's IPC placeholder columns ("-  -"), which JSON leaves out.
        List<String> normText = textRows.stream().map(r -> r.replaceAll("\\s+", " ").replaceAll(" - -$", "")).sorted().toList();
        assertEquals(normText, jsonRows.stream().map(r -> r.replaceAll("\\s+", " ")).sorted().toList());
    }
}
