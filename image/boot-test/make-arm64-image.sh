#!/bin/bash
# Makes the disks of the boot test's arm64 machine: the arm64 twin of the Pi image, Debian trixie
# (what Pi OS trixie is built from) with Debian's arm64 kernel, booted by boot-test.sh --arch
# arm64 under qemu-system-aarch64 (`virt`, Cortex-A53 as on a Pi Zero 2 W / Pi 3, 512 MiB).
#
#   image/boot-test/make-arm64-image.sh DEB OUTDIR
#
# There is no binfmt_misc on our machines, so no arm64 program runs in a plain chroot here;
# proot with qemu-aarch64-static (user mode) runs them instead:
#   1. debootstrap --foreign (download, unpack), then its --second-stage as arm64 programs; Debian's
#      arm64 kernel modules and a gpio-sim module cross-built for that kernel (Debian's arm64
#      kernel ships without gpio-sim). Cached as $IMAGE_CACHE/arm64-twin/base, remade when its
#      recipe changes.
#   2. per run: the image's system files and the test's stand-ins copied in, and the package
#      installed with dpkg -i, its maintainer scripts run as arm64 programs, as the image recipe
#      installs it.
# The test then boots with the root read-only under a RAM overlay, as raspi-config's overlay file
# system runs a Pi: nothing written outside the journal's partition survives a reset.
#
# Writes OUTDIR/root.img (ext4), OUTDIR/data.img (ext4, label anchor-data, the journal's
# partition), OUTDIR/state.img (ext4, label anchor-test: the test runner's memory across resets,
# which the RAM overlay would forget), OUTDIR/vmlinuz, OUTDIR/initrd.img, OUTDIR/kernel-version.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/test-files.sh"
HERE=$(cd "$(dirname "$0")" && pwd -P)
DEB=$(readlink -f "${1:?usage: $0 DEB OUTDIR}")
OUT=${2:?usage: $0 DEB OUTDIR}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd -P)
need_host_tools debootstrap:debootstrap proot:proot qemu-aarch64-static:qemu-user-static \
    mke2fs:e2fsprogs depmod:kmod cpio:cpio xz:xz-utils
TWIN=$IMAGE_CACHE/arm64-twin
mkdir -p "$TWIN/debs"
exec 9>"$IMAGE_CACHE/.arm64-twin.lock"; flock 9

# The trixie build root's package lists and cross compiler serve the kernel and gpio-sim.
TROOT=$("$HERE/../trixie-root.sh")
trixie_lists "$TROOT"
apt_trixie() {   # host apt with the trixie root's sources and lists, arm64 packages
    "$@" -o Dir::State::Lists="$TROOT/var/lib/apt/lists" -o Dir::Etc::SourceList="$TROOT/etc/apt/sources.list" \
        -o Dir::Etc::SourceParts="$TROOT/etc/apt/sources.list.d" -o Dir::Cache::pkgcache= \
        -o Dir::Cache::srcpkgcache= -o APT::Architecture=arm64 -o APT::Architectures::=arm64
}
download() {   # download PACKAGE[:arm64]... into $TWIN/debs
    # A version the lists name may be gone from the archive (trixie's point releases): the
    # lists are updated once and the download tried again.
    (cd "$TWIN/debs" && apt_trixie apt-get download -q "$@" >/dev/null 2>&1) || {
        trixie_lists "$TROOT" --refresh
        (cd "$TWIN/debs" && apt_trixie apt-get download -q "$@" >/dev/null 2>&1)
    } || die "could not download $* from trixie"
}

# ---------------------------------------------------------------- the kernel
kernel_package() {
    apt_trixie apt-cache depends linux-image-arm64:arm64 2>/dev/null |
        sed -n 's/^ *Depends: \(linux-image-[^:]*\).*/\1/p' | head -1
}
KPKG=$(kernel_package)
[ -n "$KPKG" ] || { trixie_lists "$TROOT" --refresh; KPKG=$(kernel_package); }
[ -n "$KPKG" ] || die "no linux-image-arm64 in the trixie root's lists, even after apt-get update in $TROOT"
KVER=${KPKG#linux-image-}
KDIR=$TWIN/kernel-$KVER
if [ ! -f "$KDIR/boot/vmlinuz-$KVER" ]; then
    say "Debian trixie's arm64 kernel $KVER is not in $KDIR: unpacking it (make-arm64-image.sh)"
    ls "$TWIN/debs/$KPKG"_*_arm64.deb >/dev/null 2>&1 || download "$KPKG:arm64"
    rm -rf "$KDIR.tmp"; mkdir -p "$KDIR.tmp"
    dpkg-deb -x "$TWIN/debs/$KPKG"_*_arm64.deb "$KDIR.tmp"
    ln -s usr/lib "$KDIR.tmp/lib"
    depmod -b "$KDIR.tmp" "$KVER"
    mv "$KDIR.tmp" "$KDIR"
fi
# The finding of issue 17: Debian's arm64 kernel is built without gpio-sim.
if grep -q '^CONFIG_GPIO_SIM=[ym]' "$KDIR/boot/config-$KVER"; then
    die "this kernel ($KVER) has its own gpio-sim: use it instead of the cross-built one"
fi

# ---------------------------------------------------------------- gpio-sim, cross-built
# As ../shared/vm/run-in-vm.sh does for amd64: upstream gpio-sim.c and irq_sim.c from Debian's
# linux-source of the same version, one out-of-tree module, against the arm64 headers. The
# headers' build tools come from the amd64 linux-kbuild, the compiler is trixie's
# gcc-14-aarch64-linux-gnu (the kernel's own compiler, see CONFIG_CC_VERSION_TEXT).
GPIO_SIM=$TWIN/gpio-sim-$KVER.ko
if [ ! -f "$GPIO_SIM" ]; then
    say "cross-building gpio-sim for $KVER"
    kbuild=linux-kbuild-${KVER%-arm64}
    in_root "$TROOT" sh -c "command -v aarch64-linux-gnu-gcc-14 >/dev/null && [ -d /usr/lib/$kbuild ] && [ -d /usr/src/linux-headers-${KVER%-arm64}-common ] ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
          gcc-14-aarch64-linux-gnu make $kbuild linux-headers-${KVER%-arm64}-common; }" >&2 ||
        die "could not install the cross compiler and $kbuild in $TROOT"
    hpkg=linux-headers-$KVER
    ls "$TWIN/debs/$hpkg"_*_arm64.deb >/dev/null 2>&1 || download "$hpkg:arm64"
    [ -d "$TROOT/usr/src/$hpkg" ] || dpkg-deb -x "$TWIN/debs/$hpkg"_*_arm64.deb "$TROOT/"
    majmin=$(echo "$KVER" | cut -d. -f1,2)
    src=$TWIN/src-$majmin
    if [ ! -f "$src/gpio-sim-main.c" ]; then
        ls "$TWIN/debs/linux-source-$majmin"_*.deb >/dev/null 2>&1 || download "linux-source-$majmin"
        t=$(mktemp -d "$TWIN/src.XXXXXX")
        dpkg-deb --fsys-tarfile "$TWIN/debs/linux-source-$majmin"_*.deb |
            tar -xO "./usr/src/linux-source-$majmin.tar.xz" | xz -dc |
            tar -x -C "$t" --wildcards "*/drivers/gpio/gpio-sim.c" "*/drivers/gpio/gpiolib.h" "*/kernel/irq/irq_sim.c"
        s=$t/linux-source-$majmin
        cp "$s/drivers/gpio/gpio-sim.c" "$t/gpio-sim-main.c"
        cp "$s/drivers/gpio/gpiolib.h" "$s/kernel/irq/irq_sim.c" "$t/"
        rm -rf "$s"
        # irq_to_desc() is not exported to modules; generic_handle_irq() does the same.
        sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$t/irq_sim.c"
        printf '%s\n' 'obj-m := gpio-sim.o' 'gpio-sim-y := gpio-sim-main.o irq_sim.o' > "$t/Kbuild"
        rm -rf "$src"; mv "$t" "$src"
    fi
    b=$TROOT/var/tmp/gpio-sim-build
    rm -rf "$b"; mkdir -p "$b"; cp "$src"/* "$b/"
    in_root "$TROOT" make -s -C "/usr/src/$hpkg" M=/var/tmp/gpio-sim-build ARCH=arm64 \
        CROSS_COMPILE=aarch64-linux-gnu- modules >&2 || die "the gpio-sim build failed"
    cp "$b/gpio-sim.ko" "$GPIO_SIM.tmp" && mv "$GPIO_SIM.tmp" "$GPIO_SIM"
    rm -rf "$b"
fi

# ---------------------------------------------------------------- the initramfs (cached)
# Debian's initrd is made by initramfs-tools on the machine itself; here a small busybox one does
# what a Pi's does: loads the disk and file system modules, and for the test mounts the root
# read-only under a RAM overlay (what raspi-config's overlay file system does on the Pi), the
# lower root at /media/root-ro as overlayroot has it.
INITRD=$TWIN/initrd-$KVER.img
if [ ! -f "$INITRD" ] || [ "$INITRD" -ot "$0" ]; then
    say "initramfs for $KVER"
    ls "$TWIN/debs/"busybox-static_*_arm64.deb >/dev/null 2>&1 || download busybox-static:arm64
    t=$(mktemp -d "$TWIN/initrd.XXXXXX")
    dpkg-deb -x "$TWIN/debs/"busybox-static_*_arm64.deb "$t/pkg"
    mkdir -p "$t/root/bin" "$t/root/mods" "$t/root/proc" "$t/root/sys" "$t/root/dev" "$t/root/newroot"
    cp "$t/pkg/usr/bin/busybox" "$t/root/bin/busybox"
    n=0
    for m in virtio_blk crc32c_generic ext4 overlay; do
        modprobe -d "$KDIR" -S "$KVER" --show-depends "$m" | awk '$1 == "insmod" {print $2}'
    done | awk '!seen[$0]++' | while read -r ko; do
        n=$((n+1)); xz -dc "$ko" > "$t/root/mods/$(printf %02d "$n")-$(basename "${ko%.xz}")"
    done
    cat > "$t/root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in /mods/*.ko; do insmod "$m" || echo "initramfs: insmod $m failed"; done
arg() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
for i in $(seq 200); do [ -b /dev/vda ] && break; sleep 0.1; done
if [ "$(arg anchor.root)" = overlay ]; then
    mkdir -p /lower /upper
    mount -t ext4 -o ro,noatime /dev/vda /lower || { echo "initramfs: no root"; sh; }
    mount -t tmpfs -o mode=0755,size=128m tmpfs /upper && mkdir -p /upper/rw /upper/work
    mount -t overlay -o lowerdir=/lower,upperdir=/upper/rw,workdir=/upper/work overlay /newroot
    mkdir -p /newroot/media/root-ro /newroot/media/root-rw
    mount --move /lower /newroot/media/root-ro; mount --move /upper /newroot/media/root-rw
else
    mount -t ext4 -o rw,noatime /dev/vda /newroot || { echo "initramfs: no root"; sh; }
fi
init=$(arg anchor.init); [ -n "$init" ] || init=/sbin/init
mount --move /dev /newroot/dev; umount /sys /proc
exec switch_root /newroot "$init"
INIT
    chmod 755 "$t/root/init"
    (cd "$t/root" && find . | cpio -o -H newc --quiet | gzip -1) > "$INITRD.tmp"
    mv "$INITRD.tmp" "$INITRD"; rm -rf "$t"
fi

# Runs an arm64 command in an arm64 root: proot hands every exec to qemu-aarch64-static (user
# mode), which is what binfmt_misc would do if we had it. Several times faster than finishing
# the root inside qemu-system-aarch64 (measured here: its second stage reached in 2.5 min what
# the emulated machine reached in 12), and the same programs do the same work.
# proot 5.1 aborts (an assertion on an empty path) when systemd-tmpfiles runs under it, from
# systemd's postinst: a stub stands in for it while packages are configured here, bound at
# /usr/sbin/systemd-tmpfiles, which comes first in the PATH of maintainer scripts (debootstrap
# sets /sbin:/usr/sbin:...) while the real one stays at /usr/bin, where dpkg unpacks it. No file
# of the root is replaced; the real one runs at every boot (systemd-tmpfiles-setup.service).
TMPFILES_STUB=$TWIN/systemd-tmpfiles-stub
printf '%s\n' '#!/bin/sh' '# Stand-in while packages are configured under proot (make-arm64-image.sh).' 'exit 0' > "$TMPFILES_STUB"
chmod 755 "$TMPFILES_STUB"
in_arm64() {   # in_arm64 ROOT COMMAND...
    local root=$1; shift
    # In a private mount namespace: proot passes mount(2) through, so debootstrap's own mount of
    # /proc would otherwise land on the host's copy of the root and stay there.
    nice -n 15 unshare --mount --propagation private \
        proot -q qemu-aarch64-static -r "$root" -b /proc -b /sys -b /dev \
        -b "$TMPFILES_STUB:/usr/sbin/systemd-tmpfiles" -w / \
        /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root "$@"
}

# ---------------------------------------------------------------- the base root (cached)
PACKAGES=(systemd-sysv udev kmod procps gpsd python3-minimal gpiod adduser init-system-helpers
          libasound2t64 libgpiod3 libgps30t64 libsystemd0 libmosquitto1 libstdc++6 libgcc-s1 e2fsprogs)
BASE=$TWIN/base
stamp=$( { printf '%s\n' "${PACKAGES[@]}" "$KVER" arm64-base-v2; sha256sum "$GPIO_SIM"; } | sha256sum | cut -c1-16)
if [ ! -f "$BASE/.anchor-stamp" ] || [ "$(cat "$BASE/.anchor-stamp")" != "$stamp" ]; then
    say "the twin's base root $BASE is missing or out of date: making it (make-arm64-image.sh, about 25 min under emulation)"
    t0=$(date +%s)
    R=$BASE.tmp
    rm -rf "$R" "$BASE"
    # The first stage (download and unpack, host programs only) is kept: the second one alters
    # its root.
    S1=$TWIN/stage1
    stamp1=$(printf '%s\n' "${PACKAGES[@]}" stage1-v1 | sha256sum | cut -c1-16)
    if [ "$(cat "$S1/.anchor-stamp" 2>/dev/null)" != "$stamp1" ]; then
        say "debootstrap --foreign trixie arm64 (first stage: download and unpack)"
        rm -rf "$S1" "$S1.tmp"
        debootstrap --foreign --arch=arm64 --variant=minbase --include="$(IFS=,; echo "${PACKAGES[*]}")" \
            trixie "$S1.tmp" "$DEBIAN_MIRROR" > "$TWIN/debootstrap.log" 2>&1 ||
            { tail -20 "$TWIN/debootstrap.log" >&2; die "debootstrap's first stage failed"; }
        echo "$stamp1" > "$S1.tmp/.anchor-stamp"; mv "$S1.tmp" "$S1"
    fi
    cp -a "$S1" "$R"; rm -f "$R/.anchor-stamp"
    # The second stage scans the archive's whole package index (56 MB) with perl several times;
    # under emulation each scan takes minutes. It needs only the stanzas of what it installs.
    for pk in "$R"/var/lib/apt/lists/*_Packages; do
        perl -00 -ne 'BEGIN { %k = map { $_ => 1 } split /\s+/, shift @ARGV } print if /^Package: (\S+)$/m && $k{$1}' \
            "$(awk '{print $1}' "$R/debootstrap/debpaths")" "$pk" > "$pk.trim" && mv "$pk.trim" "$pk"
    done
    say "debootstrap --second-stage, arm64 under qemu-aarch64-static (proot)"
    in_arm64 "$R" DEBOOTSTRAP_DIR=/debootstrap /debootstrap/debootstrap --second-stage >> "$TWIN/debootstrap.log" 2>&1 ||
        { tail -20 "$TWIN/debootstrap.log" >&2; die "debootstrap's second stage failed"; }
    # Debian's arm64 kernel modules and the cross-built gpio-sim.
    mkdir -p "$R/usr/lib/modules"
    cp -a "$KDIR/usr/lib/modules/$KVER" "$R/usr/lib/modules/"
    mkdir -p "$R/usr/lib/modules/$KVER/updates" && cp "$GPIO_SIM" "$R/usr/lib/modules/$KVER/updates/gpio-sim.ko"
    depmod -b "$R" "$KVER"
    in_arm64 "$R" passwd -d root >/dev/null
    rm -rf "$R/var/cache/apt/archives/"*.deb
    echo "$stamp" > "$R/.anchor-stamp"
    mv "$R" "$BASE"
    say "base root made in $(( $(date +%s) - t0 )) s"
fi
[ "${TWIN_BASE_ONLY:-0}" = 1 ] && { say "base root ready: $BASE"; exit 0; }

# ---------------------------------------------------------------- this run's disks
work=$(mktemp -d "$TWIN/root.XXXXXX"); trap 'rm -rf "$work"' EXIT
cp -a "$BASE/." "$work/"
R=$work
# The image's settings, the test's stand-ins, its runner and units: the amd64 twin's
# (test-files.sh).
put_test_files "$R" ttyAMA0 in_arm64
# The root is mounted by the initramfs (read-only, under the overlay): no line for it. The
# journal's partition as on the Pi (image/system/fstab.append), with a 300 s device wait (udev
# took 90 s to announce the disks in one run under emulation, and the next timed out); the
# runner's memory is required, so a missing one stops the boot visibly.
printf '%s\n' \
    "LABEL=anchor-data /var/lib/anchor-alert ext4 defaults,noatime,nofail,x-systemd.device-timeout=300s 0 2" \
    "LABEL=anchor-test /var/lib/anchor-test ext4 defaults,noatime,x-systemd.device-timeout=300s 0 2" > "$R/etc/fstab"
# Installed the way the image recipe installs it (no systemd running: enabled, not started),
# its maintainer scripts run as arm64 programs.
cp "$DEB" "$R/root/"
t0=$(date +%s)
in_arm64 "$R" dpkg -i "/root/${DEB##*/}" >&2 || die "dpkg -i of the package failed in the arm64 root"
rm -f "$R/root/${DEB##*/}"
in_arm64 "$R" systemctl is-enabled anchor-alert.service >/dev/null || die "anchor-alert.service is not enabled after install"
say "dpkg -i ${DEB##*/} in the arm64 root: $(( $(date +%s) - t0 )) s"
cp -r "$HERE/guest/etc-anchor/." "$R/etc/anchor-alert/"
rm -f "$OUT/root.img" "$OUT/data.img" "$OUT/state.img"
mke2fs -q -t ext4 -L anchor-root -d "$R" "$OUT/root.img" 1536M || die "mke2fs root failed"
mke2fs -q -t ext4 -L anchor-data "$OUT/data.img" 256M || die "mke2fs data failed"
mke2fs -q -t ext4 -L anchor-test "$OUT/state.img" 16M || die "mke2fs state failed"
cp "$KDIR/boot/vmlinuz-$KVER" "$OUT/vmlinuz"; cp "$INITRD" "$OUT/initrd.img"
echo "$KVER" > "$OUT/kernel-version"
say "arm64 root.img, data.img and state.img ready in $OUT (kernel $KVER)"
