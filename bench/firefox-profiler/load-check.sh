#!/usr/bin/env bash
# The Firefox Profiler's own code as the consumer of `perfj export --format firefox`: bundles
# the profiler's loader (upgraders, processing) and the derived-table functions its call tree
# is built from with esbuild, runs them under node on each FILE (JSON or gzipped JSON), and
# prints per file the version, threads, stacks, frames, samples, the largest mean CPU use of a
# thread and the five functions with most self samples. Needs network for npm the first time.
# Usage: PROFILER=DIR bench/firefox-profiler/load-check.sh FILE...
#   PROFILER: a checkout of github.com/firefox-devtools/profiler (not shipped here)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="${PROFILER:?set PROFILER to a firefox-devtools/profiler checkout}"
WORK="$(mktemp -d /tmp/perfj-fxprof.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
cp -r "$SRC/src" "$WORK/src"
cp "$HERE/load-check.ts" "$WORK/entry.ts"
cd "$WORK"
echo '{"name":"perfj-fxprof-check","private":true}' > package.json
# the loader's packages only (versions as the profiler's package.json asks for them)
npm install --silent --no-audit --no-fund esbuild "@streamparser/json@^0.0.25" "common-tags@^1.8.2" \
    "long@^5.3.2" "memoize-immutable@^3.0.0" "namedtuplemap@^1.0.0" "protobufjs@^8.7.2" \
    "devtools-reps@^0.27.7" >/dev/null
# json-slabs (the profiler's binary container) is not on the npm registry: a stub that says
# "not that format", which is what a JSON file is
mkdir -p stubs
echo 'module.exports={isJsonSlabsFile:()=>false,decode:()=>{throw new Error("json-slabs stub")},encode:()=>{throw new Error("json-slabs stub")}};' > stubs/json-slabs.js
npx esbuild ./entry.ts --bundle --platform=node --outfile=check.js --alias:firefox-profiler=./src \
    --alias:json-slabs=./stubs/json-slabs.js --log-level=error
cd - >/dev/null
for f in "$@"; do
    echo "$f: $(node --max-old-space-size=4096 "$WORK/check.js" "$f")"
done
