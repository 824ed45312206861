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
    qemu-aarch64-static:qemu-user-static cpio:cpio dtc:device-tree-compiler fdtoverlay:device-tree-compiler
T0=$(date +%s)
# Every time the card records is this one: the recipe's commit time (reproducible builds'
# SOURCE_DATE_EPOCH), so that the same inputs give the same card, bit for bit.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$REPO_ROOT" log -1 --format=%ct 2>/dev/null || echo 0)}
export SOURCE_DATE_EPOCH
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
if ! compgen -G "$PI/lists/*non-free-firmware*_Packages*" >/dev/null; then
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
# without a password (root has no password: the only login is ssh with the keys the boot
# partition names, off unless it names some; no getty on the serial line).
rm -f "$R/usr/lib/modules/$KVER/updates/gpio-sim.ko"; depmod -b "$R" "$KVER"
sed -i 's/^root:[^:]*:/root:*:/' "$R/etc/shadow"
# A Pi has no battery-backed clock: at power-on the time is behind until GPS or a network sets
# it, and e2fsck would take every file system's times for "in the future" and rewrite them.
printf '[options]\n\tbroken_system_clock = 1\n' > "$R/etc/e2fsck.conf"
"$HERE/system/install-system-files.sh" "$R"
cp "$DEB" "$R/root/"
in_arm64 "$R" dpkg -i "/root/${DEB##*/}" >&2 || die "dpkg -i of the package failed in the arm64 root"
rm -f "$R/root/${DEB##*/}"
in_arm64 "$R" systemctl is-enabled anchor-alert.service >/dev/null || die "anchor-alert.service is not enabled"

# ssh and Wi-Fi, installed but off: the boot partition turns them on (system/card/card-access,
# run at every boot). openssh-server, wpasupplicant, the Broadcom Wi-Fi firmware of the Pi 3,
# 3B+, Zero 2 W and 4 (with their boards' NVRAM files) and the regulatory database. Host apt
# picks the packages the root lacks (its own dpkg status), and dpkg installs them as arm64
# programs, with no service started (policy-rc.d) and coreutils' stat replaced by busybox's:
# this machine's proot does not translate the statx call coreutils makes, so ucf (openssh-
# server's configuration) could not see its own temporary file.
CARD_PACKAGES=(openssh-server wpasupplicant firmware-brcm80211 wireless-regdb)
say "the card's ssh and Wi-Fi packages (${CARD_PACKAGES[*]}), off until the boot partition says"
card_download() {
    rm -rf "$W/card-debs"; mkdir -p "$W/card-debs/partial"
    apt_pi apt-get install -y -q --download-only --no-install-recommends \
        -o Dir::State::status="$R/var/lib/dpkg/status" -o Dir::Cache::archives="$W/card-debs" \
        "${CARD_PACKAGES[@]}" >&2
}
if ! card_download; then
    say "downloading them failed: apt-get update of $PI/lists (the archive may have moved on), once"
    apt_pi apt-get update -qq >&2 && card_download || die "could not download ${CARD_PACKAGES[*]}"
fi
mkdir -p "$R/root/card-debs" "$R/root/card-bin"; cp "$W/card-debs/"*.deb "$R/root/card-debs/"
ls "$TWIN/debs/"busybox-static_*_arm64.deb >/dev/null 2>&1 || die "no busybox-static in $TWIN/debs"
dpkg-deb -x "$(ls "$TWIN/debs/"busybox-static_*_arm64.deb | tail -1)" "$W/bb"
cp "$W/bb/usr/bin/busybox" "$R/root/card-bin/stat"
printf '#!/bin/sh\nexit 101\n' > "$R/usr/sbin/policy-rc.d"; chmod 755 "$R/usr/sbin/policy-rc.d"
in_arm64 "$R" /bin/sh -c 'PATH=/root/card-bin:$PATH dpkg -i /root/card-debs/*.deb' >&2 ||
    die "dpkg -i of ${CARD_PACKAGES[*]} failed in the arm64 root"
rm -rf "$R/root/card-debs" "$R/root/card-bin" "$R/usr/sbin/policy-rc.d"
# No host keys made at build time (every card would share them), nothing started by itself.
rm -f "$R"/etc/ssh/ssh_host_*
in_arm64 "$R" systemctl disable ssh.service ssh.socket wpa_supplicant.service >/dev/null 2>&1 || true
in_arm64 "$R" systemctl enable systemd-networkd.service >/dev/null 2>&1 || die "could not enable systemd-networkd"
install -d "$R/usr/lib/anchor-alert-card" "$R/etc/ssh/sshd_config.d" "$R/etc/systemd/network"
install -m 0755 "$HERE/system/card/card-access" "$R/usr/lib/anchor-alert-card/card-access"
install -m 0644 "$HERE/system/card/anchor-card-access.service" "$R/etc/systemd/system/anchor-card-access.service"
install -m 0644 "$HERE/system/card/sshd-anchor-card.conf" "$R/etc/ssh/sshd_config.d/anchor-card.conf"
install -m 0644 "$HERE/system/card/60-anchor-card.network" "$R/etc/systemd/network/60-anchor-card.network"
in_arm64 "$R" systemctl enable anchor-card-access.service >/dev/null || die "could not enable anchor-card-access.service"
# wpa_supplicant@wlan0 starts whenever the Wi-Fi chip's wlan0 appears, only if card-access has
# written its configuration from the boot partition.
mkdir -p "$R/etc/systemd/system/sys-subsystem-net-devices-wlan0.device.wants" "$R/etc/systemd/system/wpa_supplicant@wlan0.service.d"
ln -sf /usr/lib/systemd/system/wpa_supplicant@.service \
    "$R/etc/systemd/system/sys-subsystem-net-devices-wlan0.device.wants/wpa_supplicant@wlan0.service"
printf '# Off unless the boot partition turns Wi-Fi on (card-access writes this file then).\n[Unit]\nConditionPathExists=/etc/wpa_supplicant/wpa_supplicant-wlan0.conf\nAfter=anchor-card-access.service\n' \
    > "$R/etc/systemd/system/wpa_supplicant@wlan0.service.d/anchor-card.conf"
# The Wi-Fi chips' firmware and each board's NVRAM file (Pi 3B, 3B+, 4 and Zero 2 W with the
# CYW43430; a Zero 2 W with the newer CYW43436 has none in Debian's package).
for f in brcmfmac43430-sdio.bin brcmfmac43430-sdio.raspberrypi,3-model-b.txt brcmfmac43430-sdio.raspberrypi,model-zero-2-w.txt \
         brcmfmac43455-sdio.bin brcmfmac43455-sdio.raspberrypi,3-model-b-plus.txt brcmfmac43455-sdio.raspberrypi,4-model-b.txt; do
    [ -e "$R/usr/lib/firmware/brcm/$f" ] || die "firmware-brcm80211 has no $f: Wi-Fi would not work on that board"
done
echo anchor-alert > "$R/etc/hostname"
sed -i 's/^127\.0\.1\.1.*/127.0.1.1\tanchor-alert/' "$R/etc/hosts"
grep -q '^127\.0\.1\.1' "$R/etc/hosts" || printf '127.0.1.1\tanchor-alert\n' >> "$R/etc/hosts"
# Nothing else writes or fetches on its own: no apt timers on a read-only card.
for t in apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer; do
    ln -sf /dev/null "$R/etc/systemd/system/$t"
done

# gpsd: the GPS HAT on the UART of GPIO14/15 (/dev/serial0), and USB receivers by hotplug.
# Both come to gpsd from udev (gpsdctl@.service), whenever udev sees them: a DEVICES= name
# is opened once when gpsd starts, and under a slow start the UART's /dev/serial0 link is
# not there yet (gpsd then never reads it).
cat > "$R/etc/default/gpsd" <<'EOF'
# gpsd for a serial GPS HAT on GPIO14/15 (/dev/serial0, 60-anchor-alert-serial0.rules) and
# for USB receivers: udev hands each to gpsd (gpsdctl) when it appears. -n reads from
# power-on, so the first fix is ready before the skipper marks the anchor.
START_DAEMON="true"
DEVICES=""
USBAUTO="true"
GPSD_OPTIONS="-n"
EOF
# Pi OS names the header's UART /dev/serial0; Debian does not. The upstream device trees give
# GPIO14/15 to the mini UART on a Pi 3 and Zero 2 W (the PL011 goes to Bluetooth) and to the
# PL011 on a Pi 4 with disable-bt; the aux UART is the header's on the boards listed.
cat > "$R/etc/udev/rules.d/60-anchor-alert-serial0.rules" <<'EOF'
# The UART on the Pi's header pins GPIO14/15 as /dev/serial0, as Pi OS names it (image/build-pi-image.sh).
# gpsd reads it from power-on: udev hands it over (gpsdctl), as it does a USB receiver.
KERNEL=="ttyS[0-9]*", DRIVERS=="bcm2835-aux-uart", SYMLINK+="serial0", GROUP="dialout", MODE="0660", TAG+="systemd", ENV{SYSTEMD_WANTS}+="gpsdctl@%k.service"
EOF
# No login on the serial console: the UART is the GPS's.
ln -sf /dev/null "$R/etc/systemd/system/serial-getty@ttyS1.service"
ln -sf /dev/null "$R/etc/systemd/system/serial-getty@serial0.service"

# The skipper's settings are the boot partition's anchor-alert.conf, readable from any laptop.
mkdir -p "$R/boot/firmware"
cp "$R/etc/anchor-alert/anchor-alert.conf" "$W/anchor-alert.conf"
ln -sf /boot/firmware/anchor-alert.conf "$R/etc/anchor-alert/anchor-alert.conf"
mkdir -p "$R/etc/systemd/system/anchor-alert.service.d"
cat > "$R/etc/systemd/system/anchor-alert.service.d/60-card.conf" <<'EOF'
# On the card the initramfs mounts the boot partition (/boot/firmware, the skipper's
# anchor-alert.conf) and the journal's partition (/var/lib/anchor-alert) before systemd starts,
# as it mounts the root (image/build-pi-image.sh). The box must start even when one of them is
# missing: StateDirectory= and WorkingDirectory= would make it require the mount, and a
# dependency that fails leaves no box at all (no restart follows a failed dependency). So the
# directory is made on the card, owned by the box, and only allowed to be written.
# Without the journal's partition the journal is in RAM (the box still rings); without the boot
# partition the box runs on its defaults.
[Service]
StateDirectory=
WorkingDirectory=/
ReadWritePaths=/var/lib/anchor-alert
EOF
cat > "$R/etc/fstab" <<'EOF'
# The initramfs mounts the card's three partitions by label before systemd starts, without
# waiting for udev: the root (anchor-root) read-only under a RAM overlay, the boot partition
# (ANCHOR-BOOT) read-only at /boot/firmware, the journal's partition (anchor-data, checked with
# e2fsck first) at /var/lib/anchor-alert. No lines here: a line would make systemd wait for
# udev's link to each again (x-systemd.device-timeout), and a wait that times out fails
# everything that requires the mount.
EOF
# The journal's directory on the root, owned by the box: its mount point, and its place (in
# RAM, under the overlay) if the journal's partition is ever missing.
ids=$(awk -F: '$1 == "anchor-alert" {print $3 ":" $4}' "$R/etc/passwd")
[ -n "$ids" ] || die "the package made no anchor-alert user"
mkdir -p "$R/var/lib/anchor-alert"; chown "$ids" "$R/var/lib/anchor-alert"; chmod 0750 "$R/var/lib/anchor-alert"
rm -rf "$R/var/cache/apt/archives/"*.deb "$R/var/lib/apt/lists/"* "$R/root/.bash_history"

# Nothing that tells one card from another, or one build from another: the machine's identity
# (the initramfs gives each card its own, kept on the journal's partition), systemd's random
# seed, the build's logs, dpkg's and debconf's backups, ldconfig's and Python's caches (the root
# is read-only: Python reads its sources), the day the accounts were made, and every file time
# after SOURCE_DATE_EPOCH.
: > "$R/etc/machine-id"
rm -f "$R/var/lib/dbus/machine-id" "$R/var/lib/systemd/random-seed" "$R/var/cache/ldconfig/aux-cache"
rm -f "$R"/var/log/*.log "$R"/var/log/apt/* "$R"/var/cache/debconf/*-old "$R"/var/lib/dpkg/*-old
for f in btmp wtmp lastlog faillog; do [ -e "$R/var/log/$f" ] && : > "$R/var/log/$f"; done
find "$R" -xdev -name __pycache__ -type d -prune -exec rm -rf {} +
day=$((SOURCE_DATE_EPOCH / 86400))
sed -i -E "s/^([^:]*:[^:]*:)[0-9]+:/\1$day:/" "$R/etc/shadow"
[ -f "$R/etc/shadow-" ] && rm -f "$R/etc/shadow-" "$R/etc/passwd-" "$R/etc/group-" "$R/etc/gshadow-"
clamp_times() { find "$1" -xdev -newermt "@$SOURCE_DATE_EPOCH" -print0 | xargs -0r touch -h -d "@$SOURCE_DATE_EPOCH"; }
# /usr never changes on a read-only root: /etc and /var are marked up to date with it, as
# systemd-update-done would mark them (it can only write to the RAM overlay), so ldconfig and
# the other ConditionNeedsUpdate= units do not run again at every boot.
for d in etc var; do
    printf '# Made by image/build-pi-image.sh as systemd-update-done would (see man:systemd-update-done.service(8)).\nTIMESTAMP_NSEC=%s000000000\n' \
        "$SOURCE_DATE_EPOCH" > "$R/$d/.updated"
done

# ---------------------------------------------------------------- the initramfs
# As the twin's: busybox, the SD card's host drivers (sdhost on Pi 3 and Zero 2 W, the Arasan
# and emmc2 sdhci-iproc on Pi 4), ext4 and overlay; the root read-only under a RAM overlay, as
# raspi-config's overlay file system runs a Pi.
I=$W/initrd
mkdir -p "$I/bin" "$I/mods" "$I/proc" "$I/sys" "$I/dev" "$I/newroot"
cp "$W/bb/usr/bin/busybox" "$I/bin/busybox"
n=0
# bcm2835_wdt: /dev/watchdog0 is there when systemd starts and opens it (RuntimeWatchdogSec=).
# vfat and its code pages: the boot partition.
for m in mmc_block bcm2835 sdhci_iproc crc32c_generic ext4 overlay vfat nls_cp437 nls_ascii bcm2835_wdt; do
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
# The boot partition (the skipper's anchor-alert.conf), read-only: the box only reads it.
boot=$(findfs LABEL=ANCHOR-BOOT 2>/dev/null) &&
    mount -t vfat -o ro,noatime,umask=0022 "$boot" /newroot/boot/firmware ||
    echo "initramfs: no boot partition ANCHOR-BOOT: the box runs on its defaults"
# The journal's partition, checked first with the root's e2fsck (a power cut may have left it
# unclean; the ext4 journal replays on mount either way). Missing or beyond repair: the journal
# lives in RAM until the next boot, and the box still watches and rings.
data=$(findfs LABEL=anchor-data 2>/dev/null)
if [ -n "$data" ]; then
    mount -t proc proc /lower/proc && mount --bind /dev /lower/dev
    chroot /lower /sbin/e2fsck -p "$data"; rc=$?
    umount /lower/dev /lower/proc
    if [ "$rc" -lt 4 ]; then
        if mount -t ext4 -o rw,noatime "$data" /newroot/var/lib/anchor-alert; then
            # The card's own machine identity (DHCP, systemd), made at its first boot.
            id=/newroot/var/lib/anchor-alert/.machine-id
            [ -s "$id" ] || { tr -d '-' < /proc/sys/kernel/random/uuid > "$id.new" && sync && mv "$id.new" "$id" && sync; }
            [ -s "$id" ] && cat "$id" > /newroot/etc/machine-id
        else
            echo "initramfs: cannot mount $data: the journal is in RAM"
        fi
    else
        echo "initramfs: e2fsck of $data failed ($rc): the journal is in RAM"
    fi
else
    echo "initramfs: no partition labelled anchor-data: the journal is in RAM"
fi
# Without the journal's partition the identity lasts until the next boot.
[ -s /newroot/etc/machine-id ] || tr -d '-' < /proc/sys/kernel/random/uuid > /newroot/etc/machine-id
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
clamp_times "$I"
(cd "$I" && find . | LC_ALL=C sort | cpio -o -H newc --quiet --reproducible | gzip -9n) > "$B/initrd.img"
DTB=$KDIR/usr/lib/linux-image-$KVER/broadcom
boards=()
for d in bcm2837-rpi-3-b bcm2837-rpi-3-b-plus bcm2837-rpi-zero-2-w bcm2711-rpi-4-b; do
    [ -f "$DTB/$d.dtb" ] && { cp "$DTB/$d.dtb" "$B/"; boards+=("$d"); }
done
[ ${#boards[@]} -gt 0 ] || die "no Broadcom device trees in $DTB"
cp "$W/anchor-alert.conf" "$B/anchor-alert.conf"
# The LED ring's SPI: an overlay the firmware applies to each board's tree (system/boot/), checked
# here on every tree the card carries (the firmware does the same with libfdt at power-on).
mkdir -p "$B/overlays"
dtc -q -@ -I dts -O dtb -o "$B/overlays/anchor-alert-spi.dtbo" "$HERE/system/boot/anchor-alert-spi.dts" ||
    die "the SPI overlay does not compile"
for d in "${boards[@]}"; do
    fdtoverlay -i "$B/$d.dtb" -o "$W/merged.dtb" "$B/overlays/anchor-alert-spi.dtbo" ||
        die "the SPI overlay does not apply to $d.dtb"
    [ "$(fdtget "$W/merged.dtb" /soc/spi@7e204000 status)" = okay ] &&
        fdtget "$W/merged.dtb" /soc/spi@7e204000/spidev@0 reg >/dev/null ||
        die "the SPI overlay leaves $d.dtb without spidev0.0"
done
cat > "$B/config.txt" <<'EOF'
# Raspberry Pi boot firmware settings for Anchor Alert (image/build-pi-image.sh).
# Debian's 64-bit kernel, and the small initramfs that mounts the card's partitions (the root
# read-only under RAM).
arm_64bit=1
kernel=vmlinuz
initramfs initrd.img followkernel
# UART: the one on GPIO14/15 for a GPS HAT (/dev/serial0, read by gpsd). It also fixes the core
# clock, so the mini UART's baud rate holds on a Pi 3 and Zero 2 W. No console on it.
enable_uart=1
# SPI: SPI0 for the LED ring, data on GPIO10 (pin 19), /dev/spidev0.0. Debian's kernel boots
# the mainline device trees, where "dtparam=spi=on" does nothing; this overlay turns SPI0 on.
dtoverlay=anchor-alert-spi
# Watchdog: the SoC's (bcm2835-wdt) is on in the mainline device trees, so it needs no line
# here ("dtparam=watchdog=on" is for Raspberry Pi's own trees). The initramfs loads its driver
# and systemd feeds /dev/watchdog0 (RuntimeWatchdogSec=14s): a hung Pi resets itself.
# Sound: the siren is a USB sound adapter, which needs no line here; the Pi's own audio output
# stays off (no "dtparam=audio=on"), so the adapter is the only sound card.
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
# Reproducible file systems: fixed ids and seeds, SOURCE_DATE_EPOCH for every time, and the
# boot partition's files copied one by one in sorted order (mcopy -s would follow the order
# the build's directory happens to list them in).
mkfs.vfat -F 32 -n ANCHOR-BOOT -i 414e4348 --invariant "$W/p1" >/dev/null
clamp_times "$B"; clamp_times "$R"
(cd "$B" && find . -mindepth 1 -type d | LC_ALL=C sort | sed 's|^\./||' | while read -r d; do mmd -i "$W/p1" "::$d"; done
 find . -type f | LC_ALL=C sort | sed 's|^\./||' | while read -r f; do mcopy -m -i "$W/p1" "$f" "::$f"; done) ||
    die "could not fill the boot partition"
export E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH
mke2fs -q -t ext4 -L anchor-root -U 6e63686f-722d-4f6f-8f74-000000000002 -E root_owner=0:0,hash_seed=6e63686f-722d-4f6f-8f74-0000000000f2 \
    -d "$R" "$W/p2" ${ROOT_MB}M || die "the root does not fit in $ROOT_MB MiB"
# mke2fs -d copies each file's change time (ctime), which no tool can set on the build's own
# copy, and its access time: both SOURCE_DATE_EPOCH on the card, set inode by inode by debugfs.
(cd "$R" && find . -xdev | LC_ALL=C sort) | sed 's|^\.||; s|^$|/|' |
    awk -v t="$SOURCE_DATE_EPOCH" '/"/ {bad=1} {printf "sif \"%s\" ctime @%s\nsif \"%s\" atime @%s\n", $0, t, $0, t} END {exit bad}' > "$W/times.cmd" ||
    die "a file name in the root holds a double quote, which debugfs cannot be given"
debugfs -w -f "$W/times.cmd" "$W/p2" >/dev/null 2>"$W/times.err"
[ "$(grep -v -c '^debugfs [0-9.]* (' "$W/times.err")" = 0 ] || { head -5 "$W/times.err" >&2; die "debugfs could not set the root's file times"; }
mke2fs -q -t ext4 -L anchor-data -U 6e63686f-722d-4f6f-8f74-000000000003 -E root_owner="$ids",hash_seed=6e63686f-722d-4f6f-8f74-0000000000f3 \
    "$W/p3" $(( (2048 - 1 - BOOT_MB - ROOT_MB) ))M
unset E2FSPROGS_FAKE_TIME
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
