#!/usr/bin/env bash
# Prints how many tests were skipped and why: one line per reason, most frequent first, from the
# surefire reports under */target/surefire-reports written after the file given as $1 (the
# start of the run), so that reports of earlier runs do not count. Always exits 0.
root="$(cd "$(dirname "$0")/.." && pwd)"
since="${1:-}"
files=()
while IFS= read -r f; do files+=("$f"); done < <(
    if [ -n "$since" ] && [ -e "$since" ]; then
        find "$root" -path '*/target/surefire-reports/TEST-*.xml' -newer "$since" 2>/dev/null
    else
        find "$root" -path '*/target/surefire-reports/TEST-*.xml' 2>/dev/null
    fi | sort)
[ "${#files[@]}" -gt 0 ] || exit 0
awk '
    function unxml(s) {
        gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s); gsub(/&apos;/, "\047", s)
        gsub(/&amp;/, "\\&", s)
        return s
    }
    /<testcase / { tests++ }
    /<skipped/ {
        reason = ""
        if (match($0, /message="[^"]*"/)) {
            reason = unxml(substr($0, RSTART + 9, RLENGTH - 10))
        } else if (match($0, /CDATA\[.*/)) {
            reason = substr($0, RSTART + 6)
            sub(/\]\]>.*/, "", reason)
        }
        sub(/^[A-Za-z0-9_.$]*(Exception|Error): /, "", reason)
        sub(/^Assumption failed: /, "", reason)
        if (reason == "" || reason == "Assumption failed") reason = "(no reason given)"
        count[reason]++
        skipped++
    }
    END {
        if (skipped == 0) { printf "perfj tests: %d, none skipped\n", tests; exit }
        printf "perfj tests: %d, %d skipped:\n", tests, skipped
        for (r in count) printf "%6d  %s\n", count[r], r | "sort -rn"
        close("sort -rn")
    }' "${files[@]}"
exit 0
