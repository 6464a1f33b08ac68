# Sourced by the recording benchmarks (ROOT set): the C locale and UTC, makes TMP, builds perfj's jar, and starts one
# CPU-bound bin/hot per CPU for $1 seconds (their pids in LOAD); both are cleaned up at exit.
export LC_ALL=C TZ=UTC
TMP="$(mktemp -d)"
LOAD=""
trap 'kill $LOAD 2>/dev/null || true; rm -rf "$TMP"' EXIT
"$ROOT/perfj" --version >/dev/null
for c in $(seq "$(nproc)"); do
    "$ROOT/fixtures/bin/hot" "$1" >/dev/null &
    LOAD="$LOAD $!"
done
