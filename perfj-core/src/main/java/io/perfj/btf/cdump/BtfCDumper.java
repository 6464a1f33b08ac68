package io.perfj.btf.cdump;

import io.perfj.btf.Btf;
import io.perfj.io.FormatException;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code bpftool btf dump file FILE format c}: every type of a BTF as a C header, byte for byte
 * what bpftool v7.1 prints. bpftool wraps libbpf's converter ({@link CDeclWriter}) in a
 * {@code __VMLINUX_H__} include guard and a {@code preserve_access_index} pragma (both skippable
 * with {@code BPF_NO_PRESERVE_ACCESS_INDEX}), and asks for each type id from 1 upwards in id order
 * (no sorting, no kfunc prototypes in that version); types that an earlier one already pulled in
 * are not written again. For split BTF the base's types are written first, as bpftool does.
 */
public final class BtfCDumper {
    private static final String HEADER = """
            #ifndef __VMLINUX_H__
            #define __VMLINUX_H__

            #ifndef BPF_NO_PRESERVE_ACCESS_INDEX
            #pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
            #endif

            """;
    private static final String TRAILER = """
            #ifndef BPF_NO_PRESERVE_ACCESS_INDEX
            #pragma clang attribute pop
            #endif

            #endif /* __VMLINUX_H__ */
            """;
    /** Deeply nested BTF recurses deeply; the dump runs on a thread with room for it. */
    private static final long STACK = 512L << 20;
    /** Up to this many types the recursion fits any thread's stack. */
    private static final int SMALL = 1000;

    private BtfCDumper() {
    }

    /** Writes the C header of a parsed BTF (split BTF: its base's types first) to {@code out}. */
    public static void dump(Btf btf, OutputStream out) throws IOException {
        dump(RawTypes.of(btf), out);
    }

    /** Same, as characters (the names are UTF-8 in BTF). */
    public static void dump(Btf btf, Appendable out) throws IOException {
        CText text = new CText(btf.typeCount() * 24);
        FormatException failure = run(RawTypes.of(btf), text);
        out.append(text.toString());
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * The fast path for a file: raw BTF or an ELF object's {@code .BTF}, split on {@code base}
     * (null for none), read straight into a {@link TypeTable} without building the object model.
     */
    public static void dumpFile(Path file, Path base, OutputStream out) throws IOException {
        TypeTable baseTypes = base == null ? null : RawTypes.load(base, null);
        dump(RawTypes.load(file, baseTypes), out);
    }

    /**
     * The whole header as bytes. A type cycle C cannot express fails with a
     * {@link FormatException}.
     */
    public static byte[] dump(TypeTable types) {
        CText text = render(types);
        return text.toByteArray();
    }

    /** Writes the header to {@code out}; on a type cycle writes what bpftool writes, then throws. */
    public static void dump(TypeTable types, OutputStream out) throws IOException {
        CText text = new CText(types.count() * 24);
        FormatException failure = run(types, text);
        text.writeTo(out);
        if (failure != null) {
            throw failure;
        }
    }

    private static CText render(TypeTable types) {
        CText text = new CText(types.count() * 24);
        FormatException failure = run(types, text);
        if (failure != null) {
            throw failure;
        }
        return text;
    }

    private static FormatException run(TypeTable types, CText text) {
        if (types.count() <= SMALL) {
            try {
                write(types, text);
                return null;
            } catch (Throwable e) {
                return failure(types, e);
            }
        }
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread worker = new Thread(null, () -> {
            try {
                write(types, text);
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "btf-c-dump", STACK);
        worker.start();
        try {
            worker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        Throwable e = thrown.get();
        return e == null ? null : failure(types, e);
    }

    private static FormatException failure(TypeTable types, Throwable e) {
        if (e instanceof FormatException f) {
            return f;
        }
        if (e instanceof CDeclWriter.TypeCycleException c) {
            return new FormatException(types.source(), "BTF type [" + c.id + "]", -1, "unsatisfiable type cycle");
        }
        if (e instanceof StackOverflowError) {
            return new FormatException(types.source(), "BTF types", -1, "type references nest too deeply (a cycle?)");
        }
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e instanceof Error err) {
            throw err;
        }
        throw new IllegalStateException(e);
    }

    private static void write(TypeTable types, CText text) {
        CDeclWriter w = new CDeclWriter(types, text);
        text.add(HEADER);
        int n = types.count();
        for (int id = 1; id < n; id++) {
            w.dumpType(id);
        }
        text.add(TRAILER);
    }
}
