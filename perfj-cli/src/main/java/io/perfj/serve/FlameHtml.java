package io.perfj.serve;

import io.perfj.profile.FlameTree;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A flame graph as one self-contained HTML file ({@code perfj flamegraph -o OUT.html}): the
 * served UI's renderer and style sheet inlined, the graph's data embedded as JSON in a
 * {@code <script type="application/json">} element (every {@code <} written as {@code \u003c},
 * so no name can end the element), zoom and search in the page itself; nothing is fetched.
 */
public final class FlameHtml {
    /** Finer than the served graph's default: the file has no server to ask for detail on zoom. */
    static final double MIN_SHARE = 0.0002;

    private final FlameTree tree;
    private final String title;
    private final String unit;
    private final Recording sources;

    public FlameHtml(FlameTree tree, String title, String unit) {
        this(tree, title, unit, null);
    }

    /**
     * A page whose hover details also name each drawn function's source position, looked up in
     * {@code sources} (the recording the tree was made from; null: none).
     */
    public FlameHtml(FlameTree tree, String title, String unit, Recording sources) {
        this.tree = tree;
        this.title = title;
        this.unit = unit;
        this.sources = sources;
    }

    public void write(OutputStream out) throws IOException {
        JsonOut data = new JsonOut();
        data.object().field("title", title).field("unit", unit).name("graph");
        FlameIndex index = new FlameIndex(tree, null);
        new FlameView(index, new FlameView.Names() {
            @Override
            public FlameTree.Function function(int id) {
                return tree.functionAt(id);
            }

            @Override
            public String source(int id) {
                return sources.sourceText(sources.functionId(tree.functionAt(id)));
            }

            @Override
            public boolean sources() {
                return sources != null;
            }
        }).flame(data, 0, MIN_SHARE);
        data.endObject();
        String js = new String(Assets.resource("flame.js"), StandardCharsets.UTF_8);
        String css = new String(Assets.resource("style.css"), StandardCharsets.UTF_8);
        if (js.contains("</") || css.contains("</")) {
            throw new IllegalStateException("the renderer's text would end its element");
        }
        StringBuilder html = new StringBuilder(data.toString().length() + js.length() + css.length() + 1024);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>perfj flame graph</title>\n")
                .append("<style>\n").append(css).append("</style>\n</head>\n<body>\n")
                .append("<header><strong id=\"title\"></strong> <span class=\"search\"><input id=\"search\" type=\"search\" ")
                .append("placeholder=\"search functions\" autocomplete=\"off\"> <span id=\"search-info\"></span></span></header>\n")
                .append("<main><div class=\"crumbs\" id=\"crumbs\"></div>\n<div id=\"flame\"></div></main>\n")
                .append("<script type=\"application/json\" id=\"perfj-flame-data\">").append(data)
                .append("</script>\n<script>\n").append(js).append("</script>\n</body>\n</html>\n");
        out.write(html.toString().getBytes(StandardCharsets.UTF_8));
    }
}
