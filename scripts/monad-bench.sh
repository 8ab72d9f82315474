#!/usr/bin/env bash
# Times a Monad turn in rewind (Go, games/monad's benchmarks) and in the
# reference engine (Python) on the same conformance vectors, back to back,
# and prints them side by side.
#
# Usage: scripts/monad-bench.sh REF [COUNT] [REPEATS]
#
# REF is a directory holding the reference's game/ folder
# (dartmouth-cs98/18w-si32 at e5ae486), e.g.
#   mkdir -p /tmp/si32 && git -C 18w-si32 archive e5ae486 game | tar -x -C /tmp/si32
# It needs python3 with msgpack (Debian: python3-msgpack; $PYTHON picks the
# interpreter, default /usr/bin/python3 when it exists). COUNT is go test's
# -count (default 5), REPEATS the plays per vector on the reference
# (default 3). See docs/monad.md, "Speed".
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 3 ]; then
  echo "usage: $0 REF [COUNT] [REPEATS]" >&2; exit 2
fi
ref=$1 count=${2:-5} repeats=${3:-3}
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
if [ -z "${PYTHON:-}" ] && [ -x /usr/bin/python3 ]; then py=/usr/bin/python3; fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
(cd games/monad && go test -run '^$' -count "$count" \
  -bench '^(BenchmarkMonadRound4PlayersMidGame|BenchmarkMonadVector|BenchmarkMonadVectorParse)$') | tee "$out" | grep -E '^Benchmark' >&2
(cd games/colorfight2 && go test -run '^$' -count "$count" -bench '^BenchmarkRound$') | tee -a "$out" | grep -E '^Benchmark' >&2
echo "load between: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
"$py" scripts/monad-reference-bench.py "$ref" testdata/monad --repeats "$repeats" --go "$out"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
