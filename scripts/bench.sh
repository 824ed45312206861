#!/usr/bin/env bash
# The whole benchmark: detection (simulated nights and drags, receiver conditions, restarts,
# held-out receivers, real captures, every rule; tables on stdout, plots into Docs/benchmarks/)
# and the watch core's cost per fix under callgrind. Measures and prints; asserts nothing.
# The three parts of the detection run side by side (one process each, niced); extra arguments
# go to each (e.g. --nights 200 for a shorter run). Time: see Docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product anchor-bench >/dev/null
start=$SECONDS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pids=()
for part in main-good main-poor conditions held-out; do
    ( t0=$SECONDS; nice -n 5 .build/release/anchor-bench --part "$part" "$@" >"$tmp/$part.txt" 2>"$tmp/$part.err"
      echo "$part: $((SECONDS - t0)) s wall" >>"$tmp/$part.err" ) &
    pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
for part in main-good main-poor conditions held-out; do cat "$tmp/$part.txt"; done
for part in main-good main-poor conditions held-out; do tail -1 "$tmp/$part.err"; done
[ $rc = 0 ] || { echo "a part of the detection benchmark failed:"; cat "$tmp"/*.err; exit 1; }
echo "Detection benchmark: $((SECONDS - start)) s wall"

echo
echo "## Cost: instructions per fix through Watch.handle (10 Hz, holding, callgrind)"
if ! command -v valgrind >/dev/null; then
    echo "valgrind is not installed (scripts/packages/bench.txt): cost not measured"
    exit 0
fi
handle() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" .build/release/anchor-bench --cost-driver "$1" >/dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cg.$1" 2>/dev/null \
        | grep -E 'Watch.swift:\$s9WatchCore0A0V6handle_2at' | head -1 | awk '{gsub(",", "", $1); print $1}'
}
a=$(handle 1000)
b=$(handle 11000)
echo "Watch.handle: $(( (b - a) / 10000 )) instructions per fix (inclusive; difference of 11,000 and 1,000 fixes)"
# The same on a swinging boat with its speed (Docs/benchmarks.md, "The watch core").
a=$(ANCHOR_COST_SPEED=1 ANCHOR_COST_SWING=1 handle 1000)
b=$(ANCHOR_COST_SPEED=1 ANCHOR_COST_SWING=1 handle 11000)
echo "Watch.handle, a swinging boat with its speed: $(( (b - a) / 10000 )) instructions per fix"
