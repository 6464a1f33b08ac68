/**
 * The profile the viewers share: {@code Profile} reads a recording once through the session and
 * keeps every sample (time, thread, CPU, event, weight, interned stack) in primitive columns;
 * {@code FlameTree} merges its stacks into a call tree (or two profiles' into a differential one)
 * by function.
 *
 * <p>Depends on {@code session}, {@code symbols}, {@code report}'s frame and stack tables and
 * {@code util}. Used by {@code export}, the browser UI ({@code serve}), the command line's
 * {@code flamegraph} and perfj-fleet. Internal: not exported.
 */
package io.perfj.profile;
