#!/usr/bin/env bash
# The slow-sync test for real (issue 14, "nothing on the loop waits"): in the test VM
# (../shared/vm/run-in-vm.sh) the journal is on ext4 on a dm-delay device that holds every write
# and every flush for AA_SLOW_DELAY_MS (1,000 ms), and ApplianceTests.LoopNeverWaitsTests
# (testOnARealSlowDiskTheBuzzerAndTheWatchdogKeepTime) runs there: the real EventLoop and
# BoxRuntime, the alarm ringing, the console on a pipe nobody reads, a decision whose record
# must reach that disk. It shows the buzzer's 0.2 s cadence and the watchdog's pings (1 s
# interval) all through the sync, and the receipt only after it. The same test on a simulated
# file system runs in the default `swift test`.
# About a minute and a half here (the VM's boot and emulation included), after the test build.
# Fails if the VM cannot start, the test failed or was skipped, or the sync was not slow.
# Last line: "slow-sync: N passed, N failed".
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
delay_ms=${AA_SLOW_DELAY_MS:-1000}
test_name=ApplianceTests.LoopNeverWaitsTests/testOnARealSlowDiskTheBuzzerAndTheWatchdogKeepTime

if [ "${1:-}" = "--in-vm" ]; then
    # Inside the VM, as root: a 64 MB ext4 on loop, behind dm-delay, the test on it.
    bundle=$2
    set -e
    modprobe loop; modprobe dm-delay; modprobe ext4 2>/dev/null || true
    truncate -s 64M /tmp/slow.img
    dev=$(losetup -f --show /tmp/slow.img)
    mkfs.ext4 -q -F "$dev"
    sectors=$(blockdev --getsz "$dev")
    # Reads at once; writes, and flushes (the third class, Linux 6.1 and later), delayed.
    if ! dmsetup create slow --table "0 $sectors delay $dev 0 0 $dev 0 $delay_ms $dev 0 $delay_ms" 2>/dev/null; then
        dmsetup create slow --table "0 $sectors delay $dev 0 0 $dev 0 $delay_ms"
    fi
    dmsetup mknodes slow   # no udev in the VM
    echo "dm-delay: $(dmsetup table slow)"
    mkdir -p /tmp/slow
    mount -t ext4 /dev/mapper/slow /tmp/slow
    set +e
    AA_SLOW_JOURNAL_DIR=/tmp/slow/journal AA_SLOW_DELAY_MS=$delay_ms "$bundle" "$test_name"
    rc=$?
    umount /tmp/slow; dmsetup remove slow; losetup -d "$dev"
    echo "section slow-sync: status $rc"
    exit $rc
fi

cd "$repo"
fail() { echo "test-slow-sync: FAILED: $*"; echo "slow-sync: 0 passed, 1 failed"; exit 1; }
vm=""
for d in "$repo/../shared" "$repo/../../shared"; do
    [ -x "$d/vm/run-in-vm.sh" ] && { vm=$(cd "$d" && pwd)/vm/run-in-vm.sh; break; }
done
[ -n "$vm" ] || fail "../shared/vm/run-in-vm.sh not found"
echo "test-slow-sync: building the tests"
swift build --build-tests -q 2>&1 | grep -E "error" ; [ "${PIPESTATUS[0]}" -eq 0 ] || fail "swift build --build-tests"
bundle=$(ls -d "$repo"/.build/debug/*PackageTests.xctest 2>/dev/null | head -1)
[ -n "$bundle" ] || fail "no test bundle under .build/debug"

echo "test-slow-sync: running inside the VM (dm-delay, ${delay_ms} ms a write and a flush)"
log=$(mktemp)
AA_SLOW_DELAY_MS=$delay_ms VM_PASS_ENV="AA_SLOW_DELAY_MS" "$vm" "$repo/scripts/test-slow-sync.sh --in-vm $bundle" > "$log" 2>&1; rc=$?
grep -vE "^Test Case '.*' started" "$log"
summary=$(grep -E "Executed [0-9]+ tests?," "$log" | tail -1)
rm -f "$log"
[ $rc -ne 125 ] || fail "the VM could not start (run-in-vm.sh exit 125)"
[ $rc -ne 124 ] || fail "the VM run timed out (run-in-vm.sh exit 124)"
[ $rc -eq 0 ] || fail "status $rc inside the VM"
echo "$summary" | grep -q "Executed 1 test, with 0 failures" || fail "expected 1 test run, 0 failures: $summary"
echo "$summary" | grep -q "skipped" && fail "the test was skipped inside the VM: $summary"
echo "slow-sync: 1 passed, 0 failed"
