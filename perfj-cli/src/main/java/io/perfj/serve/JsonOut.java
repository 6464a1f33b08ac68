package io.perfj.serve;

import io.perfj.io.Json;

/**
 * A JSON text built in order: objects, arrays, names and values, commas placed by the writer.
 * Strings are quoted by {@link Json#quote} in its HTML-safe form, so an answer can also be
 * embedded in a page's {@code <script type="application/json">} as it is.
 */
public final class JsonOut {
    private final StringBuilder sb = new StringBuilder(1 << 12);
    /** Per open level: whether a value was written (so the next needs a comma). */
    private boolean[] written = new boolean[16];
    private int depth;
    private boolean afterName;

    private void beforeValue() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (depth > 0) {
            if (written[depth]) {
                sb.append(',');
            }
            written[depth] = true;
        }
    }

    private JsonOut open(char c) {
        beforeValue();
        sb.append(c);
        if (++depth == written.length) {
            written = java.util.Arrays.copyOf(written, depth * 2);
        }
        written[depth] = false;
        return this;
    }

    public JsonOut object() {
        return open('{');
    }

    public JsonOut array() {
        return open('[');
    }

    /** Ends the innermost object or array. */
    public JsonOut end(char c) {
        depth--;
        sb.append(c);
        return this;
    }

    public JsonOut endObject() {
        return end('}');
    }

    public JsonOut endArray() {
        return end(']');
    }

    /** A member's name; its value comes next. */
    public JsonOut name(String n) {
        beforeValue();
        sb.append(Json.quote(n, true)).append(':');
        afterName = true;
        return this;
    }

    public JsonOut value(String s) {
        beforeValue();
        if (s == null) {
            sb.append("null");
        } else {
            sb.append(Json.quote(s, true));
        }
        return this;
    }

    public JsonOut value(long v) {
        beforeValue();
        sb.append(v);
        return this;
    }

    public JsonOut value(boolean v) {
        beforeValue();
        sb.append(v);
        return this;
    }

    /** A share, rounded to six decimals (enough for a percentage of a million samples). */
    public JsonOut share(double v) {
        beforeValue();
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            sb.append('0');
        } else {
            sb.append(Math.round(v * 1e6) / 1e6);
        }
        return this;
    }

    /** JSON text made elsewhere (by perfj), written as one value. */
    public JsonOut raw(String json) {
        beforeValue();
        sb.append(json);
        return this;
    }

    public JsonOut field(String n, String v) {
        return name(n).value(v);
    }

    public JsonOut field(String n, long v) {
        return name(n).value(v);
    }

    public JsonOut field(String n, boolean v) {
        return name(n).value(v);
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
