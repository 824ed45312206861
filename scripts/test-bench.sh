#!/usr/bin/env bash
# CI check for the benchmark area (release build, as scripts/bench.sh):
# 1. The regression check: `anchor-bench --check`, a fixed set of simulated runs (fixed seeds)
#    through the box's watch core with its shipped defaults, judged only on outcomes against the
#    simulated truth. Any false alarm, missed drag (a 0.1 kn drag through dropouts or accuracy
#    bursts not rung within 5 minutes), missing GPS fault on readings too sparse to judge, or a
#    restart that says Holding far outside, or any second shown Holding with the boat beyond the
#    radius plus 3 noise, fails the build. About 20 s of run.
# 2. The check can fail: the same harness on the one-fix rule must fail, and so must the box
#    with its Doppler switched off (the fast 2 kn drags then ring too late), the box with each
#    guard the issue lists removed, and every peer's rule.
# 3. The detection benchmark still builds and runs end to end (a few nights and drags per
#    receiver and condition, held-out folds, real captures, tables, plots into a scratch
#    directory), the cost driver, the tuning replay and the 10 Hz log writer still run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product anchor-bench >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bench=.build/release/anchor-bench
# Every run below is independent: they run two at a time (the machine's two cores), in the
# order started, and are judged once all have ended, each as it would be alone.
slot() { while (( $(jobs -rp | wc -l) >= 2 )); do wait -n || true; done; }
job() { # NAME, then the command: its output in $out/NAME.txt, its exit status in $out/NAME.rc
    local name=$1; shift
    slot
    ( if "$@" >"$out/$name.txt" 2>"$out/$name.err"; then echo 0; else echo $?; fi >"$out/$name.rc" ) &
}
status() { cat "$out/$1.rc"; }
# 1. The regression check with the shipped defaults (about 25 s).
job check "$bench" --check
# 2. It can fail: the one-fix rule, the box without its Doppler (the fast 2 kn drags then ring
#    too late), each guard removed, each peer's rule.
job no-doppler "$bench" --check --rule box:no-doppler
# 3. The benchmark end to end, the tuning replay (each about 25 s).
job tune "$bench" --tune --quick
job tables "$bench" --quick --plots "$out"
# Each guard of the rule removed, and each peer's rule, must fail the check (issue 24): a knob
# set past what keeps it quiet or quick (ANCHOR_BOX_SET, Sources/Bench/Tuning.swift), or a guard
# taken out of the code (off=GUARD, Sources/WatchCore/WatchGuard.swift), each alone, up to its first failed run
# (--fail-fast: the cases from the last, where the traced nights stand). Two at a time.
# off=doppler-trust rings the traced nights of the receivers whose speed moves with their
# position; vi=0, vi=-1 (the independence test off) and off=speed-lags (a speed worked out from
# positions over 2 to 10 s taken for a Doppler) ring the mutant probe's good 6 m nights (below), and
# vt=2,vm=0.05 (the Doppler's threshold and minimum at their floors) its noisy-speed 15 m nights
# (RegressionCheck.mutantNights); off=wander-reach the held-out nights of excursions far beyond
# the wander. off=doppler-weak-or-burst rang no night alone with the trust gate in place
# (Docs/benchmarks.md, "The regression check in CI": 1,280 probe nights), so it stays a guard
# behind the gate and fails the check with the gate taken out as well: the poor receiver's
# traced burst night. off=doppler-now (the smoothed speed hastening after the readings stopped,
# or on readings below twice the reach) rings held-out filter speed 1210, 1463 and 2171;
# wt=3 (the excursions' tail at a third of the reach)
# noisy speed 1461 and 7680. The independence test's probe nights no longer ring with
# the test off alone, the Doppler held to the readings' own speed (off=doppler-now) standing in
# front of it there, so its three must-fail runs take that rule out as well: with it, they ring
# the probe's good 6 m nights besides 1210 and 1463. pm=0 (persistence counting from the radius
# after its 45 s floor alone, not after the receiver's longest quick outing) rings the mutant
# probe's good 6 m night 24, and so does pm=0.6 (persistence after 0.6 of that outing, where
# the shipped 0.75 is quiet). rs=21600 (the speed's reach fading over 6 h, not kept while the
# anchor is down) rings filter speed 1428 and held-out 3530. off=jumps (fixes that leap while the
# speed says the boat stayed counted on position alone) rings the mutant probe's good 10 m leaps
# nights 0, 3 and 7; off=jumps-untrusted (a leap called only on a trusted, independent speed)
# rings its nights 1, 12, 30, 38 and 92 in their first minutes, and jp=1000 (no prior for the
# step before it is measured, so no leap judged then) nights 1, 30 and 92. off=wander-quick-level
# (the reach learnt from outings about the slow level, so one riding on a slow wander teaches
# nothing) rings filter speed 528 and held-out noisy speed 7680. tm=2 (the speed trusted beyond
# twice its reach, not 2.3 times) rings held-out filter speed 3518 and 11260 and lagged speed 3822.
# off=persist-speed-trail (a persistence run shortened to its floor without asking that the
# speed carried the boat half the way the fixes rose) rings the mutant probe's good 6 m plain
# night 340, off=persist-speed-now (whatever the speed says when the run stands at the floor)
# its night 210, and off=persist-speed-independent (on any speed, one worked out from positions
# too) its good 6 m night 24 of a speed from positions over seconds. pv=0 (a slow drag waiting for
# the receiver's longest quick outing, the speed not asked) misses the check's 0.2 kn drags the
# speed saw, run 7 ringing 67 s after the exit against a 60 s limit. off=persist-speed-away (the
# run's average speed not asked) rang no probe night alone with the other two in place; its
# test is SlowDragTheSpeedSawTests. off=persist-rising (a held run counted in full even as its
# fixes fall back) rings the poor receiver's main-class nights 31, 354 and 785. off=doppler-slowing
# (the Doppler hastening however fast the readings fall) rings held-out filter-speed nights 13095
# and 15091 and lagged-speed nights 13805 and 19473, each the receiver's first large excursion after the
# speed's trust; vq=0.2 (the readings allowed to fall a fifth of their fastest, not 0.15) rings
# 13095 again. off=position-turning (on position alone, a fix counts however far its fixes
# have turned back) rings held-out coupled night 17430 and filter speed 25411, each the receiver's
# first excursion of its size.
t=off=doppler-trust
n=off=doppler-now
mutants="db=0.5 wd=1.5 ww=0.1 wd=6 off=weak-deadband $t vi=0,$n vi=-1,$n off=speed-lags,$n off=wander-reach off=doppler-weak-or-burst,$t wt=3 pm=0 pm=0.6 off=jumps off=jumps-untrusted jp=1000 off=persist-speed-trail off=persist-speed-independent off=persist-speed-now pv=0 off=persist-rising off=doppler-slowing vq=0.2 off=position-turning"
# Behind the slowing rule: on the check's nights the readings' slowing also quiets what these
# four quiet (the readings-now rule, the reach kept, the margin of 2.3, the Doppler's threshold
# and minimum), so each is removed with off=doppler-slowing, and the nights the slowing rule
# holds are left out (ANCHOR_CHECK_WITHOUT; filter speed 25411, which the turning rule holds as
# well, among them): what fails is the guard's own nights.
behind="$n rs=21600 tm=2 vt=2,vm=0.05"
# Behind the turning rule: the quick level's nights (filter speed 528, noisy speed 7680) are
# excursions that rang after their top too, so off=wander-quick-level is removed with
# off=position-turning, and the nights the turning rule holds (coupled 17430, filter speed
# 25411) are left out.
behind_turn="off=wander-quick-level"
peers="one-fix delay-5 delay-10 delay-20 delay-30 delay-60 yokuli esp32 ankerwache"
for m in $mutants; do job "mutant-$m" env ANCHOR_BOX_SET="$m" "$bench" --check --fail-fast; done
for m in $behind; do
    job "behind-$m" env ANCHOR_BOX_SET="$m,off=doppler-slowing" ANCHOR_CHECK_WITHOUT="a first excursion turning|the speed falling" "$bench" --check --fail-fast
done
for m in $behind_turn; do
    job "behind-$m" env ANCHOR_BOX_SET="$m,off=position-turning" ANCHOR_CHECK_WITHOUT="fixes turning back" "$bench" --check --fail-fast
done
for p in $peers; do job "peer-$p" "$bench" --check --fail-fast --rule "$p"; done
job one-fix "$bench" --check --rule one-fix
# The swing estimate on issue 26's night (a 28 m swing circle, a good receiver wandering 2.5 m
# slowly, the mark taken late a rode's length off, a 110 degree wind shift half way): 40 nights
# on seeds 100..139. Any wrong offer (a centre more than 10 m from the anchor) fails (the bench
# exits 1); how many nights settle is printed (Docs/benchmarks.md, "The swing on issue 26's night").
job swing "$bench" --swing-settle 100..139
wait
if [ "$(status check)" != 0 ]; then
    grep -v '^ok ' "$out/check.txt"
    echo "test-bench: FAIL: the regression check failed"
    exit 1
fi
if [ "$(status one-fix)" = 0 ]; then
    echo "test-bench: FAIL: the regression check passed the one-fix rule: it can't tell a broken verdict"
    exit 1
fi
if [ "$(status no-doppler)" = 0 ]; then
    echo "test-bench: FAIL: the regression check passed the box without its Doppler: it can't tell the fast-drag rule broken"
    exit 1
fi
passed=()
for m in $mutants; do [ "$(status "mutant-$m")" != 0 ] || passed+=("$m"); done
for m in $behind; do [ "$(status "behind-$m")" != 0 ] || passed+=("$m,off=doppler-slowing"); done
for m in $behind_turn; do [ "$(status "behind-$m")" != 0 ] || passed+=("$m,off=position-turning"); done
for p in $peers; do [ "$(status "peer-$p")" != 0 ] || passed+=("$p"); done
if [ ${#passed[@]} -gt 0 ]; then
    echo "test-bench: FAIL: the regression check passed with a guard removed or a peer's rule: ${passed[*]}"
    exit 1
fi
if [ "$(status swing)" != 0 ]; then
    tail -1 "$out/swing.txt"
    echo "test-bench: FAIL: the swing offered a wrong move"
    exit 1
fi
swing=$(tail -1 "$out/swing.txt")
[ "$(status tables)" = 0 ] || { tail -5 "$out/tables.err"; echo "test-bench: FAIL: the quick benchmark failed"; exit 1; }
for f in false-alarms.svg drag-0.5kn.svg drag-speeds-good-1hz.svg drag-speeds-poor-1hz.svg; do
    grep -q "</svg>" "$out/$f" || { echo "test-bench: FAIL: $f not written"; exit 1; }
done
for t in "Box (defaults)" "Held-out receivers" "Drags under dropouts" "Restarts"; do
    grep -q "$t" "$out/tables.txt" || { echo "test-bench: FAIL: no table: $t"; exit 1; }
done
[ "$(status tune)" = 0 ] || { tail -5 "$out/tune.err"; echo "test-bench: FAIL: the tuning replay failed"; exit 1; }
grep -q "^| settings (BoxTuning.candidates)" "$out/tune.txt" || { echo "test-bench: FAIL: no tuning table"; exit 1; }
"$bench" --cost-driver 100 >/dev/null
"$bench" --holding-log "$out/hold.nmea" 10 >/dev/null
[ "$(grep -c '^\$GPGGA' "$out/hold.nmea")" = 100 ] || { echo "test-bench: FAIL: holding log"; exit 1; }
echo "test-bench: PASS: $(tail -1 "$out/check.txt" | sed 's/^check: PASS: //'); $(echo $mutants $behind $behind_turn | wc -w) guards removed ($(echo $behind | wc -w) with the slowing rule, $(echo $behind_turn | wc -w) with the turning rule) and $(echo $peers | wc -w) peers' rules fail it; one-fix fails it ($(tail -1 "$out/one-fix.txt" | sed 's/^check: FAIL: //')); the box without its Doppler fails it ($(tail -1 "$out/no-doppler.txt" | sed 's/^check: FAIL: //')); quick benchmark ran ($(grep -c '^|' "$out/tables.txt") table rows, 4 plots); ${swing#swing-settle: }"
