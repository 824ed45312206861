#!/bin/bash
# Makes the disks of the boot test's machine: the amd64 twin of the Pi image. A Debian 12 root
# (mmdebstrap) with systemd as init, udev, gpsd and the anchor-alert package installed, the
# image's system settings (image/system/), and the test's stand-ins: a gpio-sim chip wired like
# the Pi's header, and a pseudo-terminal feeding gpsd a recorded drag.
#
#   image/boot-test/make-image.sh DEB OUTDIR
#
# Writes OUTDIR/root.img (ext4, the root file system) and OUTDIR/data.img (ext4, label
# anchor-data: the journal's partition, mounted at /var/lib/anchor-alert as on the Pi), and
# OUTDIR/kernel-version. The base root (everything but the package) is cached in
# $IMAGE_CACHE/boot-base; it is remade when its recipe changes.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/test-files.sh"
HERE=$(cd "$(dirname "$0")" && pwd -P)
DEB=$(readlink -f "${1:?usage: $0 DEB OUTDIR}")
OUT=${2:?usage: $0 DEB OUTDIR}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd -P)
need_host_tools mmdebstrap:mmdebstrap mke2fs:e2fsprogs depmod:kmod

# The kernel is this machine's Debian kernel, as in ../shared/vm/run-in-vm.sh; its gpio-sim
# module is the one that script builds (Debian's kernel lacks it).
SHARED=$(shared_dir)
VM_STATE=${VM_STATE:-/var/cache/anchor-alert-vm}
KVER=
for v in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -V); do
    [ -f "/lib/modules/$v/modules.dep" ] && [ -f "/boot/initrd.img-$v" ] && KVER=$v
done
[ -n "$KVER" ] || die "no Debian kernel with modules and initrd in /boot (run ../shared/vm/run-in-vm.sh --setup)"
GPIO_SIM=$VM_STATE/cache/kmod/$KVER/modroot/lib/modules/$KVER/updates/gpio-sim.ko
if [ ! -f "$GPIO_SIM" ]; then
    say "building gpio-sim for $KVER (run-in-vm.sh --prepare)"
    VM_STATE=$VM_STATE "$SHARED/vm/run-in-vm.sh" --prepare >&2 || die "run-in-vm.sh --prepare failed"
fi
[ -f "$GPIO_SIM" ] || die "no gpio-sim module at $GPIO_SIM"

# ---------------------------------------------------------------- base root (cached)
BASE=$IMAGE_CACHE/boot-base
PACKAGES=(systemd-sysv udev kmod procps gpsd python3-minimal gpiod adduser init-system-helpers
          libasound2 libgpiod2 libgps28 libsystemd0 libmosquitto1 e2fsprogs)
# The recipe's hash: the package list, the kernel and its gpio-sim module.
stamp=$( { printf '%s\n' "${PACKAGES[@]}" "$KVER" base-v1; sha256sum "$GPIO_SIM"; } | sha256sum | cut -c1-16)
exec 9>"$IMAGE_CACHE/.boot-base.lock"; flock 9
if [ ! -f "$BASE/.anchor-stamp" ] || [ "$(cat "$BASE/.anchor-stamp")" != "$stamp" ]; then
    say "mmdebstrap the boot test's base root (Debian 12, systemd)"
    rm -rf "$BASE" "$BASE.tmp"
    mmdebstrap --quiet --variant=minbase --include="$(IFS=,; echo "${PACKAGES[*]}")" \
        bookworm "$BASE.tmp" "$DEBIAN_MIRROR" >&2 || die "mmdebstrap failed"
    R=$BASE.tmp
    # Kernel modules: the ones a small virtual machine with GPIO, sound and a watchdog uses.
    M=/lib/modules/$KVER
    mkdir -p "$R$M"
    (cd "$M" && tar -cf - modules.order modules.builtin modules.builtin.modinfo \
        kernel/drivers/gpio kernel/drivers/virtio kernel/drivers/char kernel/drivers/block \
        kernel/drivers/watchdog kernel/sound kernel/fs/configfs kernel/fs/ext4 kernel/fs/jbd2 \
        kernel/fs/mbcache.ko kernel/lib kernel/crypto kernel/drivers/input/misc 2>/dev/null) | tar -xf - -C "$R$M"
    mkdir -p "$R$M/updates" && cp "$GPIO_SIM" "$R$M/updates/"
    depmod -b "$R" "$KVER"
    chroot "$R" passwd -d root >/dev/null
    echo anchor-twin > "$R/etc/hostname"
    echo "$KVER" > "$R/.anchor-kver"
    echo "$stamp" > "$R/.anchor-stamp"
    mv "$R" "$BASE"
fi
flock -u 9

# ---------------------------------------------------------------- this run's disks
work=$(mktemp -d "$IMAGE_CACHE/boot-root.XXXXXX"); trap 'rm -rf "$work"' EXIT
cp -a "$BASE/." "$work/"
R=$work
# The image's settings, the test's stand-ins, its runner and units (test-files.sh).
put_test_files "$R" ttyS0 chroot
# As on the Pi (image/system/fstab.append), with a longer device wait: emulation is slow.
printf '%s\n' "/dev/vda / ext4 rw,noatime,errors=remount-ro 0 1" \
    "LABEL=anchor-data /var/lib/anchor-alert ext4 defaults,noatime,nofail,x-systemd.device-timeout=90s 0 2" > "$R/etc/fstab"
cp "$DEB" "$work/root/"
# Installed the way the image recipe installs it (no systemd running: enabled, not started).
chroot "$work" dpkg -i "/root/${DEB##*/}" >&2 || die "dpkg -i of the package failed in the test root"
rm -f "$work/root/${DEB##*/}"
cp -r "$HERE/guest/etc-anchor/." "$work/etc/anchor-alert/"
chroot "$work" systemctl is-enabled anchor-alert.service >/dev/null || die "anchor-alert.service is not enabled after install"
rm -f "$OUT/root.img" "$OUT/data.img"
mke2fs -q -t ext4 -L anchor-root -d "$work" "$OUT/root.img" 1536M || die "mke2fs root failed"
# The size of the partition the Pi's first boot makes (256 MiB): at 64 MiB the box rightly
# raised "Journal: only 50 MB free of 54 MB" at every start, a fault the Pi never has.
mke2fs -q -t ext4 -L anchor-data "$OUT/data.img" 256M || die "mke2fs data failed"
echo "$KVER" > "$OUT/kernel-version"
say "root.img and data.img ready in $OUT (kernel $KVER)"
