package io.perfj.btf.encode;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;

/**
 * Asks the running kernel to load BTF: {@code bpf(BPF_BTF_LOAD)} (linux
 * {@code include/uapi/linux/bpf.h}) through the C library's {@code syscall}, called with the
 * foreign function API. The kernel's verifier is the strictest judge of a BTF blob; its log says
 * what it rejected. Needs CAP_BPF (or root); x86-64 only (SYS_bpf = 321).
 */
public final class KernelBtfLoad {
    private static final long SYS_BPF_X86_64 = 321;
    private static final int BPF_BTF_LOAD = 18;
    private static final int LOG_SIZE = 16 << 20;

    /** What the kernel said: success, or the errno and the verifier log. */
    public record Result(boolean loaded, int errno, String log) {
    }

    private KernelBtfLoad() {
    }

    /** Whether this process can try (x86-64 Linux, effective uid 0). */
    public static boolean available() {
        if (!"amd64".equals(System.getProperty("os.arch")) && !"x86_64".equals(System.getProperty("os.arch"))) {
            return false;
        }
        if (!System.getProperty("os.name", "").equals("Linux")) {
            return false;
        }
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle geteuid = linker.downcallHandle(linker.defaultLookup().find("geteuid").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT));
            return (int) geteuid.invokeExact() == 0;
        } catch (Throwable e) {
            return false;
        }
    }

    /**
     * Loads {@code btf} into the kernel and closes the new BTF object again. The first try asks
     * for no log (the kernel's log of a large BTF lists every type and would overflow any small
     * buffer, failing the load with ENOSPC); a failure is retried with the log, to explain it.
     */
    public static Result load(byte[] btf) {
        Result quiet = load(btf, 0, 0);
        if (quiet.loaded()) {
            return quiet;
        }
        Result told = load(btf, 1, LOG_SIZE);
        return told.loaded() ? told : new Result(false, quiet.errno(), told.log());
    }

    private static Result load(byte[] btf, int logLevel, int logSize) {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        StructLayout cs = Linker.Option.captureStateLayout();
        VarHandle errnoHandle = cs.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        MethodHandle syscall = linker.downcallHandle(libc.find("syscall").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                        ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
                Linker.Option.firstVariadicArg(1), Linker.Option.captureCallState("errno"));
        MethodHandle close = linker.downcallHandle(libc.find("close").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(btf.length, 8);
            MemorySegment.copy(btf, 0, data, ValueLayout.JAVA_BYTE, 0, btf.length);
            MemorySegment log = arena.allocate(Math.max(1, logSize));
            // union bpf_attr, BPF_BTF_LOAD part: btf, btf_log_buf, btf_size, btf_log_size,
            // btf_log_level, btf_log_true_size
            MemorySegment attr = arena.allocate(32, 8);
            attr.set(ValueLayout.JAVA_LONG, 0, data.address());
            attr.set(ValueLayout.JAVA_LONG, 8, logLevel == 0 ? 0 : log.address());
            attr.set(ValueLayout.JAVA_INT, 16, btf.length);
            attr.set(ValueLayout.JAVA_INT, 20, logLevel == 0 ? 0 : logSize);
            attr.set(ValueLayout.JAVA_INT, 24, logLevel);
            MemorySegment state = arena.allocate(cs);
            long fd = (long) syscall.invokeExact(state, SYS_BPF_X86_64, BPF_BTF_LOAD, attr, 32);
            String text = log.getString(0, StandardCharsets.UTF_8);
            if (fd < 0) {
                return new Result(false, (int) errnoHandle.get(state, 0L), text);
            }
            int closed = (int) close.invokeExact((int) fd);
            assert closed == 0;
            return new Result(true, 0, text);
        } catch (Throwable e) {
            if (e instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException("bpf(BPF_BTF_LOAD) could not be called: " + e, e);
        }
    }
}
