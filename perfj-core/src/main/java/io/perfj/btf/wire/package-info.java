/**
 * The BTF wire layer (linux {@code include/uapi/linux/btf.h}): kind numbers and record layouts
 * ({@link io.perfj.btf.wire.Kinds}), the header ({@link io.perfj.btf.wire.Header}), the string
 * section ({@link io.perfj.btf.wire.StringSection}, {@link io.perfj.btf.wire.StringSectionBuilder})
 * and the type section as words ({@link io.perfj.btf.wire.TypeSection}). The object model's reader
 * ({@code io.perfj.btf.Btf}), the C dumper ({@code io.perfj.btf.cdump}) and the encoder
 * ({@code io.perfj.btf.encode}) all read and write BTF through it. Internal: not part of the API.
 */
package io.perfj.btf.wire;
