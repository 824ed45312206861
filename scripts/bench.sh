#!/usr/bin/env bash
# The whole benchmark: detection (simulated nights and drags, real captures, every rule; tables
# on stdout, plots into Docs/benchmarks/) and the watch core's cost per fix under callgrind.
# Measures and prints; asserts nothing. About 4 minutes on a loaded 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product anchor-bench >/dev/null
start=$SECONDS
.build/release/anchor-bench "$@"
echo "Detection benchmark: $((SECONDS - start)) s wall"

echo
echo "## Cost: instructions per fix through Watch.handle (10 Hz, holding, callgrind)"
if ! command -v valgrind >/dev/null; then
    echo "valgrind is not installed (scripts/packages/bench.txt): cost not measured"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
handle() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" .build/release/anchor-bench --cost-driver "$1" >/dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cg.$1" 2>/dev/null \
        | grep -E 'Watch.swift:\$s9WatchCore0A0V6handle_2at' | head -1 | awk '{gsub(",", "", $1); print $1}'
}
a=$(handle 1000)
b=$(handle 11000)
echo "Watch.handle: $(( (b - a) / 10000 )) instructions per fix (inclusive; difference of 11,000 and 1,000 fixes)"
