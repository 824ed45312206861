#!/usr/bin/env bash
# CI check for the benchmark area: the detection benchmark still builds and runs end to end
# (a few nights and drags per receiver, real captures, tables, plots into a scratch directory),
# the cost driver, the tuning replay and the 10 Hz log writer still run. It measures; it asserts only that everything ran.
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
.build/release/anchor-bench --tune --quick >"$out/tune.txt"
grep -q "^| defaults " "$out/tune.txt" || { echo "test-bench: FAIL: no tuning table"; exit 1; }
.build/release/anchor-bench --holding-log "$out/hold.nmea" 10 >/dev/null
[ "$(grep -c '^\$GPGGA' "$out/hold.nmea")" = 100 ] || { echo "test-bench: FAIL: holding log"; exit 1; }
echo "test-bench: PASS: quick benchmark ran ($(grep -c '^|' "$out/tables.txt") table rows, 4 plots)"
