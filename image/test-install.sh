#!/bin/bash
# Installs, removes and purges the amd64 package in a fresh Debian 12 root (mmdebstrap), the
# way a user would, and checks what each step leaves behind. The root is made new every run.
#
#   image/test-install.sh out/anchor-alert_<version>_amd64.deb
#
# Steps: `apt-get install ./x.deb` (are the Depends installable from Debian alone?), purge,
# then with its dependencies present `dpkg -i`, `dpkg -r`, `dpkg -P`, checking after each.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEB=$(readlink -f "${1:?usage: $0 DEB}")
[ -f "$DEB" ] || die "no such package: $1"
need_host_tools mmdebstrap:mmdebstrap
mkdir -p "$IMAGE_CACHE"
ROOT=$(mktemp -d "$IMAGE_CACHE/install-test.XXXXXX")
trap 'rm -rf "$ROOT"' EXIT

say "fresh Debian 12 root (mmdebstrap --variant=apt --include=systemd bookworm)"
# With systemd, as every machine the package is for has it (and its unit gets verified there).
mmdebstrap --quiet --variant=apt --include=systemd --skip=cleanup/apt/lists bookworm "$ROOT" "$DEBIAN_MIRROR" >&2 ||
    die "mmdebstrap failed"
cp "$DEB" "$ROOT/root/"

in_root "$ROOT" bash -s "/root/${DEB##*/}" <<'SCRIPT'
set -uo pipefail
export DEBIAN_FRONTEND=noninteractive
deb=$1 passed=0 failed=0
check() {   # check "what" COMMAND...
    local what=$1; shift
    if "$@" >/dev/null 2>&1; then echo "  ok: $what"; passed=$((passed+1))
    else echo "  FAIL: $what"; failed=$((failed+1)); fi
}
snapshot() {   # what the package could have left behind
    find /etc /usr /var/lib /opt -xdev \( -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/lib/systemd/deb-systemd-helper-enabled \
        -o -path /var/lib/systemd/deb-systemd-helper-masked \) -prune -o -print | LC_ALL=C sort
}
enabled=/etc/systemd/system/multi-user.target.wants/anchor-alert.service

echo "apt-get install ./${deb##*/}"
apt-get install -y -q --no-install-recommends "$deb" > /tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log; echo "  FAIL: apt-get install"; exit 1; }
check "installed with its Depends from Debian 12" dpkg-query -W -f='${Status}' anchor-alert
check "anchor-alert --help runs on a machine with no Swift" /usr/bin/anchor-alert --help
dpkg -P anchor-alert > /dev/null || { echo "  FAIL: first purge"; exit 1; }
before=$(snapshot)

echo "dpkg -i ${deb##*/}"
check "dpkg -i" dpkg -i "$deb"
check "system user anchor-alert" getent passwd anchor-alert
check "user has no login shell" sh -c '[ "$(getent passwd anchor-alert | cut -d: -f7)" = /usr/sbin/nologin ]'
for g in gpio spi audio; do check "group $g exists" getent group $g; done
check "service enabled at boot" test -L $enabled
check "unit installed" test -f /usr/lib/systemd/system/anchor-alert.service
check "udev rule installed" test -f /usr/lib/udev/rules.d/60-anchor-alert.rules
check "default configuration is a conffile" sh -c 'dpkg-query -W -f="\${Conffiles}" anchor-alert | grep -q /etc/anchor-alert/anchor-alert.conf'
check "md5sums verify" dpkg --verify anchor-alert
if out=$(systemd-analyze verify --man=no anchor-alert.service 2>&1) && [ -z "$out" ]; then
    check "systemd-analyze verify anchor-alert.service: no complaint" true
else
    check "systemd-analyze verify anchor-alert.service: no complaint" false
    echo "$out" | head -10 | sed 's/^/    /'
fi

echo "# a skipper's edit" >> /etc/anchor-alert/anchor-alert.conf
check "reinstall keeps an edited conffile" sh -c 'dpkg -i --force-confold '"$deb"' && grep -q "a skipper" /etc/anchor-alert/anchor-alert.conf'

echo "dpkg -r anchor-alert"
check "dpkg -r" dpkg -r anchor-alert
check "binary removed" test ! -e /usr/bin/anchor-alert
check "unit removed" test ! -e /usr/lib/systemd/system/anchor-alert.service
check "conffile kept on remove" test -f /etc/anchor-alert/anchor-alert.conf

echo "dpkg -P anchor-alert"
check "dpkg -P" dpkg -P anchor-alert
check "conffile gone on purge" test ! -e /etc/anchor-alert
check "enablement gone on purge" test ! -L $enabled
check "state directory gone on purge" test ! -e /var/lib/anchor-alert
left=$(diff <(echo "$before") <(snapshot) | grep '^[<>]' || true)
check "purge leaves nothing behind that the install added" test -z "$left"
[ -z "$left" ] || echo "$left" | head -20 | sed 's/^/    /'

echo "install test: $passed passed, $failed failed"
[ "$failed" = 0 ]
SCRIPT
