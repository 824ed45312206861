#!/bin/bash
# Cross-builds anchor-alert for the Pi (arm64, Pi OS trixie) with the Pi's own compiler version
# (Debian trixie's swiftlang 6.0.3) in the trixie build root, then runs it under qemu-aarch64.
#
#   image/cross-arm64.sh [--check-only]
#
# Prints the path of the arm64 binary (inside the work tree, under .build/trixie-arm64/) on the
# last line. --check-only builds every target (not only the binary): the Swift 6.0 check.
# Gotchas this handles: /proc must be mounted in the root (swift reads /proc/self/exe); the
# resource directory must be the arm64 static one; the link must use lld (the root's ld is
# amd64-only); SwiftPM reads .pc files itself and honours PKG_CONFIG_PATH, not PKG_CONFIG_LIBDIR.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROOT=$("$(dirname "$0")/trixie-root.sh")
SCRATCH=.build/trixie-arm64
PRODUCT=(--product anchor-alert)
[ "${1:-}" = --check-only ] && PRODUCT=()

say "swift build (Swift $(in_root "$ROOT" swift --version 2>/dev/null | sed -n 's/.*Swift version \([^ ]*\).*/\1/p'), aarch64, release, static Swift runtime)"
in_root "$ROOT" env PKG_CONFIG_PATH=/usr/lib/aarch64-linux-gnu/pkgconfig sh -c '
    cd /src && swift build -c release --triple aarch64-unknown-linux-gnu --static-swift-stdlib \
        -Xswiftc -use-ld=lld -Xswiftc -resource-dir -Xswiftc /opt/swift-arm64/usr/libexec/swift/lib/swift_static \
        --scratch-path '"$SCRATCH"' "$@"' sh "${RELEASE_LINK_FLAGS[@]}" "${PRODUCT[@]}" >&2 || die "cross build failed"

BIN=$SCRATCH/aarch64-unknown-linux-gnu/release/anchor-alert
[ -x "$REPO_ROOT/$BIN" ] || die "no binary at $BIN"
file "$REPO_ROOT/$BIN" | grep -q 'ARM aarch64' || die "$BIN is not an arm64 binary"
# The Swift runtime must be inside the binary: the Pi has no Swift runtime installed.
if in_root "$ROOT" readelf -d "/src/$BIN" | grep -q 'NEEDED.*libswift'; then
    die "$BIN links the Swift runtime dynamically"
fi
say "linked against: $(in_root "$ROOT" readelf -d "/src/$BIN" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')"
echo "$REPO_ROOT/$BIN"
