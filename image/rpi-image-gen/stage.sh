#!/bin/bash
# Puts what the rpi-image-gen layer installs beside it: the arm64 package (built by
# image/build-deb.sh --arch arm64) and the system settings (image/system/).
#
#   image/rpi-image-gen/stage.sh [DEB]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd -P)
DEB=${1:-$(ls -t "$HERE"/../../out/anchor-alert_*_arm64.deb 2>/dev/null | head -1)}
[ -f "$DEB" ] || { echo "no arm64 package: run image/build-deb.sh --arch arm64" >&2; exit 1; }
D=$HERE/layer/anchor-alert.d
rm -f "$D"/anchor-alert_*_arm64.deb && cp "$DEB" "$D/"
rm -rf "$D/system" && cp -r "$HERE/../system" "$D/system"
echo "staged $(basename "$DEB") and image/system into $D"
