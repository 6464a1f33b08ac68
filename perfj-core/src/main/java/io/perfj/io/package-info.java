/**
 * The one bounds-checked reader every parser uses: {@link io.perfj.io.Bytes} (a view over mapped
 * or heap memory with an explicit byte order; views over 2 GiB are read through 1 GiB windows)
 * and {@link io.perfj.io.Cursor}. A read out of range, anywhere, becomes a
 * {@link io.perfj.io.FormatException} naming the file, the structure and the offset.
 */
package io.perfj.io;
