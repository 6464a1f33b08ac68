package io.perfj.record;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The system calls a recorder makes, by number through the C library's {@code syscall} and the
 * foreign function API (one downcall handle for all): {@code perf_event_open(2)}, {@code bpf},
 * {@code ioctl}, {@code mmap}, {@code munmap}, {@code ppoll}, {@code close}, {@code mknodat} (a
 * FIFO), {@code geteuid}, {@code clock_gettime}, {@code clock_getres}, {@code eventfd2},
 * {@code pidfd_open}, {@code write} and {@code rt_sigaction}. Each failure is a
 * {@link SysException} carrying errno. Linux on x86-64 and aarch64 only. Public for the other
 * callers of bpf(2) (the BTF encoder's kernel check): one place calls C.
 */
public final class Sys {
    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int ENOMEM = 12;
    static final int ENODEV = 19;
    static final int EINVAL = 22;
    static final int EACCES = 13;
    static final int EMFILE = 24;
    static final int ESRCH = 3;
    static final int EEXIST = 17;
    static final int EOPNOTSUPP = 95;

    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;

    static final short POLLIN = 1;
    static final short POLLERR = 0x8;
    static final short POLLHUP = 0x10;

    /** {@code _IO('$', n)} and {@code _IOR('$', 7, __u64 *)} of linux/perf_event.h. */
    static final long PERF_EVENT_IOC_ENABLE = 0x2400;
    static final long PERF_EVENT_IOC_DISABLE = 0x2401;
    static final long PERF_EVENT_IOC_SET_OUTPUT = 0x2405;
    static final long PERF_EVENT_IOC_ID = 0x80082407L;

    /** {@code PERF_FLAG_FD_CLOEXEC}. */
    static final long PERF_FLAG_FD_CLOEXEC = 8;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    /**
     * errno's offset in the captured state, found by walking the struct's members: a layout's
     * varHandle or byteOffset would first initialise the layout-path machinery (~6 ms of start).
     */
    private static final long ERRNO = errnoOffset();

    private static long errnoOffset() {
        long at = 0;
        for (MemoryLayout m : CAPTURE.memberLayouts()) {
            if ("errno".equals(m.name().orElse(null))) {
                return at;
            }
            at += m.byteSize();
        }
        throw new IllegalStateException("the linker's captured state has no errno");
    }
    private static final boolean X86_64 = switch (System.getProperty("os.arch")) {
        case "amd64", "x86_64" -> true;
        default -> false;
    };
    private static final boolean AARCH64 = "aarch64".equals(System.getProperty("os.arch"));
    /** A system call's number on x86-64 and on aarch64 (asm-generic), -1 elsewhere. */
    private static long nr(long x86, long arm) {
        return X86_64 ? x86 : AARCH64 ? arm : -1;
    }

    private static final long SYS_PERF_EVENT_OPEN = nr(298, 241);
    private static final long SYS_BPF = nr(321, 280);
    private static final long SYS_IOCTL = nr(16, 29);
    private static final long SYS_MMAP = nr(9, 222);
    private static final long SYS_MUNMAP = nr(11, 215);
    private static final long SYS_CLOSE = nr(3, 57);
    private static final long SYS_PPOLL = nr(271, 73);
    private static final long SYS_GETEUID = nr(107, 175);
    private static final long SYS_MKNODAT = nr(259, 33);
    private static final long SYS_CLOCK_GETTIME = nr(228, 113);
    private static final long SYS_CLOCK_GETRES = nr(229, 114);
    private static final long AT_FDCWD = -100;
    private static final long S_IFIFO = 0010000;

    private static final long SYS_RT_SIGACTION = nr(13, 134);
    private static final long SYS_EVENTFD2 = nr(290, 19);
    private static final long SYS_PIDFD_OPEN = nr(434, 434);
    private static final long SYS_WRITE = nr(1, 64);
    private static final long EFD_CLOEXEC = 02000000;
    private static final long EFD_NONBLOCK = 04000;

    /**
     * The C library's {@code syscall(nr, a1..a6)} with errno captured: every call goes through
     * this one handle, since each distinct C signature costs the JVM a downcall stub of its own
     * to generate at start (tens of milliseconds each, more than the rest of the set-up). An
     * unused argument is 0; a pointer is its address. {@code syscall} is variadic in C, but on
     * both architectures here variadic integer arguments travel exactly as fixed ones (x86-64's
     * %al only bounds vector registers, which the C library's {@code syscall} never reads), and
     * a fixed signature spares the linker's variadic path (~12 ms of the start).
     */
    private static final MethodHandle SYSCALL = handle("syscall", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));

    private Sys() {
    }

    private static MethodHandle handle(String name, FunctionDescriptor fd, Linker.Option... more) {
        Linker.Option[] opts = java.util.Arrays.copyOf(more, more.length + 1);
        opts[more.length] = Linker.Option.captureCallState("errno");
        return LIBC.find(name).map(a -> LINKER.downcallHandle(a, fd, opts)).orElse(null);
    }

    /** Whether this machine's perf_event_open is known (Linux on x86-64 or aarch64). */
    static boolean supported() {
        return SYS_PERF_EVENT_OPEN > 0 && "Linux".equals(System.getProperty("os.name")) && SYSCALL != null;
    }

    /** A system call's failure: the call's name and errno. */
    public static final class SysException extends RuntimeException {
        final int errno;

        SysException(String call, int errno) {
            super(call + " failed: " + describe(errno));
            this.errno = errno;
        }

        public int errno() {
            return errno;
        }
    }

    /** errno's name and the C library's text for the values a recorder meets. */
    static String describe(int errno) {
        return switch (errno) {
            case EPERM -> "EPERM (Operation not permitted)";
            case ENOENT -> "ENOENT (No such file or directory)";
            case ESRCH -> "ESRCH (No such process)";
            case EINTR -> "EINTR (Interrupted system call)";
            case EACCES -> "EACCES (Permission denied)";
            case ENODEV -> "ENODEV (No such device)";
            case EINVAL -> "EINVAL (Invalid argument)";
            case EMFILE -> "EMFILE (Too many open files)";
            case EEXIST -> "EEXIST (File exists)";
            case EOPNOTSUPP -> "EOPNOTSUPP (Operation not supported)";
            default -> "errno " + errno;
        };
    }

    private static int errno(MemorySegment state) {
        return state.get(ValueLayout.JAVA_INT, ERRNO);
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    /** {@code syscall(nr, a...)} (missing arguments 0): its result, or a SysException naming {@code call}. */
    private static long call(String call, long nr, long a1, long a2, long a3, long a4, long a5) {
        if (nr < 0 || SYSCALL == null) {
            throw new SysException(call, ENODEV);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            long r = (long) SYSCALL.invokeExact(st, nr, a1, a2, a3, a4, a5, 0L);
            if (r == -1) {
                throw new SysException(call, errno(st));
            }
            return r;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** perf_event_open(attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC): the new descriptor. */
    static int perfEventOpen(byte[] attr, int pid, int cpu, int groupFd) {
        if (!supported()) {
            throw new SysException("perf_event_open", ENODEV);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment at = a.allocate(attr.length, 8);
            MemorySegment.copy(attr, 0, at, ValueLayout.JAVA_BYTE, 0, attr.length);
            return (int) call("perf_event_open", SYS_PERF_EVENT_OPEN, at.address(), pid, cpu, groupFd,
                    PERF_FLAG_FD_CLOEXEC);
        }
    }

    /** bpf(cmd, attr, size): the call's non-negative result (a descriptor for the GET_FD commands). */
    public static int bpf(int cmd, MemorySegment attr) {
        if (SYS_BPF < 0) {
            throw new SysException("bpf", ENODEV);
        }
        return (int) call("bpf", SYS_BPF, cmd, attr.address(), attr.byteSize(), 0, 0);
    }

    static void ioctl(int fd, long request, long arg) {
        call("ioctl", SYS_IOCTL, fd, request, arg, 0, 0);
    }

    /** The kernel's sample id of an event descriptor (PERF_EVENT_IOC_ID). */
    static long eventId(int fd) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment id = a.allocate(ValueLayout.JAVA_LONG);
            call("ioctl(PERF_EVENT_IOC_ID)", SYS_IOCTL, fd, PERF_EVENT_IOC_ID, id.address(), 0, 0);
            return id.get(ValueLayout.JAVA_LONG, 0);
        }
    }

    /** A shared read-write mapping of {@code len} bytes of {@code fd}. */
    static MemorySegment mmap(int fd, long len) {
        long p = call("mmap", SYS_MMAP, 0, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd);
        return MemorySegment.ofAddress(p).reinterpret(len);
    }

    static void munmap(MemorySegment m) {
        call("munmap", SYS_MUNMAP, m.address(), m.byteSize(), 0, 0, 0);
    }

    public static void close(int fd) {
        try {
            call("close", SYS_CLOSE, fd, 0, 0, 0, 0);
        } catch (SysException e) {
            // EINTR or EBADF: the descriptor is gone either way
        }
    }

    /**
     * poll(2) on {@code fds} ({@code struct pollfd}: int fd, short events, short revents, 8
     * bytes each) for {@code timeoutMs}, without end if negative (as ppoll, which both
     * architectures have); the number of descriptors with events, 0 on EINTR.
     */
    static int poll(MemorySegment fds, int n, int timeoutMs) {
        if (timeoutMs < 0) {
            try {
                return (int) call("poll", SYS_PPOLL, fds.address(), n, 0, 0, 8);
            } catch (SysException e) {
                if (e.errno == EINTR) {
                    return 0;
                }
                throw e;
            }
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ts = a.allocate(16, 8);
            ts.set(ValueLayout.JAVA_LONG, 0, timeoutMs / 1000);
            ts.set(ValueLayout.JAVA_LONG, 8, (timeoutMs % 1000) * 1_000_000L);
            return (int) call("poll", SYS_PPOLL, fds.address(), n, ts.address(), 0, 8);
        } catch (SysException e) {
            if (e.errno == EINTR) {
                return 0;
            }
            throw e;
        }
    }

    /** A non-blocking eventfd (Linux 2.6.27): a descriptor another thread can make readable. */
    static int eventfd() {
        return (int) call("eventfd2", SYS_EVENTFD2, 0, EFD_CLOEXEC | EFD_NONBLOCK, 0, 0, 0);
    }

    /** A descriptor that becomes readable when process {@code pid} ends (Linux 5.3). */
    static int pidfdOpen(int pid) {
        return (int) call("pidfd_open", SYS_PIDFD_OPEN, pid, 0, 0, 0, 0);
    }

    /** Adds {@code n} to an eventfd's counter (write(2) of 8 bytes). */
    static void signal(int eventFd, long n) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(ValueLayout.JAVA_LONG);
            v.set(ValueLayout.JAVA_LONG, 0, n);
            call("write", SYS_WRITE, eventFd, v.address(), 8, 0, 0);
        }
    }

    /**
     * Gives signal {@code signo} its default action again where it is ignored, as a process
     * inherits it from a parent that ignored it (a shell's background job ignores SIGINT), so
     * that a handler can be installed for it; whether it was ignored. The kernel's struct
     * sigaction starts with the handler (SIG_IGN is 1); an all-zero one is SIG_DFL with no flags
     * and an empty mask on both architectures.
     */
    public static boolean unignore(int signo) {
        if (!supported()) {
            return false;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment old = a.allocate(32, 8);
            call("rt_sigaction", SYS_RT_SIGACTION, signo, 0, old.address(), 8, 0);
            if (old.get(ValueLayout.JAVA_LONG, 0) != 1) {
                return false;
            }
            MemorySegment dfl = a.allocate(32, 8);
            call("rt_sigaction", SYS_RT_SIGACTION, signo, dfl.address(), 0, 8, 0);
            return true;
        }
    }

    /** {@code clock_gettime(clockid)} in ns. */
    static long clockGettime(int clockid) {
        return clock(SYS_CLOCK_GETTIME, "clock_gettime", clockid);
    }

    /** {@code clock_getres(clockid)} in ns. */
    static long clockGetres(int clockid) {
        return clock(SYS_CLOCK_GETRES, "clock_getres", clockid);
    }

    private static long clock(long nr, String name, int clockid) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ts = a.allocate(16, 8);
            call(name + " of clock " + clockid, nr, clockid, ts.address(), 0, 0, 0);
            return ts.get(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L + ts.get(ValueLayout.JAVA_LONG, 8);
        }
    }

    /** The effective user id (0: root). */
    public static int geteuid() {
        return (int) call("geteuid", SYS_GETEUID, 0, 0, 0, 0, 0);
    }

    /** Whether bpf(2) is known on this machine (Linux on x86-64 or aarch64). */
    public static boolean bpfSupported() {
        return SYS_BPF > 0 && "Linux".equals(System.getProperty("os.name"));
    }

    /** The page size: the kernel's AT_PAGESZ in this process's auxiliary vector (4096 if unreadable). */
    static long pageSize() {
        try {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(java.nio.file.Files.readAllBytes(
                    java.nio.file.Path.of("/proc/self/auxv"))).order(java.nio.ByteOrder.nativeOrder());
            while (b.remaining() >= 16) {
                long type = b.getLong();
                long value = b.getLong();
                if (type == AT_PAGESZ && value > 0) {
                    return value;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // no auxv (not Linux): the common page size
        }
        return 4096;
    }

    private static final long AT_PAGESZ = 6;

    static void mkfifo(String path) {
        try (Arena a = Arena.ofConfined()) {
            call("mkfifo", SYS_MKNODAT, AT_FDCWD, a.allocateFrom(path).address(), S_IFIFO | 0600, 0, 0);
        }
    }
}
