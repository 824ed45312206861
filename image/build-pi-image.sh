#!/bin/bash
# Makes the SD card image a skipper writes to a Raspberry Pi's card: Debian trixie arm64 (what
# Pi OS trixie is made from), Debian's own Raspberry Pi boot firmware (raspi-firmware) and
# arm64 kernel (linux-image-arm64, with the Broadcom device trees), gpsd, and the arm64
# anchor-alert package.
#
#   image/build-pi-image.sh [DEB]     (as root) writes out/anchor-alert-pi-arm64.img, its
#                                     .sha256 and its .manifest (every package and version)
#
# The card (2 GiB, a power of two as QEMU's SD card wants; the root is not grown):
#   p1  FAT32  256 MiB  label ANCHOR-BOOT  the firmware, kernel, initramfs, device trees,
#                        config.txt, cmdline.txt and the skipper's anchor-alert.conf
#   p2  ext4  1536 MiB  label anchor-root  mounted read-only under a RAM overlay by the initramfs
#   p3  ext4   256 MiB  label anchor-data  the journal (/var/lib/anchor-alert), the only file
#                        system the box writes
#
# The root is the arm64 twin's base (image/boot-test/make-arm64-image.sh: debootstrap, then its
# second stage run as arm64 programs by proot and qemu-aarch64-static). mmdebstrap cannot make
# an arm64 root here: it runs the maintainer scripts in a chroot, which needs binfmt_misc, and
# our machines have none. DEB defaults to the one image/build-deb.sh --arch arm64 builds.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd -P)
need_host_tools mkfs.vfat:dosfstools mcopy:mtools sfdisk:fdisk mke2fs:e2fsprogs proot:proot \
    qemu-aarch64-static:qemu-user-static cpio:cpio
T0=$(date +%s)
DEB=${1:-}
[ -n "$DEB" ] || DEB=$("$HERE/build-deb.sh" --arch arm64 | tail -1)
DEB=$(readlink -f "$DEB")
[ -f "$DEB" ] || die "no package $DEB"
OUTDIR=$REPO_ROOT/out
IMG=$OUTDIR/anchor-alert-pi-arm64.img
mkdir -p "$OUTDIR" "$IMAGE_CACHE"

# The twin's base root and Debian's arm64 kernel, made by the twin's recipe if missing.
say "the arm64 base root and kernel (make-arm64-image.sh fills them if missing)"
TWIN_BASE_ONLY=1 "$HERE/boot-test/make-arm64-image.sh" "$DEB" "$IMAGE_CACHE/pi-unused" >&2 ||
    die "could not make the arm64 base root"
rm -rf "$IMAGE_CACHE/pi-unused"
TWIN=$IMAGE_CACHE/arm64-twin
BASE=$TWIN/base
KVER=$(ls "$BASE/usr/lib/modules")
[ "$(echo "$KVER" | wc -l)" = 1 ] || die "the base root has more than one kernel: $KVER"
KDIR=$TWIN/kernel-$KVER
[ -f "$KDIR/boot/vmlinuz-$KVER" ] || die "no unpacked kernel in $KDIR"

# raspi-firmware is in trixie's non-free-firmware component, which the build root's sources
# leave out: apt here with lists of its own, the build root's keyring.
PI=$IMAGE_CACHE/pi-image
TROOT=$("$HERE/trixie-root.sh")
mkdir -p "$PI/lists/partial" "$PI/debs"
echo "deb [arch=arm64 signed-by=$TROOT/usr/share/keyrings/debian-archive-keyring.gpg] $DEBIAN_MIRROR trixie main non-free-firmware" > "$PI/sources.list"
apt_pi() {
    "$@" -o Dir::State::Lists="$PI/lists" -o Dir::Etc::SourceList="$PI/sources.list" \
        -o Dir::Etc::SourceParts=/nonexistent -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= \
        -o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o Debug::NoLocking=1 \
        -o APT::Sandbox::User=root
}
if ! compgen -G "$PI/lists/*non-free-firmware*_Packages" >/dev/null; then
    say "apt-get update for trixie main and non-free-firmware (arm64) into $PI/lists"
    apt_pi apt-get update -qq >&2 || die "apt-get update of trixie non-free-firmware failed"
fi
if ! compgen -G "$PI/debs/raspi-firmware_*.deb" >/dev/null; then
    (cd "$PI/debs" && apt_pi apt-get download -q raspi-firmware >&2) || die "could not download raspi-firmware"
fi
FWDEB=$(ls "$PI/debs"/raspi-firmware_*.deb | tail -1)

# ---------------------------------------------------------------- the root
TMPFILES_STUB=$TWIN/systemd-tmpfiles-stub
in_arm64() {   # as make-arm64-image.sh: arm64 programs under proot and qemu-aarch64-static
    local root=$1; shift
    nice -n 15 unshare --mount --propagation private \
        proot -q qemu-aarch64-static -r "$root" -b /proc -b /sys -b /dev \
        -b "$TMPFILES_STUB:/usr/sbin/systemd-tmpfiles" -w / \
        /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root "$@"
}
W=$(mktemp -d "$IMAGE_CACHE/pi-build.XXXXXX"); trap 'rm -rf "$W"' EXIT
R=$W/root
cp -a "$BASE" "$R"; rm -f "$R/.anchor-stamp"
# The twin's test pieces do not belong on a skipper's card: its cross-built gpio-sim, and root
# without a password (the card has no login at all: root locked, no ssh, no getty).
rm -f "$R/usr/lib/modules/$KVER/updates/gpio-sim.ko"; depmod -b "$R" "$KVER"
sed -i 's/^root:[^:]*:/root:*:/' "$R/etc/shadow"
"$HERE/system/install-system-files.sh" "$R"
cp "$DEB" "$R/root/"
in_arm64 "$R" dpkg -i "/root/${DEB##*/}" >&2 || die "dpkg -i of the package failed in the arm64 root"
rm -f "$R/root/${DEB##*/}"
in_arm64 "$R" systemctl is-enabled anchor-alert.service >/dev/null || die "anchor-alert.service is not enabled"

# gpsd: the GPS HAT on the UART of GPIO14/15 (/dev/serial0), and USB receivers by hotplug.
cat > "$R/etc/default/gpsd" <<'EOF'
# gpsd for a serial GPS HAT on GPIO14/15 (/dev/serial0, made by 60-anchor-alert-serial0.rules)
# and for USB receivers, which udev hands to gpsd when they are plugged in. -n reads from
# power-on, so the first fix is ready before the skipper marks the anchor.
START_DAEMON="true"
DEVICES="/dev/serial0"
USBAUTO="true"
GPSD_OPTIONS="-n"
EOF
# Pi OS names the header's UART /dev/serial0; Debian does not. The upstream device trees give
# GPIO14/15 to the mini UART on a Pi 3 and Zero 2 W (the PL011 goes to Bluetooth) and to the
# PL011 on a Pi 4 with disable-bt; the aux UART is the header's on the boards listed.
cat > "$R/etc/udev/rules.d/60-anchor-alert-serial0.rules" <<'EOF'
# The UART on the Pi's header pins GPIO14/15 as /dev/serial0, as Pi OS names it (image/build-pi-image.sh).
KERNEL=="ttyS[0-9]*", DRIVERS=="bcm2835-aux-uart", SYMLINK+="serial0", GROUP="dialout", MODE="0660"
EOF
# No login on the serial console: the UART is the GPS's.
ln -sf /dev/null "$R/etc/systemd/system/serial-getty@ttyS1.service"
ln -sf /dev/null "$R/etc/systemd/system/serial-getty@serial0.service"

# The skipper's settings are the boot partition's anchor-alert.conf, readable from any laptop.
mkdir -p "$R/boot/firmware"
cp "$R/etc/anchor-alert/anchor-alert.conf" "$W/anchor-alert.conf"
ln -sf /boot/firmware/anchor-alert.conf "$R/etc/anchor-alert/anchor-alert.conf"
mkdir -p "$R/etc/systemd/system/anchor-alert.service.d"
cat > "$R/etc/systemd/system/anchor-alert.service.d/60-boot-partition.conf" <<'EOF'
# The configuration is /boot/firmware/anchor-alert.conf (the card's FAT partition): start after
# it is mounted. If it is missing or wrong the box runs on defaults and reports it, as always.
[Unit]
RequiresMountsFor=/boot/firmware
EOF
cat > "$R/etc/fstab" <<'EOF'
# The root is mounted by the initramfs, read-only under a RAM overlay: no line for it.
# The boot partition read-only: the box only reads its configuration there.
LABEL=ANCHOR-BOOT  /boot/firmware  vfat  ro,noatime,nofail,umask=0022  0  2
EOF
cat "$HERE/system/fstab.append" >> "$R/etc/fstab"
rm -rf "$R/var/cache/apt/archives/"*.deb "$R/var/lib/apt/lists/"* "$R/root/.bash_history"

# ---------------------------------------------------------------- the initramfs
# As the twin's: busybox, the SD card's host drivers (sdhost on Pi 3 and Zero 2 W, the Arasan
# and emmc2 sdhci-iproc on Pi 4), ext4 and overlay; the root read-only under a RAM overlay, as
# raspi-config's overlay file system runs a Pi.
ls "$TWIN/debs/"busybox-static_*_arm64.deb >/dev/null 2>&1 || die "no busybox-static in $TWIN/debs"
I=$W/initrd
dpkg-deb -x "$(ls "$TWIN/debs/"busybox-static_*_arm64.deb | tail -1)" "$W/bb"
mkdir -p "$I/bin" "$I/mods" "$I/proc" "$I/sys" "$I/dev" "$I/newroot"
cp "$W/bb/usr/bin/busybox" "$I/bin/busybox"
n=0
for m in mmc_block bcm2835 sdhci_iproc crc32c_generic ext4 overlay; do
    modprobe -d "$KDIR" -S "$KVER" --show-depends "$m" | awk '$1 == "insmod" {print $2}'
done | awk '!seen[$0]++' | while read -r ko; do
    n=$((n+1)); xz -dc "$ko" > "$I/mods/$(printf %02d "$n")-$(basename "${ko%.xz}")"
done
cat > "$I/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in /mods/*.ko; do insmod "$m" 2>/dev/null; done
dev=
for i in $(seq 300); do dev=$(findfs LABEL=anchor-root 2>/dev/null) && break; sleep 0.1; done
[ -n "$dev" ] || { echo "initramfs: no partition labelled anchor-root"; sleep 10; reboot -f; }
mkdir -p /lower /upper
mount -t ext4 -o ro,noatime "$dev" /lower || { echo "initramfs: cannot mount $dev"; sleep 10; reboot -f; }
mount -t tmpfs -o mode=0755,size=128m tmpfs /upper && mkdir -p /upper/rw /upper/work
mount -t overlay -o lowerdir=/lower,upperdir=/upper/rw,workdir=/upper/work overlay /newroot
mkdir -p /newroot/media/root-ro /newroot/media/root-rw
mount --move /lower /newroot/media/root-ro; mount --move /upper /newroot/media/root-rw
init=$(sed -n 's/.*anchor.init=\([^ ]*\).*/\1/p' /proc/cmdline); [ -n "$init" ] || init=/sbin/init
mount --move /dev /newroot/dev; umount /sys /proc
exec switch_root /newroot "$init"
INIT
chmod 755 "$I/init"

# ---------------------------------------------------------------- the boot partition
B=$W/boot
mkdir -p "$B"
dpkg-deb -x "$FWDEB" "$W/fw"
cp -r "$W/fw/usr/lib/raspi-firmware/." "$B/"
cp "$KDIR/boot/vmlinuz-$KVER" "$B/vmlinuz"
(cd "$I" && find . | cpio -o -H newc --quiet | gzip -9n) > "$B/initrd.img"
DTB=$KDIR/usr/lib/linux-image-$KVER/broadcom
boards=()
for d in bcm2837-rpi-3-b bcm2837-rpi-3-b-plus bcm2837-rpi-zero-2-w bcm2711-rpi-4-b; do
    [ -f "$DTB/$d.dtb" ] && { cp "$DTB/$d.dtb" "$B/"; boards+=("$d"); }
done
[ ${#boards[@]} -gt 0 ] || die "no Broadcom device trees in $DTB"
cp "$W/anchor-alert.conf" "$B/anchor-alert.conf"
cat > "$B/config.txt" <<'EOF'
# Raspberry Pi boot firmware settings for Anchor Alert (image/build-pi-image.sh).
# Debian's 64-bit kernel, and the small initramfs that mounts the root read-only under RAM.
arm_64bit=1
kernel=vmlinuz
initramfs initrd.img followkernel
# The UART on GPIO14/15 for a GPS HAT (/dev/serial0); it also fixes the core clock, so the
# mini UART's baud rate holds on a Pi 3 and Zero 2 W.
enable_uart=1
# No screen: the GPU gets the least memory.
gpu_mem=16
# Debian's kernel uses the mainline device trees, named per board.
[pi3]
device_tree=bcm2837-rpi-3-b.dtb
[pi3+]
device_tree=bcm2837-rpi-3-b-plus.dtb
[pi02]
device_tree=bcm2837-rpi-zero-2-w.dtb
[pi4]
device_tree=bcm2711-rpi-4-b.dtb
[all]
EOF
# No console on the serial line: the GPS uses it. The watchdog is the SoC's (bcm2835-wdt),
# in the mainline device trees, fed by systemd.
echo "console=tty1 root=LABEL=anchor-root rootwait ro quiet loglevel=4 panic=10" > "$B/cmdline.txt"

# ---------------------------------------------------------------- the card
MiB=$((1024*1024))
BOOT_MB=256 ROOT_MB=1536 DATA_MB=256
rm -f "$IMG.tmp"
truncate -s $((2048 * MiB)) "$IMG.tmp"
sfdisk -q "$IMG.tmp" <<EOF
label: dos
label-id: 0x414e4348
start=2048, size=$((BOOT_MB*2048)), type=c, bootable
start=$((2048 + BOOT_MB*2048)), size=$((ROOT_MB*2048)), type=83
start=$((2048 + (BOOT_MB+ROOT_MB)*2048)), size=$(( (2048 - 1 - BOOT_MB - ROOT_MB)*2048 )), type=83
EOF
rm -f "$W/p1" "$W/p2" "$W/p3"
truncate -s $((BOOT_MB*MiB)) "$W/p1"
mkfs.vfat -F 32 -n ANCHOR-BOOT -i 414e4348 "$W/p1" >/dev/null
mcopy -s -m -i "$W/p1" "$B"/* ::/
mke2fs -q -t ext4 -L anchor-root -U 6e63686f-722d-4f6f-8f74-000000000002 -E root_owner=0:0 -d "$R" "$W/p2" ${ROOT_MB}M ||
    die "the root does not fit in $ROOT_MB MiB"
mke2fs -q -t ext4 -L anchor-data -U 6e63686f-722d-4f6f-8f74-000000000003 "$W/p3" $(( (2048 - 1 - BOOT_MB - ROOT_MB) ))M
dd if="$W/p1" of="$IMG.tmp" bs=1M seek=1 conv=notrunc,sparse status=none
dd if="$W/p2" of="$IMG.tmp" bs=1M seek=$((1 + BOOT_MB)) conv=notrunc,sparse status=none
dd if="$W/p3" of="$IMG.tmp" bs=1M seek=$((1 + BOOT_MB + ROOT_MB)) conv=notrunc,sparse status=none
mv "$IMG.tmp" "$IMG"

{
    echo "# out/anchor-alert-pi-arm64.img: what is on the card (image/build-pi-image.sh)"
    echo "kernel $KVER"
    echo "raspi-firmware $(dpkg-deb -f "$FWDEB" Version)"
    echo "anchor-alert $(dpkg-deb -f "$DEB" Version)"
    echo "device-trees ${boards[*]}"
    dpkg-query --admindir="$R/var/lib/dpkg" -W -f '${Package} ${Version} ${Architecture}\n' | sort
} > "$IMG.manifest"
(cd "$OUTDIR" && sha256sum "${IMG##*/}" > "${IMG##*/}.sha256")
say "built $IMG ($(du -h --apparent-size "$IMG" | cut -f1), $(du -h "$IMG" | cut -f1) used) in $(( $(date +%s) - T0 )) s"
echo "$IMG"
