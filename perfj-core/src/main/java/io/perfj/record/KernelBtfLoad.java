package io.perfj.record;


import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * Asks the running kernel to load BTF: {@code bpf(BPF_BTF_LOAD)} (linux
 * {@code include/uapi/linux/bpf.h}) through {@link Sys#bpf}, the project's one foreign-function
 * syscall layer. The kernel's verifier is the strictest judge of a BTF blob; its log says
 * what it rejected. Needs CAP_BPF (or root); Linux on x86-64 or aarch64.
 */
public final class KernelBtfLoad {
    private static final int BPF_BTF_LOAD = 18;
    private static final int LOG_SIZE = 16 << 20;

    /** What the kernel said: success, or the errno and the verifier log. */
    public record Result(boolean loaded, int errno, String log) {
    }

    private KernelBtfLoad() {
    }

    /** Whether this process can try (bpf(2) known here, effective uid 0). */
    public static boolean available() {
        try {
            return Sys.bpfSupported() && Sys.geteuid() == 0;
        } catch (RuntimeException | LinkageError e) {
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
            try {
                int fd = Sys.bpf(BPF_BTF_LOAD, attr);
                Sys.close(fd);
                return new Result(true, 0, log.getString(0, StandardCharsets.UTF_8));
            } catch (Sys.SysException e) {
                return new Result(false, e.errno(), log.getString(0, StandardCharsets.UTF_8));
            }
        }
    }
}
