#!/bin/bash
# Installs the appliance's system settings into a root file system: volatile system logs, the
# hardware watchdog, gpsd for a USB receiver, no swap. Used by the Pi image recipe and by the
# boot test's amd64 twin, so both get exactly these files. (config.txt.append and fstab.append
# are the image recipe's: the twin has no Pi firmware and its own disks.)
#
#   image/system/install-system-files.sh ROOT
set -euo pipefail
ROOT=${1:?usage: $0 ROOT}
HERE=$(cd "$(dirname "$0")" && pwd -P)
cp -r "$HERE/files/." "$ROOT/"
# No swap file on the SD card (dphys-swapfile, where the image has it).
for unit in dphys-swapfile.service; do
    if [ -e "$ROOT/lib/systemd/system/$unit" ] || [ -e "$ROOT/usr/lib/systemd/system/$unit" ]; then
        ln -sf /dev/null "$ROOT/etc/systemd/system/$unit"
    fi
done
mkdir -p "$ROOT/var/lib/anchor-alert"
