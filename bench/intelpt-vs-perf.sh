#!/usr/bin/env bash
# Intel PT decoding, perf 6.1 against perfj, on a trace large enough to measure: the corpus's
# q-intel_pt-4.14.data with its second AUXTRACE buffer (idx 3, 137,728 bytes) repeated COPIES
# times in place (default 73: a 10,054,144-byte trace). The file's data size, feature offsets and
# AUXTRACE index are moved to match, so both tools read it as a recording. Both print the same
# (compared below); times are /usr/bin/time's, medians of RUNS alternating runs.
# Usage: bench/intelpt-vs-perf.sh [RUNS (default 5)] [COPIES (default 73)]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${1:-5}"
COPIES="${2:-73}"
. "$ROOT/bench/alternate.sh"
BIG="$tmp/pt-big.data"
python3 - "$ROOT/fixtures/corpus/q-intel_pt-4.14.data" "$BIG" "$COPIES" <<'PY'
import struct, sys
src, dst, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = bytearray(open(src, 'rb').read())
magic, hsize, attr_size, a_off, a_size, d_off, d_size, t_off, t_size = struct.unpack_from('<8sQQQQQQQQ', b, 0)
feats = [i for i in range(256) if b[72 + i // 8] >> (i % 8) & 1]
# the AUXTRACE record (type 71) of buffer idx 3
pos, rec = d_off, None
while pos < d_off + d_size:
    typ, misc, size = struct.unpack_from('<IHH', b, pos)
    if typ == 71:
        aux_size, _, _, idx = struct.unpack_from('<QQQI', b, pos + 8)
        if idx == 3:
            rec = (pos, aux_size)
        pos += size + aux_size
    else:
        pos += size
r, n = rec
delta = n * (copies - 1)
payload = bytes(b[r + 48:r + 48 + n])
struct.pack_into('<Q', b, r + 8, n * copies)
struct.pack_into('<Q', b, 48, d_size + delta)
table = d_off + d_size
for k, f in enumerate(feats):
    off, size = struct.unpack_from('<QQ', b, table + 16 * k)
    struct.pack_into('<Q', b, table + 16 * k, off + delta)
    if f == 18:  # HEADER_AUXTRACE: the AUXTRACE records' file offsets (and header sizes, unchanged)
        nr, = struct.unpack_from('<Q', b, off)
        for e in range(nr):
            eo, = struct.unpack_from('<Q', b, off + 8 + 16 * e)
            if eo > r:
                struct.pack_into('<Q', b, off + 8 + 16 * e, eo + delta)
out = b[:r + 48 + n] + payload * (copies - 1) + b[r + 48 + n:]
open(dst, 'wb').write(out)
print(f"{dst}: trace {n * copies} bytes, file {len(out)} bytes")
PY
PERFJ="$ROOT/perfj"
"$PERFJ" --train script report   # builds, and makes the start-up cache, outside the timings
cmp <(perf script -i "$BIG" 2>/dev/null) <("$PERFJ" script --compat perf-6.1 -i "$BIG" 2>/dev/null) \
    && echo "script outputs identical" || echo "script outputs differ"
for cmd in "script" "report --stdio"; do
    extra=()
    [ "$cmd" = script ] && extra=(--compat perf-6.1)
    PERF_CMD=(perf $cmd -i "$BIG")
    PERFJ_CMD=("$PERFJ" $cmd "${extra[@]}" -i "$BIG")
    alternate "$cmd" "$RUNS"
done
