#!/bin/bash
# Makes (or reuses) the Debian trixie build root in which anchor-alert is cross-built for the
# Pi: amd64 with arm64 as a foreign architecture, Debian's swiftlang 6.0.3 (the Pi's own
# compiler version), and the arm64 -dev libraries the drivers link against. Pi OS trixie is
# Debian trixie plus the Pi's kernel and firmware, so these are the libraries the box has.
#
#   image/trixie-root.sh          prints the root's path; builds it first when missing or stale
#   image/trixie-root.sh --force  rebuilds it
#
# About 4 minutes the first time (network), instant after that.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROOT=$IMAGE_CACHE/trixie-build
PACKAGES=(
    swiftlang lld qemu-user dpkg-dev pkgconf fakeroot file binutils-aarch64-linux-gnu lintian
    libc6-dev libgcc-14-dev libstdc++-14-dev
    libc6-dev:arm64 libgcc-14-dev:arm64 libstdc++-14-dev:arm64
    libgpiod-dev:arm64 libgps-dev:arm64 libasound2-dev:arm64 libsystemd-dev:arm64 libmosquitto-dev:arm64
)
stamp=$(printf '%s\n' "${PACKAGES[@]}" | sha256sum | cut -c1-16)

if [ "${1:-}" != --force ] && [ -f "$ROOT/.anchor-stamp" ] && [ "$(cat "$ROOT/.anchor-stamp")" = "$stamp" ]; then
    echo "$ROOT"; exit 0
fi
need_host_tools mmdebstrap:mmdebstrap
mkdir -p "$IMAGE_CACHE"
exec 9>"$IMAGE_CACHE/.trixie.lock"; flock 9
# Asked again under the lock: another run (scripts/test.sh makes the root in the background
# while its first steps run) may have finished the root while this one waited.
if [ "${1:-}" != --force ] && [ -f "$ROOT/.anchor-stamp" ] && [ "$(cat "$ROOT/.anchor-stamp")" = "$stamp" ]; then
    say "reusing $ROOT, made while this waited for its lock"
    echo "$ROOT"; exit 0
fi
# A root that only lacks packages is topped up: far cheaper than a new one.
if [ "${1:-}" != --force ] && [ -x "$ROOT/usr/libexec/swift/bin/swift" ] && [ -d "$ROOT/opt/swift-arm64" ]; then
    say "adding packages to $ROOT"
    if in_root "$ROOT" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"' \
        sh "${PACKAGES[@]}" >&2; then
        in_root "$ROOT" apt-get clean
        echo "$stamp" > "$ROOT/.anchor-stamp"
        echo "$ROOT"; exit 0
    fi
    say "topping up failed: making a new root"
fi
rm -rf "$ROOT" "$ROOT.tmp"
say "mmdebstrap trixie (amd64 + arm64) into $ROOT"
# The arm64 swiftlang .deb is fetched beside the root: its static standard library for
# aarch64 is the resource directory of the cross build (the amd64 swiftlang has only its own).
mmdebstrap --variant=apt --architectures=amd64,arm64 --skip=check/qemu \
    --include="$(IFS=,; echo "${PACKAGES[*]}")" \
    --customize-hook='chroot "$1" sh -c "mkdir -p /opt/swift-arm64 && cd /tmp && apt-get download -q swiftlang:arm64 && dpkg-deb -x swiftlang_*_arm64.deb /opt/swift-arm64 && rm -f swiftlang_*_arm64.deb"' \
    trixie "$ROOT.tmp" "$DEBIAN_MIRROR" >&2
echo "$stamp" > "$ROOT.tmp/.anchor-stamp"
mv "$ROOT.tmp" "$ROOT"
echo "$ROOT"
