#!/usr/bin/env bash
# Compiles the GPIO shim against libgpiod 2.x (Pi OS trixie's API; Debian 12 has only 1.6) and
# runs the shim's C checks linked against that library. Fetches Debian trixie's libgpiod-dev and
# libgpiod3 with a private apt state (this machine's sources are not touched) into a cache.
#
#   scripts/check-gpiod-v2.sh              compile + link + run the checks that need no GPIO
#   scripts/check-gpiod-v2.sh --build-only just build $GPIOD_V2_CACHE/bin/shim-check-v{1,2}
# Prints the paths of the two check binaries on its last line ("built: V1 V2").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${GPIOD_V2_CACHE:-/var/cache/anchor-alert-gpiod-v2}
mode=${1:-}
root=$cache/root
mkdir -p "$cache/bin"

if [ ! -f "$root/usr/include/gpiod.h" ] || [ -z "$(find "$root/usr/lib" -name libgpiod.so.3 2>/dev/null)" ]; then
    apt_dir=$cache/apt
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" > "$apt_dir/sources.list"
    opts=(-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" -o APT::Sandbox::User=root)
    echo "check-gpiod-v2: fetching libgpiod 2.x from Debian trixie (private apt state in $apt_dir)"
    apt-get "${opts[@]}" -qq update
    (cd "$apt_dir/debs" && apt-get "${opts[@]}" -qq download libgpiod-dev/trixie libgpiod3/trixie)
    rm -rf "$root"
    for deb in "$apt_dir"/debs/*.deb; do dpkg -x "$deb" "$root"; done
fi
lib=$(dirname "$(find "$root/usr/lib" -name 'libgpiod.so.3' | head -1)")
version=$(sed -n 's/^Version: //p' "$lib/pkgconfig/libgpiod.pc")
case "$version" in 2.*) ;; *) echo "check-gpiod-v2: FAILED: expected libgpiod 2.x, found '$version'"; exit 1;; esac

shim=$repo/Sources/CGPIOShim
flags=(-std=gnu11 -Wall -Wextra -Werror -I"$shim/include")
# v2: its headers first on the path, linked to its library.
gcc "${flags[@]}" -I"$root/usr/include" "$shim/gpio_shim.c" "$here/gpiod/shim-check.c" \
    -L"$lib" -l:libgpiod.so.3 -Wl,-rpath,"$lib" -o "$cache/bin/shim-check-v2"
# v1: the system's libgpiod 1.6, for the same checks side by side.
gcc "${flags[@]}" "$shim/gpio_shim.c" "$here/gpiod/shim-check.c" -lgpiod -o "$cache/bin/shim-check-v1"
echo "check-gpiod-v2: the shim compiles against libgpiod $version and $(pkg-config --modversion libgpiod) with -Werror"
if [ "$mode" != --build-only ]; then
    "$cache/bin/shim-check-v2" 2
    "$cache/bin/shim-check-v1" 1
fi
echo "built: $cache/bin/shim-check-v1 $cache/bin/shim-check-v2"
