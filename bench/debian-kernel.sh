# Sourced by the split-BTF bench scripts (not run): where bench/get-debian-kernel.sh unpacked the
# Debian 6.1 cloud kernel, and the summary of alternating pahole/perfj timings.
# kernel_dirs KDBG [img]: sets DBG (the -dbg package's modules directory), IMG (the -unsigned
# package's, required with "img") and VMLINUX, or exits when the packages are not there; then
# makes the scratch directory $tmp (NAME from the script's name), removed on exit.
kernel_dirs() {
    DBG=$(ls -d "$1"/dbg/usr/lib/debug/lib/modules/*/ 2>/dev/null | head -1)
    IMG=$(ls -d "$1"/img/lib/modules/*/ 2>/dev/null | head -1)
    VMLINUX="$DBG/vmlinux"
    [ -n "$DBG" ] && [ -e "$VMLINUX" ] || { echo "no vmlinux under $1 (run bench/get-debian-kernel.sh)" >&2; exit 1; }
    if [ "${2:-}" = img ] && [ -z "$IMG" ]; then
        echo "no -unsigned package under $1 (run bench/get-debian-kernel.sh)" >&2
        exit 1
    fi
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh).XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
}
# timing_summary FILE: FILE has lines "TOOL WALL USER SYS" (pahole and perfj, from /usr/bin/time
# -f); prints each run, each tool's median wall and CPU (user + sys), and perfj/pahole.
timing_summary() {
    local tool w c
    awk '{ printf "%-7s %7.2f s wall  %7.2f s user  %6.2f s sys\n", $1, $2, $3, $4 }' "$1"
    for tool in pahole perfj; do
        w=$(awk -v t=$tool '$1 == t { print $2 }' "$1" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
        c=$(awk -v t=$tool '$1 == t { print $3 + $4 }' "$1" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
        echo "$tool median: ${w} s wall, ${c} s CPU"
        eval "${tool}_w=$w ${tool}_c=$c"
    done
    awk -v a="$perfj_w" -v b="$pahole_w" -v c="$perfj_c" -v d="$pahole_c" \
        'BEGIN { printf "perfj/pahole: %.2fx wall, %.2fx CPU\n", a / b, c / d }'
}
