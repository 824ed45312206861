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
#                                   qemu-system-aarch64 -M raspi3b: image/README.md)
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

step "amd64 package, lintian clean" image/build-deb.sh --arch amd64 --lintian &&
    step "install, remove, purge in a fresh Debian 12 root" image/test-install.sh "$(deb_amd64)"
step "arm64 package for Pi OS trixie (Swift 6.0.3 cross build, replay under qemu-aarch64, lintian)" \
    image/build-deb.sh --arch arm64 --lintian
if [ $FULL = 1 ]; then
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
        step "the Pi image: out/anchor-alert-pi-arm64.img from Debian trixie arm64" \
            image/build-pi-image.sh "$(deb_arm64)" &&
            step "boot test: the Pi image as the SD card of qemu-system-aarch64 -M raspi3b" \
                image/boot-test/boot-test.sh --pi out/anchor-alert-pi-arm64.img
    fi
fi
printf '%s\n' "${summary[@]}"
echo "image: $passed passed, $failed failed"
[ $failed = 0 ]
