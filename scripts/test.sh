#!/usr/bin/env bash
# Installs what is missing and runs every test: the unit and integration tests (swift test,
# with real gpsd, ALSA and the journal's crash tests), the GPIO tests inside the gpio-sim VM,
# and each area's scripted checks (scripts/test-*.sh). `--full` runs the longer suites too.
# Prints one closing line: "Checks: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
full=""
[ "${1:-}" = "--full" ] && full="--full"
# Each step's time limit (ANCHOR_STEP_LIMIT seconds): a step that hangs fails, named, and the
# steps after it still run, instead of the whole run meeting CI's limit with nothing said. The
# longest step takes about 250 s (test-image, its trixie root made beside the steps before it);
# --full runs longer suites.
limit=${ANCHOR_STEP_LIMIT:-1200}
[ -n "$full" ] && limit=${ANCHOR_STEP_LIMIT:-5400}
# A command under the limit: SIGTERM to its process group at the limit, SIGKILL 30 s later. On a
# terminal, in the terminal's own group (--foreground), so that Ctrl-C reaches it; then only the
# command itself is signalled at the limit. `step_limit=S limited ...` gives one command S.
limited() {
    local s=${step_limit:-$limit}
    if [ -t 0 ]; then timeout --foreground -k 30 "$s" "$@"; else timeout -k 30 "$s" "$@"; fi
}
passed=0; failed=0; failures=()
step() {
    local name=$1; shift
    local t0=$SECONDS rc
    echo "==> $name"
    "$@"; rc=$?
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1)); echo "==> $name: passed ($((SECONDS - t0)) s)"
    else
        failed=$((failed + 1)); failures+=("$name")
        if [ $((SECONDS - t0)) -ge "$limit" ]; then
            echo "==> $name: FAILED: stopped at its limit of $limit s (ANCHOR_STEP_LIMIT) ($((SECONDS - t0)) s)"
        else
            echo "==> $name: FAILED ($((SECONDS - t0)) s)"
        fi
    fi
}

# The VM's setup has failed once in a CI rehearsal for a reason that did not come back (its
# busybox check), while every VM test after it passed: try it up to three times, saying so.
vm_setup() {
    local try
    for try in 1 2 3; do
        step_limit=$((limit / 2)) limited ../shared/vm/run-in-vm.sh --setup && return 0   # 10 to 25 s here
        echo "VM setup: try $try of 3 failed"
        sleep 5
    done
    return 1
}

./scripts/install-deps.sh || { echo "install-deps failed"; exit 1; }

# The trixie build root that test-image cross-builds in takes minutes to make from an empty image
# cache, almost all of it download and unpacking: image/trixie-root.sh makes it in the
# background, at low priority and in its own process group, while the steps before test-image
# run. test-image waits for it; its own image/trixie-root.sh then finds the root made (it asks
# again under the root's lock), or makes it itself if the background run failed, which is
# printed before test-image starts.
root_log=$(mktemp)
# Its limit is two steps' (it runs beside them; a hang here is met by test-image making it).
setsid -w nice -n 10 timeout -k 30 $((2 * limit)) image/trixie-root.sh >"$root_log" 2>&1 &
root_pid=$!
trap '[ -z "$root_pid" ] || kill -- -"$root_pid" 2>/dev/null; [ -z "${kill_pid:-}" ] || kill -- -"$kill_pid" 2>/dev/null; rm -f "$root_log" ${kill_log:+"$kill_log"}' EXIT
root_wait() {
    [ -n "$root_pid" ] || return 0
    local t0=$SECONDS rc
    echo "==> waiting for the trixie build root (image/trixie-root.sh in the background)"
    wait "$root_pid"; rc=$?
    if [ "$rc" -eq 0 ]; then
        echo "==> trixie build root ready: $(tail -1 "$root_log") (waited $((SECONDS - t0)) s)"
    else
        echo "==> the background image/trixie-root.sh FAILED (exit $rc); test-image makes the root itself. Its log ended:"
        tail -20 "$root_log" | sed 's/^/    /'
    fi
    root_pid=""
}
if [ -x ../shared/vm/run-in-vm.sh ]; then
    step "VM setup (gpio-sim)" vm_setup
else
    echo "==> VM setup: ../shared/vm/run-in-vm.sh not found"; failed=$((failed + 1)); failures+=("VM setup")
fi
step "build" limited swift build --build-tests
# The gpsd tests run in scripts/test-gpsd.sh (prerequisite and leftover checks); the real-time
# siren test needs snd-aloop and runs inside the VM from scripts/test-ring.sh; the gpio-sim tests
# need the VM's kernel (scripts/test-gpio.sh); the slow-disk test needs the VM's dm-delay
# (scripts/test-slow-sync.sh). Each of those scripts fails on a skipped test, so none is left
# here to show as skipped.
step "swift test" limited swift test --skip-build --skip "DriversTests.GPSD" --skip "DriversTests.ALSASirenLoopbackTests" \
    --skip "DriversTests.GPIOSim" --skip "ApplianceTests.LoopNeverWaitsTests/testOnARealSlowDisk"
# The kill test waits on its box far more than it computes (200 cycles: 274 s, with 140 s of
# CPU including its build), and test-journal's fuzzers run for a fixed time each: the kill test
# starts beside test-journal (after test-image, which builds the release it runs), and its step
# waits for it and prints what it printed.
kill_pid="" kill_log=""
kill_start() {
    kill_log=$(mktemp)
    # Its own process group, as the build root's, so an early exit stops the boxes it runs too.
    setsid -w timeout -k 30 "$limit" scripts/test-kill.sh $full >"$kill_log" 2>&1 &
    kill_pid=$!
}
kill_finish() {
    local rc
    if [ -z "$kill_pid" ]; then
        limited scripts/test-kill.sh $full
        return
    fi
    wait "$kill_pid"; rc=$?
    kill_pid=""
    cat "$kill_log"; rm -f "$kill_log"
    [ $rc -eq 124 ] || [ $rc -eq 137 ] && echo "test-kill: stopped at its limit of $limit s (ANCHOR_STEP_LIMIT)"
    return "$rc"
}
for t in scripts/test-*.sh; do
    [ -e "$t" ] || continue
    [ "$t" = scripts/test-image.sh ] && root_wait
    if [ "$t" = scripts/test-journal.sh ] && [ -e scripts/test-kill.sh ]; then
        echo "==> test-kill: started beside test-journal"
        kill_start
    fi
    if [ "$t" = scripts/test-kill.sh ]; then
        step "test-kill" kill_finish
        continue
    fi
    step "$(basename "$t" .sh)" limited "$t" $full
done

echo
[ ${#failures[@]} -gt 0 ] && printf 'Failed: %s\n' "${failures[@]}"
echo "Checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
