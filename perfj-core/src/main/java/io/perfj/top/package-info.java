/**
 * {@code perfj top}'s live profile: {@code LiveProfile} reads the recorder's pipe on one thread
 * (the process model kept current) and sums the samples' symbols on another; {@code TopView} is
 * the full-screen view's model, {@code LiveAnnotate} a live row's annotation from the sums per
 * sampled address ({@code SymbolAddresses}).
 *
 * <p>Depends on {@code session}, {@code symbols}, {@code report} (its snapshot is report's rows),
 * {@code annotate} and {@code bpf}. Used by the command line's {@code top} and the browser UI's
 * live mode. Internal: not exported.
 */
package io.perfj.top;
