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
import java.lang.invoke.VarHandle;

/**
 * The system calls a recorder makes, through the C library and the foreign function API:
 * {@code perf_event_open(2)} (by number, through {@code syscall}), {@code ioctl}, {@code mmap},
 * {@code munmap}, {@code poll}, {@code close} and {@code mkfifo}. Each failure is a
 * {@link SysException} carrying errno. Linux on x86-64 and aarch64 only. Public for the other
 * callers of bpf(2) (the BTF encoder's kernel check): one place calls C.
 */
public final class Sys {
    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int ENODEV = 19;
    static final int EINVAL = 22;
    static final int EACCES = 13;
    static final int EMFILE = 24;
    static final int ESRCH = 3;
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
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final long SYS_PERF_EVENT_OPEN = sysPerfEventOpen();
    private static final long SYS_BPF = switch (System.getProperty("os.arch")) {
        case "amd64", "x86_64" -> 321;
        case "aarch64" -> 280;
        default -> -1;
    };

    private static final MethodHandle SYSCALL = handle("syscall", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), Linker.Option.firstVariadicArg(1));
    private static final MethodHandle SYSCALL3 = handle("syscall", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG),
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle IOCTL = handle("ioctl", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle MMAP = handle("mmap", FunctionDescriptor.of(ValueLayout.ADDRESS,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    private static final MethodHandle MUNMAP = handle("munmap", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle POLL = handle("poll", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle CLOSE = handle("close", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT));
    private static final MethodHandle MKFIFO = handle("mkfifo", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

    private static final MethodHandle GETEUID = handle("geteuid", FunctionDescriptor.of(ValueLayout.JAVA_INT));
    private static final MethodHandle GETPAGESIZE = handle("getpagesize", FunctionDescriptor.of(ValueLayout.JAVA_INT));

    private Sys() {
    }

    private static long sysPerfEventOpen() {
        return switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> 298;
            case "aarch64" -> 241;
            default -> -1;
        };
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
            case EOPNOTSUPP -> "EOPNOTSUPP (Operation not supported)";
            default -> "errno " + errno;
        };
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
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

    /** perf_event_open(attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC): the new descriptor. */
    static int perfEventOpen(byte[] attr, int pid, int cpu, int groupFd) {
        if (!supported()) {
            throw new SysException("perf_event_open", ENODEV);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment at = a.allocate(attr.length, 8);
            MemorySegment.copy(attr, 0, at, ValueLayout.JAVA_BYTE, 0, attr.length);
            MemorySegment st = a.allocate(CAPTURE);
            long fd = (long) SYSCALL.invokeExact(st, SYS_PERF_EVENT_OPEN, at, (long) pid, (long) cpu,
                    (long) groupFd, PERF_FLAG_FD_CLOEXEC);
            if (fd < 0) {
                throw new SysException("perf_event_open", errno(st));
            }
            return (int) fd;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** bpf(cmd, attr, size): the call's non-negative result (a descriptor for the GET_FD commands). */
    public static int bpf(int cmd, MemorySegment attr) {
        if (SYS_BPF < 0) {
            throw new SysException("bpf", ENODEV);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            long r = (long) SYSCALL3.invokeExact(st, SYS_BPF, (long) cmd, attr, attr.byteSize());
            if (r < 0) {
                throw new SysException("bpf", errno(st));
            }
            return (int) r;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void ioctl(int fd, long request, long arg) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) IOCTL.invokeExact(st, fd, request, arg);
            if (r < 0) {
                throw new SysException("ioctl", errno(st));
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The kernel's sample id of an event descriptor (PERF_EVENT_IOC_ID). */
    static long eventId(int fd) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment id = a.allocate(ValueLayout.JAVA_LONG);
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) IOCTL.invokeExact(st, fd, PERF_EVENT_IOC_ID, id.address());
            if (r < 0) {
                throw new SysException("ioctl(PERF_EVENT_IOC_ID)", errno(st));
            }
            return id.get(ValueLayout.JAVA_LONG, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A shared read-write mapping of {@code len} bytes of {@code fd}. */
    static MemorySegment mmap(int fd, long len) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment p = (MemorySegment) MMAP.invokeExact(st, MemorySegment.NULL, len,
                    PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0L);
            if (p.address() == -1L) {
                throw new SysException("mmap", errno(st));
            }
            return p.reinterpret(len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void munmap(MemorySegment m) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) MUNMAP.invokeExact(st, m, m.byteSize());
            assert r == 0;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static void close(int fd) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) CLOSE.invokeExact(st, fd);
            assert r == 0 || errno(st) == EINTR;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * poll(2) on {@code fds} ({@code struct pollfd}: int fd, short events, short revents, 8
     * bytes each) for {@code timeoutMs}; the number of descriptors with events, 0 on EINTR.
     */
    static int poll(MemorySegment fds, int n, int timeoutMs) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) POLL.invokeExact(st, fds, (long) n, timeoutMs);
            if (r < 0) {
                int e = errno(st);
                if (e == EINTR) {
                    return 0;
                }
                throw new SysException("poll", e);
            }
            return r;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** clock_gettime and clock_getres, made on first use (only {@code record -k} asks). */
    private static final class Clocks {
        static final FunctionDescriptor FD = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS);
        static final MethodHandle GETTIME = handle("clock_gettime", FD);
        static final MethodHandle GETRES = handle("clock_getres", FD);
    }

    /** {@code clock_gettime(clockid)} in ns. */
    static long clockGettime(int clockid) {
        return clock(Clocks.GETTIME, "clock_gettime", clockid);
    }

    /** {@code clock_getres(clockid)} in ns. */
    static long clockGetres(int clockid) {
        return clock(Clocks.GETRES, "clock_getres", clockid);
    }

    private static long clock(MethodHandle h, String name, int clockid) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment ts = a.allocate(16, 8);
            int r = (int) h.invokeExact(st, clockid, ts);
            if (r < 0) {
                throw new SysException(name + " of clock " + clockid, errno(st));
            }
            return ts.get(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L + ts.get(ValueLayout.JAVA_LONG, 8);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The effective user id (0: root). */
    public static int geteuid() {
        try (Arena a = Arena.ofConfined()) {
            return (int) GETEUID.invokeExact(a.allocate(CAPTURE));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Whether bpf(2) is known on this machine (Linux on x86-64 or aarch64). */
    public static boolean bpfSupported() {
        return SYS_BPF > 0 && "Linux".equals(System.getProperty("os.name"));
    }

    static long pageSize() {
        try (Arena a = Arena.ofConfined()) {
            return (int) GETPAGESIZE.invokeExact(a.allocate(CAPTURE));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void mkfifo(String path) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) MKFIFO.invokeExact(st, a.allocateFrom(path), 0600);
            if (r < 0) {
                throw new SysException("mkfifo", errno(st));
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }
}
