#!/usr/bin/env bash
# CI check for the benchmark area (release build, as scripts/bench.sh):
# 1. The regression check: `anchor-bench --check`, a fixed set of simulated runs (fixed seeds)
#    through the box's watch core with its shipped defaults, judged only on outcomes against the
#    simulated truth. Any false alarm, missed drag (a 0.1 kn drag through dropouts or accuracy
#    bursts not rung within 5 minutes), missing GPS fault on readings too sparse to judge, or a
#    restart that says Holding far outside fails the build. About 10 s of run.
# 2. The check can fail: the same harness on the one-fix rule must fail, and so must the box
#    with its Doppler switched off (the fast 2 kn drags then ring too late).
# 3. The detection benchmark still builds and runs end to end (a few nights and drags per
#    receiver and condition, held-out folds, real captures, tables, plots into a scratch
#    directory), the cost driver, the tuning replay and the 10 Hz log writer still run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product anchor-bench >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! .build/release/anchor-bench --check >"$out/check.txt"; then
    grep -v '^ok ' "$out/check.txt"
    echo "test-bench: FAIL: the regression check failed"
    exit 1
fi
if .build/release/anchor-bench --check --rule one-fix >"$out/one-fix.txt"; then
    echo "test-bench: FAIL: the regression check passed the one-fix rule: it can't tell a broken verdict"
    exit 1
fi
if .build/release/anchor-bench --check --rule box:no-doppler >"$out/no-doppler.txt"; then
    echo "test-bench: FAIL: the regression check passed the box without its Doppler: it can't tell the fast-drag rule broken"
    exit 1
fi
.build/release/anchor-bench --quick --plots "$out" >"$out/tables.txt" 2>"$out/progress.txt"
for f in false-alarms.svg drag-0.5kn.svg drag-speeds-good-1hz.svg drag-speeds-poor-1hz.svg; do
    grep -q "</svg>" "$out/$f" || { echo "test-bench: FAIL: $f not written"; exit 1; }
done
for t in "Box (defaults)" "Held-out receivers" "Drags under dropouts" "Restarts"; do
    grep -q "$t" "$out/tables.txt" || { echo "test-bench: FAIL: no table: $t"; exit 1; }
done
.build/release/anchor-bench --cost-driver 100 >/dev/null
.build/release/anchor-bench --tune --quick >"$out/tune.txt"
grep -q "^| settings (BoxTuning.candidates)" "$out/tune.txt" || { echo "test-bench: FAIL: no tuning table"; exit 1; }
.build/release/anchor-bench --holding-log "$out/hold.nmea" 10 >/dev/null
[ "$(grep -c '^\$GPGGA' "$out/hold.nmea")" = 100 ] || { echo "test-bench: FAIL: holding log"; exit 1; }
echo "test-bench: PASS: $(tail -1 "$out/check.txt" | sed 's/^check: PASS: //'); one-fix fails it ($(tail -1 "$out/one-fix.txt" | sed 's/^check: FAIL: //')); the box without its Doppler fails it ($(tail -1 "$out/no-doppler.txt" | sed 's/^check: FAIL: //')); quick benchmark ran ($(grep -c '^|' "$out/tables.txt") table rows, 4 plots)"
