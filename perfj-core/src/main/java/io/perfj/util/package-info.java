/**
 * Small data structures without a home elsewhere: {@code LongIntMap} (open addressing over long
 * keys, cleared in O(1) by generations), {@code KeyedTables} (tables by a long key without
 * boxing) and {@code SharedWork} (numbered tasks shared by the caller and helper threads).
 *
 * <p>Depends on nothing of perfj. Used by {@code session}, {@code report}, {@code profile},
 * {@code export}, {@code annotate} and {@code btf.encode}. Internal: not exported.
 */
package io.perfj.util;
