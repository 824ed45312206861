#!/usr/bin/env bash
# The GPIO area's checks beyond `swift test`:
#  - the shim compiles against libgpiod 2.x (Pi OS trixie) and 1.6 (Debian 12), and its C checks
#    pass with both (scripts/check-gpiod-v2.sh);
#  - inside the test VM (../shared/vm/run-in-vm.sh), on the kernel's gpio-sim: the shim's C
#    checks with both libraries, the Swift drivers (DriversTests.GPIOSimTests) and the
#    permission test as an unprivileged user.
#  - the end-to-end test (skip with --no-e2e) (scripts/gpiod/e2e-in-vm.sh): the real `anchor-alert run`
#    on gpio-sim, armed by sliding the simulated switch, its chirps heard on the buzzer line.
#    It needs `run` to take its lines from the gpio.* keys.
# Fails if the VM cannot start, if any test failed or was skipped, or if fewer tests ran than
# the sources hold. Last line: "gpio: N passed, N failed".
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
e2e=1
for arg in "$@"; do [ "$arg" = --no-e2e ] && e2e=0; done

find_shared() {
    for d in "$repo/../shared" "$repo/../../shared"; do
        [ -x "$d/vm/run-in-vm.sh" ] && { (cd "$d" && pwd); return 0; }
    done
    return 1
}
fail() { echo "test-gpio: FAILED: $*"; echo "gpio: ${passed:-0} passed, ${failed:-1} failed"; exit 1; }

shared=$(find_shared) || fail "../shared/vm/run-in-vm.sh not found"
vm=$shared/vm/run-in-vm.sh
helper=$shared/vm/gpio-sim-chip.sh

echo "test-gpio: building the tests"
swift build --build-tests -q 2>&1 | grep -E "error|warning: unre" ; [ "${PIPESTATUS[0]}" -eq 0 ] || fail "swift build --build-tests"
bundle=$(ls -d "$repo"/.build/debug/*PackageTests.xctest 2>/dev/null | head -1)
[ -n "$bundle" ] || fail "no test bundle under .build/debug"

echo "test-gpio: libgpiod v2 compile check"
out=$("$repo/scripts/check-gpiod-v2.sh" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "check-gpiod-v2.sh (status $rc)"
read -r v1 v2 < <(echo "$out" | sed -n 's/^built: //p')

expected_drivers=$(grep -c '^    func test' "$repo/Tests/DriversTests/GPIOSimTests.swift")
expected_permission=$(grep -c '^    func test' "$repo/Tests/DriversTests/GPIOSimPermissionTests.swift")

e2e_args=""
if [ $e2e -eq 1 ]; then
    sampler=$(dirname "$v1")/line-sampler
    gcc -O2 -Wall -Werror -o "$sampler" "$repo/scripts/gpiod/line-sampler.c" || fail "building the line sampler"
    [ -x "$repo/.build/debug/anchor-alert" ] || fail "no .build/debug/anchor-alert"
    e2e_args="$repo/.build/debug/anchor-alert $sampler"
fi

echo "test-gpio: running inside the VM"
log=$(mktemp)
start=$(date +%s)
"$vm" "$repo/scripts/gpiod/in-vm.sh $helper $bundle $v1 $v2 $e2e_args" > "$log" 2>&1; rc=$?
elapsed=$(( $(date +%s) - start ))
grep -vE "^Test Case '.*' started" "$log"
[ $rc -ne 125 ] || fail "the VM could not start (run-in-vm.sh exit 125); see its console log above"
[ $rc -ne 124 ] || fail "the VM run timed out (run-in-vm.sh exit 124)"

# Each XCTest run ends with "Executed N tests, with ..." for 'Selected tests'; take the last
# summary of each run (the runs are separated by their 'section' lines).
summary() { # SECTION -> the last "Executed" line before "section SECTION:"
    awk -v s="section $1:" 'index($0, s) == 1 { print last; exit } /Executed [0-9]+ tests?,/ { last = $0 }' "$log"
}
count() { echo "$1" | sed -n 's/.*Executed \([0-9]*\) tests\{0,1\}, with.*/\1/p'; }
skipped() { echo "$1" | sed -n 's/.* \([0-9]*\) tests\{0,1\} skipped.*/\1/p'; }
failures() { echo "$1" | sed -n 's/.* \([0-9]*\) failures\{0,1\} .*/\1/p'; }

passed=0 failed=0 problems=()
for part in drivers:$expected_drivers permission:$expected_permission; do
    name=${part%%:*} want=${part##*:}
    line=$(summary "$name")
    n=$(count "$line"); s=$(skipped "$line"); f=$(failures "$line")
    n=${n:-0} s=${s:-0} f=${f:-0}
    grep -q "^section $name: status 0" "$log" || problems+=("$name: status not 0")
    [ "$n" -eq "$want" ] || problems+=("$name: ran $n tests, the sources hold $want")
    [ "$s" -eq 0 ] || problems+=("$name: $s skipped inside the VM")
    p=$((n - f - s))
    # A summary that does not add up (more failures than tests) is a failure, never a negative pass.
    [ "$p" -ge 0 ] || { problems+=("$name: $n tests but $f failed and $s skipped"); p=0; }
    passed=$((passed + p)); failed=$((failed + f + s))
    [ "$n" -ge "$want" ] || failed=$((failed + want - n))
done
if [ $e2e -eq 1 ]; then
    line=$(grep '^e2e: [0-9]* passed, [0-9]* failed' "$log" | tail -1)
    p=$(echo "$line" | sed -n 's/^e2e: \([0-9]*\) passed.*/\1/p'); f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed/\1/p')
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-1}))
    grep -q "^section e2e: status 0" "$log" || problems+=("end-to-end test")
    # Chirps whose rhythm the emulated loop merged: neither passed nor failed, and said so.
    untold=$(sed -n 's/^e2e: \([0-9]*\) chirps sounded but.*/\1/p' "$log" | tail -1)
fi
for shim in shim-v1 shim-v2; do
    if grep -q "^section $shim: status 0" "$log"; then passed=$((passed + 1)); else failed=$((failed + 1)); problems+=("$shim C checks"); fi
done
rm -f "$log"
echo "test-gpio: VM run took ${elapsed} s (boot included)"
[ ${#problems[@]} -eq 0 ] && [ $rc -eq 0 ] || fail "${problems[*]:-VM command status $rc}"
[ "${untold:-0}" -gt 0 ] && echo "test-gpio: ${untold} chirps sounded but their rhythm was not told apart (merged under emulation): not counted as passed"
echo "test-gpio: ok"
echo "gpio: $passed passed, $failed failed"
