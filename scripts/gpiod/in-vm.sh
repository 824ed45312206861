#!/usr/bin/env bash
# Runs inside the test VM (as root), called by scripts/test-gpio.sh:
#   in-vm.sh HELPER BUNDLE SHIM_CHECK_V1 SHIM_CHECK_V2 [ANCHOR_ALERT SAMPLER]
# 1. the shim's C checks, v1 and v2 builds, on a gpio-sim chip;
# 2. the Swift drivers on gpio-sim (DriversTests.GPIOSimTests), as root;
# 3. the permission test as an unprivileged user on a chip only root may open;
# 4. with ANCHOR_ALERT and SAMPLER: the end-to-end test of `anchor-alert run` (e2e-in-vm.sh).
# Prints "section NAME: status N" after each part; exits non-zero if any part failed.
set -u
helper=$1 bundle=$2 v1=$3 v2=$4 binary=${5:-} sampler=${6:-}
export GPIO_SIM_HELPER=$helper
status=0

chip=$("$helper" create shimcheck buzzer arm-switch button) || { echo "section shim: cannot create a gpio-sim chip"; exit 1; }
sysfs=$("$helper" sysfs shimcheck)
"$v1" 1 "$chip" "$sysfs"; rc1=$?
"$helper" remove shimcheck
chip=$("$helper" create shimcheck buzzer arm-switch button)
sysfs=$("$helper" sysfs shimcheck)
"$v2" 2 "$chip" "$sysfs"; rc2=$?
"$helper" remove shimcheck
echo "section shim-v1: status $rc1"
echo "section shim-v2: status $rc2"
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || status=1

"$bundle" DriversTests.GPIOSimTests; rc=$?
echo "section drivers: status $rc"
[ $rc -eq 0 ] || status=1

chip=$("$helper" create permcheck buzzer arm-switch button)
ls -l "/dev/$chip"
# The unprivileged user runs a copy of the bundle in the guest's own /tmp: the checkout may sit
# under a directory only its owner can enter (a `mktemp -d` is 0700), and uid 65534 could not
# even start the bundle there ("Permission denied", status 126), which says nothing about GPIO.
own=$(mktemp -d /tmp/permcheck.XXXXXX)
chmod 755 "$own"
install -m 755 "$bundle" "$own/"
setpriv --reuid=65534 --regid=65534 --clear-groups env GPIO_SIM_PERMISSION_CHIP="$chip" \
    "$own/$(basename "$bundle")" DriversTests.GPIOSimPermissionTests; rc=$?
rm -rf "$own"
"$helper" remove permcheck
echo "section permission: status $rc"
[ $rc -eq 0 ] || status=1

if [ -n "$binary" ]; then
    "$(dirname "$0")/e2e-in-vm.sh" "$binary" "$helper" "$sampler"; rc=$?
    echo "section e2e: status $rc"
    [ $rc -eq 0 ] || status=1
fi
exit $status
