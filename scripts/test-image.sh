#!/bin/bash
# The image area's checks (issue 9): the Debian packages, their install in a fresh Debian 12
# root, the arm64 build for Pi OS trixie with the Pi's compiler and its run under emulation,
# and with --full the boot test of the amd64 twin of the Pi image.
#
#   scripts/test-image.sh           about 8 minutes on a fresh machine, 2 once the roots are cached
#   scripts/test-image.sh --full    plus the boot tests of the amd64 twin (about 16 minutes more)
#                                   and of the arm64 trixie twin under qemu-system-aarch64 (10 to
#                                   40 minutes here, by the load: image/README.md; software
#                                   emulation on one vCPU), then the Pi image's build
#                                   (image/build-pi-image.sh, about 4 minutes with the roots cached)
#                                   and its boot as a Raspberry Pi 3B (boot-test.sh --pi, under
#                                   qemu-system-aarch64 -M raspi3b: image/README.md), and the image
#                                   built again, which must give the same bits (about 3 minutes)
#
# Every step's output goes to stderr; the last line is "image: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
FULL=0; [ "${1:-}" = --full ] && FULL=1
passed=0 failed=0 summary=()
step() {   # step NAME COMMAND...
    local name=$1 t0 t1 rc; shift
    echo "== $name" >&2
    t0=$(date +%s)
    "$@" >&2; rc=$?
    t1=$(date +%s)
    if [ $rc = 0 ]; then passed=$((passed+1)); summary+=("ok   $name ($((t1-t0)) s)")
    else failed=$((failed+1)); summary+=("FAIL $name ($((t1-t0)) s, exit $rc)"); fi
    return $rc
}
deb_amd64() { ls -t out/anchor-alert_*_amd64.deb 2>/dev/null | head -1; }
deb_arm64() { ls -t out/anchor-alert_*_arm64.deb 2>/dev/null | head -1; }

# The install test is mostly the download and unpacking of a fresh Debian 12 root, the arm64
# step mostly compiling: the install test runs in the background beside the arm64 step, its
# output kept and printed whole after it, its verdict counted as any step's.
bg_pid="" bg_name="" bg_log="" bg_t0=0
trap '[ -z "$bg_pid" ] || kill "$bg_pid" 2>/dev/null; [ -z "$bg_log" ] || rm -f "$bg_log"' EXIT
step_bg() {   # step_bg NAME COMMAND...: starts it
    bg_name=$1; shift
    bg_log=$(mktemp); bg_t0=$(date +%s)
    "$@" >"$bg_log" 2>&1 &
    bg_pid=$!
}
step_bg_wait() {   # waits for the step step_bg started and counts it
    [ -n "$bg_pid" ] || return 0
    local rc t1
    wait "$bg_pid"; rc=$?; t1=$(date +%s); bg_pid=""
    echo "== $bg_name (ran in the background, $((t1 - bg_t0)) s)" >&2
    cat "$bg_log" >&2; rm -f "$bg_log"; bg_log=""
    if [ $rc = 0 ]; then passed=$((passed+1)); summary+=("ok   $bg_name ($((t1-bg_t0)) s, in the background)")
    else failed=$((failed+1)); summary+=("FAIL $bg_name ($((t1-bg_t0)) s, in the background, exit $rc)"); fi
}

step "amd64 package, lintian clean" image/build-deb.sh --arch amd64 --lintian &&
    step_bg "install, remove, purge in a fresh Debian 12 root" image/test-install.sh "$(deb_amd64)"
step "arm64 package for Pi OS trixie (Swift 6.0.3 cross build, replay under qemu-aarch64, lintian)" \
    image/build-deb.sh --arch arm64 --lintian
step_bg_wait
if [ $FULL = 1 ]; then
    # The card is reproducible: a second build from the same package, recipe and cache gives
    # the same image file (its sha256), not only the same manifest.
    pi_again() {
        local first second
        first=$(cut -d' ' -f1 out/anchor-alert-pi-arm64.img.sha256) || return 1
        image/build-pi-image.sh "$(deb_arm64)" >/dev/null || return 1
        second=$(cut -d' ' -f1 out/anchor-alert-pi-arm64.img.sha256)
        echo "first build sha256 $first, second $second"
        [ -n "$first" ] && [ "$first" = "$second" ]
    }
    if [ -n "$(deb_amd64)" ]; then
        step "boot test: the amd64 twin of the Pi image under QEMU" image/boot-test/boot-test.sh "$(deb_amd64)"
    else
        failed=$((failed+1)); summary+=("FAIL boot test: no amd64 package to boot")
    fi
    if [ -n "$(deb_arm64)" ]; then
        step "boot test: the arm64 trixie twin under qemu-system-aarch64 (libgpiod 2, gpsd 3.25)" \
            image/boot-test/boot-test.sh --arch arm64 "$(deb_arm64)"
    else
        failed=$((failed+1)); summary+=("FAIL arm64 boot test: no arm64 package to boot")
    fi
    if [ -n "$(deb_arm64)" ]; then
        if step "the Pi image: out/anchor-alert-pi-arm64.img from Debian trixie arm64" \
            image/build-pi-image.sh "$(deb_arm64)"; then
            step "boot test: the Pi image as the SD card of qemu-system-aarch64 -M raspi3b" \
                image/boot-test/boot-test.sh --pi out/anchor-alert-pi-arm64.img
            step "the Pi image again from the same inputs: the same card, bit for bit" pi_again
        fi
    fi
fi
printf '%s\n' "${summary[@]}"
echo "image: $passed passed, $failed failed"
[ $failed = 0 ]
