package io.perfj.export;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import io.perfj.profile.FlameTree;
import io.perfj.profile.Profile;
import io.perfj.session.Compat;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.PerfDataBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The flame graph's tree adds up, and its SVG is well-formed XML whatever the names hold. */
class FlameGraphSvgTest {
    @TempDir
    Path tmp;

    private static Document parse(byte[] svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg));
    }

    @Test
    void treeAddsUpAndEveryWideFrameIsDrawn() throws Exception {
        Profile p = ProfileFixtures.profile("bpf-sys", Compat.NONE);
        FlameTree t = FlameTree.of(p, i -> true, false);
        long weights = 0;
        for (int i = 0; i < p.sampleCount(); i++) {
            weights += p.weight(i);
        }
        assertEquals(weights, t.total(0));
        long[] sum = new long[t.size()];
        for (int n = 1; n < t.size(); n++) {
            assertTrue(t.parent(n) < n);
            sum[t.parent(n)] += t.total(n);
        }
        for (int n = 0; n < t.size(); n++) {
            assertEquals(t.total(n), t.self(n) + sum[n], "node " + n);
        }
        // by command: the root's children are the command names, with the same total
        FlameTree byComm = FlameTree.of(p, i -> true, true);
        assertEquals(t.total(0), byComm.total(0));
        java.util.Set<String> comms = new java.util.TreeSet<>();
        for (int th = 0; th < p.threadCount(); th++) {
            comms.add(p.comm(th));
        }
        java.util.Set<String> level1 = new java.util.TreeSet<>();
        for (int c : byComm.children()[0]) {
            level1.add(byComm.function(c).name());
        }
        assertEquals(comms, level1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FlameGraphSvg(t, "bpf-sys", "ns").write(out);
        Document d = parse(out.toByteArray());
        NodeList groups = d.getElementsByTagName("g");
        int drawn = 0;
        int wide = 0;
        for (int n = 0; n < t.size(); n++) {
            wide += t.total(n) * 1200.0 / t.total(0) >= 0.1 ? 1 : 0;
        }
        for (int i = 0; i < groups.getLength(); i++) {
            drawn += "f".equals(((Element) groups.item(i)).getAttribute("class")) ? 1 : 0;
        }
        assertTrue(drawn > 10 && drawn <= wide, drawn + " of " + wide);
    }

    /** A JIT symbol that is markup stays text: the parsed SVG holds it as written, and no element of it. */
    @Test
    void namesAreTextNotMarkup() throws Exception {
        String evil = "</script><img src=x onerror=alert(1)>&\"'";
        Files.writeString(tmp.resolve("perf-7.map"), "1000 100 " + evil + "\n");
        PerfDataBuilder b = new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);
        b.addAttr(b.attr(1, 0, 1000, SampleFormat.IP | SampleFormat.TID | SampleFormat.PERIOD, 0, 0), 1);
        byte[] file = "//anon".getBytes(StandardCharsets.UTF_8);
        ByteBuffer mmap = ByteBuffer.allocate(32 + 8 + (file.length + 8) / 8 * 8).order(ByteOrder.LITTLE_ENDIAN);
        mmap.putInt(7).putInt(7).putLong(0x1000).putLong(0x1000).putLong(0).put(file);
        b.add(b.recordRaw(RecordType.MMAP, 2, mmap.array()));
        b.add(b.record(RecordType.SAMPLE, 2, 0x1010, (7L << 32) | 7, 500));
        Path rec = tmp.resolve("jit.data");
        Files.write(rec, b.buildFile());
        Profile p;
        try (PerfData data = PerfData.open(rec)) {
            p = Profile.read(Session.of(data, SessionOptions.of(SymbolOptions.builder().buildIdDir(tmp).perfMapDir(tmp).noSystemFiles().build())),
                    Session.DEFAULT_MAX_STACK);
        }
        FlameTree t = FlameTree.of(p, i -> true, false);
        assertEquals(evil, t.function(1).name());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FlameGraphSvg(t, "<svg/onload=1>", "samples").write(out);
        Document d = parse(out.toByteArray());
        assertEquals(0, d.getElementsByTagName("img").getLength());
        assertEquals(1, d.getElementsByTagName("script").getLength());
        boolean found = false;
        NodeList groups = d.getElementsByTagName("g");
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            found |= evil.equals(g.getAttribute("data-n"));
        }
        assertTrue(found, "the name as an attribute value");
        assertEquals("<svg/onload=1>", d.getElementById("title") == null
                ? titleText(d) : d.getElementById("title").getTextContent());
        assertFalse(new String(out.toByteArray(), StandardCharsets.UTF_8).contains("<img"));
    }

    private static String titleText(Document d) {
        NodeList texts = d.getElementsByTagName("text");
        for (int i = 0; i < texts.getLength(); i++) {
            Element e = (Element) texts.item(i);
            if ("title".equals(e.getAttribute("id"))) {
                return e.getTextContent();
            }
        }
        return null;
    }

    /** Two recordings: each one's weights add up apart; a recording against itself changes nothing. */
    @Test
    void diffOfTwoRecordings() throws Exception {
        Profile a = ProfileFixtures.profile("c-fp", Compat.NONE);
        Profile b = ProfileFixtures.profile("two-events", Compat.NONE);
        FlameTree same = FlameTree.diff(a, i -> true, a, i -> true, true);
        for (int n = 0; n < same.size(); n++) {
            assertEquals(same.total(n), same.total2(n));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FlameGraphSvg(same, "same", "ns").write(out);
        String svg = out.toString(StandardCharsets.UTF_8);
        assertTrue(svg.contains("fill=\"rgb(255,255,255)\"") && !svg.contains("fill=\"rgb(255,5"), "no change, no colour");
        FlameTree d = FlameTree.diff(a, i -> true, b, i -> b.event(i) == 0, true);
        FlameTree ta = FlameTree.of(a, i -> true, true);
        FlameTree tb = FlameTree.of(b, i -> b.event(i) == 0, true);
        assertEquals(ta.total(0), d.total(0));
        assertEquals(tb.total(0), d.total2(0));
        assertTrue(d.size() >= Math.max(ta.size(), tb.size()));
        out.reset();
        new FlameGraphSvg(d, "diff", "ns").write(out);
        parse(out.toByteArray());
    }
}
