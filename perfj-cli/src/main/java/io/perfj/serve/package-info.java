/**
 * {@code perfj serve}'s browser UI: {@code Http1Server} (HTTP/1.1 with time limits, a connection
 * cap and the Host check), {@code UiServer} (the token, the security headers, the page's assets),
 * {@code Api} (the JSON answers: flame graph, call tree, top functions, timeline, annotate,
 * source, diff) over a {@code Recording} (one or two profiles and their indexes), and
 * {@code FlameHtml}, the self-contained page of {@code perfj flamegraph -o OUT.html}. The front
 * end is the plain JavaScript under {@code resources/io/perfj/serve/}.
 *
 * <p>Depends on {@code profile}, {@code report}, {@code session}, {@code symbols},
 * {@code annotate} and {@code bpf}. Used by the command line's {@code serve}, {@code flamegraph},
 * {@code top --web} and perfj-fleet's {@code fleet serve}.
 */
package io.perfj.serve;
