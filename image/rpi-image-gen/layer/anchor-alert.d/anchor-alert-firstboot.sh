#!/bin/bash
# First boot (anchor-alert-firstboot.service). Not run here: written for Pi OS trixie on an SD
# card or NVMe, checked only by reading; see image/rpi-image-gen/README.md.
#
# 1. The journal's partition: if no file system is labelled anchor-data, a 256 MiB partition
#    is made in the free space after the last one and formatted ext4. fstab mounts it at
#    /var/lib/anchor-alert (nofail: the box rings even if it is missing).
# 2. The read-only root: raspi-config's overlay file system (root in RAM over the card, the
#    boot partition read-only), so a power cut can never damage the system. Only the journal's
#    partition is written.
set -euo pipefail
DONE=/var/lib/anchor-alert-firstboot.done

if ! blkid -L anchor-data >/dev/null 2>&1; then
    root=$(findmnt -n -o SOURCE /)
    disk=/dev/$(lsblk -n -o PKNAME "$root")
    echo "anchor-alert first boot: making the journal partition on $disk"
    # ",256M,L" after the last partition: sfdisk places it at the first free sector.
    echo ',256M,L' | sfdisk --append --no-reread "$disk"
    partprobe "$disk" 2>/dev/null || partx -u "$disk"
    udevadm settle
    part=$(lsblk -n -p -o NAME "$disk" | tail -1)
    mkfs.ext4 -q -L anchor-data "$part"
    udevadm settle
    mount /var/lib/anchor-alert
    systemd-tmpfiles --create 2>/dev/null || true
fi

echo "anchor-alert first boot: read-only root overlay"
raspi-config nonint do_overlayfs 0

# The overlay takes over at the reboot: until then the root is still the card itself, so the
# marker and the disabled unit are written to it and stay.
touch "$DONE"
systemctl disable anchor-alert-firstboot.service
sync
systemctl reboot
