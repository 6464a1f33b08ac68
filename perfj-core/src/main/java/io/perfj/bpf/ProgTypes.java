package io.perfj.bpf;

/** BPF program type names by {@code enum bpf_prog_type} value, as libbpf and bpftool print them. */
public final class ProgTypes {
    private ProgTypes() {
    }

    private static final String[] NAMES = {
        "unspec", "socket_filter", "kprobe", "sched_cls", "sched_act", "tracepoint", "xdp", "perf_event",
        "cgroup_skb", "cgroup_sock", "lwt_in", "lwt_out", "lwt_xmit", "sock_ops", "sk_skb", "cgroup_device",
        "sk_msg", "raw_tracepoint", "cgroup_sock_addr", "lwt_seg6local", "lirc_mode2", "sk_reuseport",
        "flow_dissector", "cgroup_sysctl", "raw_tracepoint_writable", "cgroup_sockopt", "tracing",
        "struct_ops", "ext", "lsm", "sk_lookup", "syscall", "netfilter",
    };

    /** The type's name, or {@code type N} for one this table does not know (bpftool's form). */
    public static String name(long type) {
        return type >= 0 && type < NAMES.length ? NAMES[(int) type] : "type " + type;
    }
}
