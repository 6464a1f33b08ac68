# Sourced by ./perfj and ./test: sets PERFJ_JAVA_HOME to a JDK 25 or newer, or exits with a message.
# Order: $JAVA_HOME, then JDKs under /usr/lib/jvm, then the `java` on PATH.
perfj_java_major() {
    # Sets PERFJ_MAJOR to the feature version of the JDK at $1 (e.g. 25), or to nothing. The
    # release file is read by the shell itself: this runs before every perfj command.
    local rel="$1/release" line
    PERFJ_MAJOR=
    if [ -r "$rel" ]; then
        while IFS= read -r line || [ -n "$line" ]; do
            case "$line" in
                JAVA_VERSION=\"[0-9]*)
                    line="${line#JAVA_VERSION=\"}"
                    PERFJ_MAJOR="${line%%[!0-9]*}"
                    return ;;
            esac
        done <"$rel"
        return
    fi
    if [ -x "$1/bin/java" ]; then
        PERFJ_MAJOR=$("$1/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')
    fi
}

perfj_find_jdk() {
    local cand
    for cand in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
        [ -n "$cand" ] && [ -x "$cand/bin/java" ] && [ -x "$cand/bin/javac" ] || continue
        perfj_java_major "$cand"
        if [ -n "$PERFJ_MAJOR" ] && [ "$PERFJ_MAJOR" -ge 25 ] 2>/dev/null; then
            PERFJ_JAVA_HOME="$cand"
            return 0
        fi
    done
    if command -v javac >/dev/null 2>&1; then
        cand=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
        perfj_java_major "$cand"
        if [ -n "$PERFJ_MAJOR" ] && [ "$PERFJ_MAJOR" -ge 25 ] 2>/dev/null; then
            PERFJ_JAVA_HOME="$cand"
            return 0
        fi
    fi
    echo "perfj: needs a JDK 25 or newer; none found in JAVA_HOME (${JAVA_HOME:-unset}), /usr/lib/jvm or on PATH." >&2
    echo "perfj: install one (e.g. Temurin 25: apt-get install temurin-25-jdk, or unpack it under /usr/lib/jvm) or set JAVA_HOME to it." >&2
    exit 3
}

perfj_find_jdk
export JAVA_HOME="$PERFJ_JAVA_HOME"
export PATH="$JAVA_HOME/bin:$PATH"
# Maven's own libraries touch sun.misc.Unsafe; keep JDK 25 quiet about it.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
