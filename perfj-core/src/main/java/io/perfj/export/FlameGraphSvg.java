package io.perfj.export;

import io.perfj.profile.FlameTree;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A flame graph as one self-contained SVG file, in the manner of FlameGraph's flamegraph.pl:
 * the root at the bottom, callees above their callers, each frame as wide as its total weight,
 * siblings in name order. A script inside the file (no network, nothing fetched) zooms into a
 * clicked frame, searches by regular expression with the matched share of the weight, and
 * resets. Names from the recording only ever reach the page as escaped XML text and attribute
 * values; the script sets {@code textContent}, never markup.
 *
 * <p>A tree of two recordings ({@link FlameTree#diff}) is drawn as flamegraph.pl draws
 * difffolded.pl's output: frames as wide as the second recording's weight, red where a frame's
 * share of all the weight grew from the first recording to the second, blue where it shrank,
 * the deeper the colour the larger the change.
 */
public final class FlameGraphSvg {
    private static final int WIDTH = 1200;
    private static final int FRAME = 16;
    private static final int TOP = 44;
    private static final int BOTTOM = 24;
    private static final double MIN_WIDTH = 0.1;
    private static final double CHAR = 12 * 0.59;

    private final FlameTree tree;
    private final String title;
    private final String unit;

    /**
     * {@code unit}: how weights read ("ns" for the software clocks, which are shown as time;
     * anything else is printed after the number, e.g. "samples" or "events").
     */
    public FlameGraphSvg(FlameTree tree, String title, String unit) {
        this.tree = tree;
        this.title = title;
        this.unit = unit;
    }

    public void write(OutputStream stream) throws IOException {
        Writer out = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
        int[][] children = tree.children();
        int maxDepth = 0;
        long root = Math.max(1, weight(0));
        long rootA = Math.max(1, tree.total(0));
        double maxDelta = 0;
        if (tree.paired()) {
            for (int node = 1; node < tree.size(); node++) {
                maxDelta = Math.max(maxDelta, Math.abs(delta(node, rootA, root)));
            }
        }
        // x of each node in weight units, in drawing order
        long[] start = new long[tree.size()];
        int[] order = new int[tree.size()];
        int n = 0;
        int[] todo = new int[tree.size()];
        int top = 0;
        todo[top++] = 0;
        while (top > 0) {
            int node = todo[--top];
            if (node != 0 && weight(node) * (double) WIDTH / root < MIN_WIDTH) {
                continue;
            }
            order[n++] = node;
            maxDepth = Math.max(maxDepth, tree.depth(node));
            long x = start[node];
            int[] c = children[node];
            // children drawn left to right in name order: push in reverse
            long[] xs = new long[c.length];
            long at = x;
            for (int i = 0; i < c.length; i++) {
                xs[i] = at;
                at += weight(c[i]);
            }
            for (int i = c.length - 1; i >= 0; i--) {
                start[c[i]] = xs[i];
                todo[top++] = c[i];
            }
        }
        int height = TOP + (maxDepth + 1) * FRAME + BOTTOM;
        out.write("<?xml version=\"1.0\" standalone=\"no\"?>\n");
        out.write("<svg version=\"1.1\" width=\"" + WIDTH + "\" height=\"" + height + "\" viewBox=\"0 0 " + WIDTH + " "
                + height + "\" xmlns=\"http://www.w3.org/2000/svg\" data-total=\"" + root + "\" data-unit=\""
                + attr(unit) + "\">\n");
        out.write("<style>text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}"
                + "g.f rect{stroke:none}g.f:hover rect{stroke:#000;stroke-width:0.5}g.f{cursor:pointer}"
                + "#title{font-size:17px;text-anchor:middle}.ctl{cursor:pointer}</style>\n");
        out.write("<rect x=\"0\" y=\"0\" width=\"" + WIDTH + "\" height=\"" + height + "\" fill=\"#f8f8f0\"/>\n");
        out.write("<text id=\"title\" x=\"" + WIDTH / 2 + "\" y=\"24\">" + text(title) + "</text>\n");
        out.write("<text id=\"reset\" class=\"ctl\" x=\"10\" y=\"24\" visibility=\"hidden\">Reset zoom</text>\n");
        out.write("<text id=\"search\" class=\"ctl\" x=\"" + (WIDTH - 110) + "\" y=\"24\">Search</text>\n");
        out.write("<text id=\"matched\" x=\"" + (WIDTH - 110) + "\" y=\"" + (height - 8) + "\"></text>\n");
        out.write("<text id=\"details\" x=\"10\" y=\"" + (height - 8) + "\"> </text>\n");
        out.write("<g id=\"frames\">\n");
        StringBuilder b = new StringBuilder(256);
        for (int k = 0; k < n; k++) {
            int node = order[k];
            FlameTree.Function f = tree.function(node);
            String name = f == null ? "all" : f.name();
            double x = start[node] * (double) WIDTH / root;
            double w = weight(node) * (double) WIDTH / root;
            int y = height - BOTTOM - (tree.depth(node) + 1) * FRAME;
            b.setLength(0);
            String where = name + (f != null && f.object() != null ? " (" + f.object() + ")" : "") + ": ";
            String info = tree.paired()
                    ? where + "before " + amount(tree.total(node)) + " (" + percent(tree.total(node), rootA) + "), after "
                            + amount(weight(node)) + " (" + percent(weight(node), root) + "), "
                            + String.format(Locale.ROOT, "%+.2f", 100 * delta(node, rootA, root)) + " points"
                    : where + amount(weight(node)) + ", " + percent(weight(node), root);
            String fill = tree.paired() ? diffColor(delta(node, rootA, root), maxDelta) : color(f);
            b.append("<g class=\"f\" data-s=\"").append(start[node]).append("\" data-t=\"").append(weight(node))
                    .append("\" data-n=\"").append(attr(name)).append("\"><title>")
                    .append(text(info))
                    .append("</title><rect x=\"").append(fmt(x)).append("\" y=\"").append(y).append("\" width=\"")
                    .append(fmt(w)).append("\" height=\"").append(FRAME - 1).append("\" rx=\"2\" fill=\"")
                    .append(fill).append("\"/><text x=\"").append(fmt(x + 3)).append("\" y=\"").append(y + 11)
                    .append("\">").append(text(fit(name, w))).append("</text></g>\n");
            out.write(b.toString());
        }
        out.write("</g>\n<script><![CDATA[\n");
        out.write(SCRIPT);
        out.write("]]></script>\n</svg>\n");
        out.flush();
    }

    /** The width of a node: its weight, or in a tree of two the second recording's. */
    private long weight(int node) {
        return tree.paired() ? tree.total2(node) : tree.total(node);
    }

    /** The change of a node's share of all the weight, second recording minus first. */
    private double delta(int node, long rootA, long rootB) {
        return (double) tree.total2(node) / rootB - (double) tree.total(node) / rootA;
    }

    /** Red for growth, blue for shrinking, white for none, scaled by the largest change. */
    private static String diffColor(double d, double max) {
        int v = max == 0 ? 0 : (int) Math.round(200 * Math.min(1, Math.abs(d) / max));
        return d > 0 ? "rgb(255," + (255 - v) + "," + (255 - v) + ")"
                : d < 0 ? "rgb(" + (255 - v) + "," + (255 - v) + ",255)" : "rgb(255,255,255)";
    }

    /** The weight as the graph's unit reads it. */
    private String amount(long w) {
        if (unit.equals("ns")) {
            return String.format(Locale.ROOT, "%.3f ms", w / 1e6);
        }
        return w + " " + unit;
    }

    private static String percent(long w, long root) {
        return String.format(Locale.ROOT, "%.2f%%", 100.0 * w / root);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** As much of the name as fits in {@code w} pixels ("" when not even three characters do). */
    static String fit(String name, double w) {
        int chars = (int) ((w - 6) / CHAR);
        if (chars < 3) {
            return "";
        }
        return name.length() <= chars ? name : name.substring(0, chars - 2) + "..";
    }

    /** flamegraph.pl's warm colours, chosen from the name (so a function is one colour everywhere). */
    private static String color(FlameTree.Function f) {
        if (f == null) {
            return "rgb(240,150,60)";
        }
        int h = f.name().hashCode() * 0x9E3779B1;
        double a = ((h >>> 8) & 0xff) / 255.0;
        double c = ((h >>> 16) & 0xff) / 255.0;
        int r;
        int g;
        int bl;
        if (f.kernel()) { // kernel frames orange
            r = 220 + (int) (35 * a);
            g = 120 + (int) (80 * c);
            bl = 20;
        } else if (f.inlined()) {
            r = 230 + (int) (25 * a);
            g = 170 + (int) (60 * c);
            bl = 90;
        } else {
            r = 205 + (int) (50 * a);
            g = (int) (230 * c);
            bl = (int) (55 * a);
        }
        return "rgb(" + r + "," + g + "," + bl + ")";
    }

    static String text(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&apos;";
                default -> c < 0x20 && c != '\t' ? "\uFFFD" : null; // not allowed in XML 1.0
            };
            if (rep != null && b == null) {
                b = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (b != null) {
                if (rep != null) {
                    b.append(rep);
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
    }

    private static String attr(String s) {
        return text(s);
    }

    /** Zoom, search and reset; frames carry their start and width in weight units. */
    private static final String SCRIPT = """
            (function () {
              var svg = document.documentElement, W = %d, total = +svg.getAttribute('data-total');
              var frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));
              var details = document.getElementById('details'), matched = document.getElementById('matched');
              var reset = document.getElementById('reset'), search = document.getElementById('search');
              var CHAR = %s;
              function fit(name, w) {
                var chars = Math.floor((w - 6) / CHAR);
                if (chars < 3) return '';
                return name.length <= chars ? name : name.substring(0, chars - 2) + '..';
              }
              function zoom(s, t, depthOf) {
                frames.forEach(function (g) {
                  var gs = +g.getAttribute('data-s'), gt = +g.getAttribute('data-t');
                  var rect = g.querySelector('rect'), text = g.querySelector('text');
                  var x, w;
                  if (gs + gt <= s || gs >= s + t) { g.style.display = 'none'; return; }
                  g.style.display = '';
                  if (gs <= s && gs + gt >= s + t) { x = 0; w = W; g.style.opacity = gt > t ? 0.6 : 1; }
                  else { x = (gs - s) / t * W; w = gt / t * W; g.style.opacity = 1; }
                  rect.setAttribute('x', x.toFixed(2));
                  rect.setAttribute('width', w.toFixed(2));
                  text.setAttribute('x', (x + 3).toFixed(2));
                  text.textContent = fit(g.getAttribute('data-n'), w);
                });
              }
              frames.forEach(function (g) {
                g.addEventListener('click', function () {
                  zoom(+g.getAttribute('data-s'), +g.getAttribute('data-t'));
                  reset.setAttribute('visibility', 'visible');
                });
                g.addEventListener('mouseover', function () {
                  details.textContent = g.querySelector('title').textContent;
                });
                g.addEventListener('mouseout', function () { details.textContent = ' '; });
              });
              reset.addEventListener('click', function () {
                zoom(0, total);
                frames.forEach(function (g) { g.style.opacity = 1; });
                reset.setAttribute('visibility', 'hidden');
              });
              function find(re) {
                var spans = [];
                frames.forEach(function (g) {
                  var rect = g.querySelector('rect');
                  if (!rect.hasAttribute('data-fill')) rect.setAttribute('data-fill', rect.getAttribute('fill'));
                  if (re && re.test(g.getAttribute('data-n'))) {
                    rect.setAttribute('fill', 'rgb(230,0,230)');
                    spans.push([+g.getAttribute('data-s'), +g.getAttribute('data-t')]);
                  } else {
                    rect.setAttribute('fill', rect.getAttribute('data-fill'));
                  }
                });
                spans.sort(function (a, b) { return a[0] - b[0]; });
                var sum = 0, end = -1;
                spans.forEach(function (sp) {
                  var from = Math.max(sp[0], end), to = sp[0] + sp[1];
                  if (to > from) { sum += to - from; end = to; }
                });
                matched.textContent = re ? 'Matched: ' + (100 * sum / total).toFixed(2) + '%%' : '';
                search.textContent = re ? 'Clear' : 'Search';
                return sum;
              }
              search.addEventListener('click', function () {
                if (search.textContent === 'Clear') { find(null); return; }
                var term = window.prompt('Search for (regular expression):', '');
                if (term) {
                  try { find(new RegExp(term)); } catch (e) { matched.textContent = 'Not a regular expression'; }
                }
              });
              window.perfjFlameGraph = { zoom: zoom, find: find };
            })();
            """.formatted(WIDTH, Double.toString(CHAR));
}
