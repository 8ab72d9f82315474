#!/usr/bin/env bash
# Times a Skyport player-turn in rewind (games/skyport/vectors'
# BenchmarkPlayerTurn) and in the reference server's own classes (Java) on
# the same six conformance vectors, back to back, and prints the ratio.
#
# Usage: scripts/skyport-bench.sh REF [VECTORS] [COUNT] [PASSES]
#
# REF is a checkout of the reference, pilsprog/skyport-logic at
# cf40a955eeb2ee545dba74da8def1968be38b048 (fetched into a scratch folder,
# never into this tree). Its libs/ and json/ are compiled in a temporary
# folder with scripts/skyport-reference-bench/Bench.java, after the one
# parser fix its vectors' README describes (WorldParser.java:149: JDK 8's
# String.split drops the leading empty string). It needs a JDK (Debian:
# default-jdk-headless). VECTORS is the vectors' folder (default
# ../shared/skyport), COUNT go test's -count (default 3), PASSES the
# reference's timed passes over the vectors (default 40). See
# docs/skyport.md, "Benchmark".
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 4 ]; then
  echo "usage: $0 REF [VECTORS] [COUNT] [PASSES]" >&2; exit 2
fi
ref=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
vectors=$(cd "${2:-../shared/skyport}" && pwd)
count=${3:-3} passes=${4:-40}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/classes"
cp "$ref"/libs/*.java "$ref"/json/*.java "$ref"/exceptions/*.java "$work/src/"
# The parser fix (a no-op on a checkout that has it already).
perl -0pi -e 's/String newArray\[\] = new String\[array\.length-1\];\s*System\.arraycopy\(array, 1, newArray, 0, array\.length-1\);[^\n]*\n\s*return newArray;/return array;/' "$work/src/WorldParser.java"
cp scripts/skyport-reference-bench/Bench.java "$work/src/"
javac -nowarn -d "$work/classes" "$work/src"/*.java 2>&1 | grep -v "^Note: " >&2 || true

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
go_out=$(cd games/skyport/vectors && REWIND_SKYPORT="$vectors" go test -run '^$' -bench '^BenchmarkPlayerTurn$' -benchmem -count "$count")
echo "$go_out" | grep -E '^Benchmark'
echo "load between: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
java_out=$(java -cp "$work/classes" Bench "$vectors" false false "$passes")
echo "$java_out"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
go_ns=$(echo "$go_out" | awk '/^BenchmarkPlayerTurn/ { for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op") print $i }' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
java_ns=$(echo "$java_out" | sed -E 's/.*: ([0-9.]+) ns per player-turn.*/\1/')
awk -v g="$go_ns" -v j="$java_ns" 'BEGIN { printf "median rewind %.0f ns, reference %.0f ns per player-turn: rewind is %.1fx faster\n", g, j, j / g }'
