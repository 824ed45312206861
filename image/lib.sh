# Shared helpers for the image/ scripts: sourced, never run.
# Everything built lives in one cache outside the work tree, so a `git clean` never throws away
# a build root that took minutes to make, and several work trees share it.
IMAGE_CACHE=${IMAGE_CACHE:-/var/cache/anchor-alert-image}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

# Full RELRO for release binaries: relocations resolved at start, then made read-only.
RELEASE_LINK_FLAGS=(-Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)

# The team's shared test data sits beside the checkout (CI: ../shared).
shared_dir() {
    local d
    for d in "${ANCHOR_SHARED:-}" "$REPO_ROOT/../shared"; do
        [ -n "$d" ] && [ -d "$d/data/gps" ] && { (cd "$d" && pwd -P); return 0; }
    done
    die "the shared test data (../shared/data/gps) is missing; set ANCHOR_SHARED"
}

say() { echo "[${0##*/}] $*" >&2; }
die() { echo "[${0##*/}] ERROR: $*" >&2; exit 1; }

# Installs host tools the build needs (not CI test dependencies: those are in
# scripts/packages/image.txt).
need_host_tools() {   # need_host_tools cmd:package ...
    local missing=() pair
    for pair in "$@"; do
        command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "apt-get install ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
        --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || {
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}" >/dev/null; } ||
        die "could not install ${missing[*]}"
}

# Runs a command in a build root with /proc, /dev and the work tree (at /src) mounted, in a
# private mount namespace so that nothing stays mounted if the script is killed.
in_root() {   # in_root ROOT COMMAND...
    local root=$1; shift
    unshare --mount --propagation private -- bash -c '
        root=$1; src=$2; shift 2
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        mkdir -p "$root/src" && mount --bind "$src" "$root/src"
        mount -t tmpfs tmpfs "$root/tmp"
        exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
    ' in_root "$root" "$REPO_ROOT" "$@"
}

# The trixie build root's package lists, for the steps that ask apt about trixie's arm64
# packages through it (the arm64 twin's kernel, valgrind, the Pi image's packages). mmdebstrap
# empties a new root's lists when it finishes, so a root made by image/trixie-root.sh has none
# until something runs apt-get update in it: this does, under the root's lock, and says which
# step is filling them. With --refresh it updates them anyway (lists too old for the archive).
trixie_lists() {   # trixie_lists ROOT [--refresh]
    local root=$1
    if [ "${2:-}" != --refresh ] && compgen -G "$root/var/lib/apt/lists/*_Packages" >/dev/null; then
        return 0
    fi
    say "the trixie root $root has no package lists (or old ones): apt-get update in it for ${0##*/}"
    (
        flock 8
        in_root "$root" apt-get update -qq >&2
    ) 8>"$(dirname "$root")/.trixie.lock" || die "apt-get update in the trixie root $root failed"
    compgen -G "$root/var/lib/apt/lists/*_Packages" >/dev/null ||
        die "apt-get update in $root left no package lists"
}
