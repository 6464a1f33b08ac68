#!/usr/bin/env bash
# perfj fleet flamegraph of this checkout (B) against another checkout's (A: BASE), alternating
# A and B, and perfj fleet serve --exit-after-start of this checkout (summing every stack of
# every recording, then the first views): wall, CPU and peak RSS from /usr/bin/time, medians.
#
#     bench/fleet-serve.sh BASE DIR [RUNS]   # BASE: a checkout of the commit to compare with
#
# DIR: a fleet directory, e.g. the fleet/ that bench/fleet-scale.sh makes.
# The two pages' graphs are compared (each node's path of function names and its total).
set -euo pipefail
BASE="$1"
DIR="$2"
RUNS="${3:-3}"
ROOT="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
"$BASE/perfj" fleet --help >/dev/null 2>&1
"$ROOT/perfj" fleet --help >/dev/null 2>&1
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for i in $(seq 1 "$RUNS"); do
    for side in A B; do
        if [ "$side" = A ]; then R="$BASE"; else R="$ROOT"; fi
        /usr/bin/time -f "%e %U %S %M" -o "$OUT/t" "$R/perfj" fleet flamegraph "$DIR" -o "$OUT/$side.html" \
            >/dev/null 2>&1
        echo "$side $(cat "$OUT/t")" | tee -a "$OUT/flame"
    done
    /usr/bin/time -f "%e %U %S %M" -o "$OUT/t" "$ROOT/perfj" fleet serve "$DIR" --exit-after-start \
        >/dev/null 2>"$OUT/serve.err"
    echo "serve $(cat "$OUT/t")" | tee -a "$OUT/flame"
done
for k in A B serve; do
    w=$(awk -v k="$k" '$1 == k {print $2}' "$OUT/flame" | median)
    c=$(awk -v k="$k" '$1 == k {print $3 + $4}' "$OUT/flame" | median)
    m=$(awk -v k="$k" '$1 == k {print $5}' "$OUT/flame" | median)
    echo "$k: median wall ${w} s, CPU ${c} s, peak RSS $((m / 1024)) MB"
done
grep "distinct stacks" "$OUT/serve.err" || true
python3 - "$OUT/A.html" "$OUT/B.html" <<'PY'
import json, re, sys
def paths(f):
    doc = json.loads(re.search(r'<script type="application/json"[^>]*>(.*?)</script>', open(f).read(), re.S).group(1))
    g = doc.get('graph', doc)
    n = g['nodes']
    names = {x[0]: x[1] + '/' + str(x[2]) for x in g['fns']}
    out, p = {}, []
    for i in range(len(n['parent'])):
        name = names.get(n['fn'][i], 'all')
        p.append(name if n['parent'][i] < 0 else p[n['parent'][i]] + ';' + name)
        out[p[i]] = out.get(p[i], 0) + n['total'][i]
    return out
a, b = paths(sys.argv[1]), paths(sys.argv[2])
print('graphs: %d and %d paths, %s' % (len(a), len(b), 'the same' if a == b else 'DIFFERENT'))
PY
echo "uptime: $(uptime)"
