#!/bin/bash
# Builds the Debian package anchor-alert_<version>_<arch>.deb into out/.
#
#   image/build-deb.sh [--arch amd64|arm64] [--version V] [--lintian]
#
#   amd64  built here with this machine's Swift, for Debian 12 (the boot test's machine)
#   arm64  cross-built in the Debian trixie root with trixie's Swift 6.0.3, for Pi OS trixie
#          (image/cross-arm64.sh), and run once under qemu-aarch64 before it is packaged
#
# The binary is a release build with the Swift runtime linked in (--static-swift-stdlib): the
# target has no Swift installed. The version is 0.1.0~git<date>.<commit> unless given.
# --lintian also checks the package with lintian (the target's: trixie's for arm64).
# Prints the .deb's path on the last line.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ARCH=$(dpkg --print-architecture) VERSION= LINTIAN=0
while [ $# -gt 0 ]; do
    case $1 in
        --arch) ARCH=$2; shift 2;;
        --arch=*) ARCH=${1#*=}; shift;;
        --version) VERSION=$2; shift 2;;
        --version=*) VERSION=${1#*=}; shift;;
        --lintian) LINTIAN=1; shift;;
        -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0;;
        *) die "unknown argument $1 (see --help)";;
    esac
done
case $ARCH in amd64|arm64) ;; *) die "--arch must be amd64 or arm64";; esac
cd "$REPO_ROOT"
if [ -z "$VERSION" ]; then
    VERSION=0.1.0~git$(git log -1 --format=%cd --date=format:%Y%m%d 2>/dev/null || date +%Y%m%d).$(git rev-parse --short=8 HEAD 2>/dev/null || echo local)
    git diff --quiet HEAD 2>/dev/null || VERSION=$VERSION.dirty
fi
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

if [ "$ARCH" = amd64 ]; then
    need_host_tools dpkg-shlibdeps:dpkg-dev strip:binutils
    say "swift build -c release --static-swift-stdlib (amd64)"
    swift build -c release --static-swift-stdlib "${RELEASE_LINK_FLAGS[@]}" --product anchor-alert \
        --scratch-path .build/release-static >&2 ||
        die "swift build failed"
    BIN=.build/release-static/release/anchor-alert
    ./"$BIN" --help >/dev/null || die "the amd64 binary does not run"
    DEB=$(image/deb/assemble.sh "$BIN" amd64 "$VERSION" out)
    if [ "$LINTIAN" = 1 ]; then
        need_host_tools lintian:lintian
        say "lintian $DEB"
        lintian --info --display-info --pedantic "$DEB" >&2 || die "lintian found errors"
    fi
else
    BIN=$(image/cross-arm64.sh | tail -1)
    ROOT=$("$(dirname "$0")/trixie-root.sh")
    REL=${BIN#"$REPO_ROOT"/}
    say "qemu-aarch64 $REL --help"
    in_root "$ROOT" qemu-aarch64 "/src/$REL" --help >/dev/null || die "the arm64 binary does not run under qemu-aarch64"
    # The proof that the Pi's build works: a recorded departure through the arm64 watch under
    # emulation must give the same verdicts, alarm and summary as the native build.
    "$(dirname "$0")/replay-arm64.sh" "$REL" >&2 || die "the arm64 replay check failed"
    DEB=$(in_root "$ROOT" env SOURCE_DATE_EPOCH="$SOURCE_DATE_EPOCH" /src/image/deb/assemble.sh "/src/$REL" arm64 "$VERSION" /src/out)
    DEB=$REPO_ROOT/${DEB#/src/}
    if [ "$LINTIAN" = 1 ]; then
        in_root "$ROOT" sh -c 'command -v lintian >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lintian >/dev/null; }' ||
            die "could not install lintian in the trixie root"
        say "lintian (trixie) $DEB"
        in_root "$ROOT" lintian --info --display-info --pedantic "/src/${DEB#"$REPO_ROOT"/}" >&2 || die "lintian found errors"
    fi
fi
say "built $DEB ($(du -h "$DEB" | cut -f1))"
echo "$DEB"
