#!/usr/bin/env bash
# The .BTF sections the Debian 6.1 cloud kernel build put into its modules (the -unsigned
# package's .ko files, split on vmlinux's .BTF), dumped by `perfj btf dump --base VMLINUX MOD.ko`
# and by `bpftool -B VMLINUX btf dump file MOD.ko`, raw and C; VMLINUX is the -dbg package's
# vmlinux (its .BTF section is the base the modules were built on). The raw dump is compared for
# every module; the C dump, which prints the whole base too (4 MB of C per module), for
# C_MODULES only. Prints one line per module whose dumps differ and a count of identical ones.
# Usage: bench/btf-module-sections-vs-bpftool.sh [KDBG] [MODULE...]
#   KDBG: where bench/get-debian-kernel.sh unpacked the packages (default /tmp/kdbg);
#   MODULE: paths under kernel/ without .ko (default: every module of the package);
#   C_MODULES (environment): also compared as C (default drivers/net/veth fs/xfs/xfs
#   net/netfilter/nf_tables).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
KDBG="${1:-/tmp/kdbg}"
shift $(( $# > 1 ? 1 : $# ))
export LC_ALL=C TZ=UTC
. "$ROOT/bench/debian-kernel.sh"
kernel_dirs "$KDBG" img
if [ $# -gt 0 ]; then
    for m in "$@"; do echo "$IMG/kernel/$m.ko"; done > "$tmp/list"
else
    find "$IMG/kernel" -name '*.ko' -type f | sort > "$tmp/list"
fi
echo "$(bpftool version | head -1), $(wc -l < "$tmp/list") modules of $(basename "$IMG"), $(date -u '+%F %H:%M UTC')," \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
C_MODULES="${C_MODULES:-drivers/net/veth fs/xfs/xfs net/netfilter/nf_tables}"
cat > "$tmp/one" <<ONE
#!/usr/bin/env bash
ko="\$1"
fmts=raw
case " $C_MODULES " in *" \$(m=\${ko#$IMG/kernel/}; echo \${m%.ko}) "*) fmts="raw c" ;; esac
for fmt in \$fmts; do
    if ! cmp -s <("$ROOT/perfj" btf dump --base "$VMLINUX" "\$ko" format \$fmt 2>&1) \\
                <(bpftool -B "$VMLINUX" btf dump file "\$ko" format \$fmt 2>&1); then
        echo "DIFFERS \$fmt \${ko#$IMG/kernel/}"
        exit 0
    fi
done
echo "same \$fmts \${ko#$IMG/kernel/}"
ONE
chmod +x "$tmp/one"
xargs -d '\n' -P "$(nproc)" -n 1 "$tmp/one" < "$tmp/list" > "$tmp/out"
grep '^DIFFERS' "$tmp/out" || true
echo "$(grep -c '^same' "$tmp/out" || true) of $(wc -l < "$tmp/list") modules: perfj's dumps identical to bpftool's" \
    "(raw; and C for $(grep -c '^same raw c ' "$tmp/out" || true) of them: $C_MODULES)"
