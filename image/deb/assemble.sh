#!/bin/bash
# Assembles anchor-alert_<version>_<arch>.deb from a built binary and the files beside this
# script. Runs where the target's libraries are installed (dpkg-shlibdeps reads them): on this
# machine for amd64, in the trixie build root for arm64. Called by image/build-deb.sh.
#
#   assemble.sh BINARY ARCH VERSION OUTDIR
set -euo pipefail
BIN=$1 ARCH=$2 VERSION=$3 OUT=$4
HERE=$(cd "$(dirname "$0")" && pwd -P)
STRIP=strip
[ "$ARCH" = arm64 ] && STRIP=aarch64-linux-gnu-strip
[ "$(dpkg --print-architecture)" = "$ARCH" ] || export DEB_HOST_ARCH=$ARCH

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
s=$work/stage
install -d -m 755 "$s/DEBIAN" "$s/usr/bin" "$s/usr/lib/systemd/system" "$s/usr/lib/udev/rules.d" \
    "$s/usr/lib/systemd/system-generators" \
    "$s/etc/anchor-alert" "$s/usr/share/doc/anchor-alert" "$s/usr/share/man/man1" \
    "$s/usr/share/lintian/overrides"
install -m 755 "$BIN" "$s/usr/bin/anchor-alert"
"$STRIP" --strip-unneeded --remove-section=.comment --remove-section=.note "$s/usr/bin/anchor-alert"
install -m 644 "$HERE/anchor-alert.service" "$s/usr/lib/systemd/system/"
install -m 755 "$HERE/anchor-alert-generator" "$s/usr/lib/systemd/system-generators/"
install -m 644 "$HERE/60-anchor-alert.rules" "$s/usr/lib/udev/rules.d/"
install -m 644 "$HERE/anchor-alert.conf" "$s/etc/anchor-alert/"
install -m 644 "$HERE/copyright" "$HERE/README.Debian" "$s/usr/share/doc/anchor-alert/"
# The package is for the distribution it is assembled in (its libraries are that one's), and
# so are the lintian overrides: bookworm's lintian has a tag that trixie's no longer knows.
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
awk -v want="[$codename]" '/^#/ || /^$/ { next } /^\[/ { section = $0; next }
    section == "" || section == want' "$HERE/lintian-overrides" > "$s/usr/share/lintian/overrides/anchor-alert"
chmod 644 "$s/usr/share/lintian/overrides/anchor-alert"
gzip -9n < "$HERE/anchor-alert.1" > "$s/usr/share/man/man1/anchor-alert.1.gz"
{
    echo "anchor-alert ($VERSION) unstable; urgency=medium"
    echo
    echo "  * Built from the project's repository; its git log is the history."
    echo
    echo " -- Anchor Alert maintainers <anchor-alert@example.org>  $(date -R -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}")"
} | gzip -9n > "$s/usr/share/doc/anchor-alert/changelog.gz"
chmod 644 "$s/usr/share/man/man1/anchor-alert.1.gz" "$s/usr/share/doc/anchor-alert/changelog.gz"

# Runtime dependencies from the binary's NEEDED entries and the installed libraries' shlibs
# files, so the versions are the ones actually linked (libgpiod3 on trixie, libgpiod2 on bookworm).
mkdir -p "$work/src/debian"
printf 'Source: anchor-alert\n\nPackage: anchor-alert\nArchitecture: any\n' > "$work/src/debian/control"
shlibs=$(cd "$work/src" && dpkg-shlibdeps -O "$s/usr/bin/anchor-alert" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "assemble.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

size=$(du -sk --exclude=DEBIAN "$s" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@SIZE@/$size/" -e "s/@SHLIBS@/$shlibs/" \
    "$HERE/control.in" > "$s/DEBIAN/control"
echo /etc/anchor-alert/anchor-alert.conf > "$s/DEBIAN/conffiles"
install -m 755 "$HERE/postinst" "$HERE/prerm" "$HERE/postrm" "$s/DEBIAN/"
(cd "$s" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\n' | LC_ALL=C sort |
    xargs md5sum) > "$s/DEBIAN/md5sums"
chmod 644 "$s/DEBIAN/control" "$s/DEBIAN/conffiles" "$s/DEBIAN/md5sums"

mkdir -p "$OUT"
deb=$OUT/anchor-alert_${VERSION}_${ARCH}.deb
dpkg-deb --root-owner-group -Zxz --build "$s" "$deb" >/dev/null
echo "$deb"
