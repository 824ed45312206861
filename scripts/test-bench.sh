#!/usr/bin/env bash
# CI check for the benchmark area: the detection benchmark still builds and runs end to end
# (a few nights and drags per receiver, real captures, tables, plots into a scratch directory),
# and the cost driver still runs. It measures; it asserts only that everything ran.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product anchor-bench >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
.build/release/anchor-bench --quick --plots "$out" >"$out/tables.txt"
for f in false-alarms.svg drag-0.5kn.svg drag-speeds-good-1hz.svg drag-speeds-poor-1hz.svg; do
    grep -q "</svg>" "$out/$f" || { echo "test-bench: FAIL: $f not written"; exit 1; }
done
grep -q "Box (defaults)" "$out/tables.txt" || { echo "test-bench: FAIL: no table"; exit 1; }
.build/release/anchor-bench --cost-driver 100 >/dev/null
echo "test-bench: PASS: quick benchmark ran ($(grep -c '^|' "$out/tables.txt") table rows, 4 plots)"
