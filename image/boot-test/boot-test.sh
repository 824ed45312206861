#!/bin/bash
# The boot test: boots the amd64 twin of the Pi image (make-image.sh) with this machine's Debian
# kernel under QEMU, systemd as init, and lets the runner inside check the service
# (guest/rootfs/usr/local/sbin/anchor-boot-test.sh). The host's part: start the machine, pass
# the results through, and cut its power when the runner asks for it (amd64: QEMU killed where
# it stands and started again on the same disks; arm64: "system_reset"; no shutdown either way).
#
#   image/boot-test/boot-test.sh [--arch amd64|arm64] [--trivial] [DEB]
#   image/boot-test/boot-test.sh --pi [IMG]
#
#   --pi       the Pi card itself (out/anchor-alert-pi-arm64.img, or IMG) booted as the SD card
#              of qemu-system-aarch64 -M raspi3b: pi-boot-test.sh (its own checks and summary)
#   --arch     amd64 (default): Debian 12 twin with this machine's kernel (make-image.sh);
#              arm64: Debian trixie arm64 twin with Debian's arm64 kernel under
#              qemu-system-aarch64 (make-arm64-image.sh): the Pi's own libraries (libgpiod 2,
#              gpsd 3.25), its Swift 6.0.3 binary, a read-only root under a RAM overlay
#   --trivial  check the machine with a stand-in notify service instead of anchor-alert
#              (boot, readiness, watchdog restart, hard reset); anchor-alert is masked
#   DEB        the package to install (default: built with image/build-deb.sh --arch ARCH)
#   BOOT_TEST_ONLY=nmea  (environment) boot once and run only the check that NMEA's allowed
#              addresses and the Systems Check agree (anchor.only=nmea; minutes, not a quarter hour)
#
# Runs under software emulation here (no usable KVM): budget minutes (amd64) or tens of minutes
# (arm64, one vCPU). The same runner checks both machines. Exit 0 when every check passed; the
# last line is "boot test: N passed, M failed".
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd -P)
MODE=full DEB= ARCH=amd64
if [ "${1:-}" = --pi ]; then shift; exec "$HERE/pi-boot-test.sh" "$@"; fi
while [ $# -gt 0 ]; do
    a=$1; shift
    case $a in
        --arch) ARCH=${1:?--arch needs amd64 or arm64}; shift;;
        --arch=*) ARCH=${a#*=};;
        --trivial) MODE=trivial;;
        -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0;;
        -*) die "unknown option $a";;
        *) DEB=$a;;
    esac
done
case $ARCH in
    amd64) need_host_tools qemu-system-x86_64:qemu-system-x86 python3:python3-minimal;;
    arm64) need_host_tools qemu-system-aarch64:qemu-system-arm python3:python3-minimal;;
    *) die "--arch must be amd64 or arm64";;
esac
T0=$(date +%s.%N)
elapsed() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.0f", b-a}'; }

[ -n "$DEB" ] || DEB=$("$HERE/../build-deb.sh" --arch "$ARCH" | tail -1)
DEB=$(readlink -f "$DEB")
mkdir -p "$IMAGE_CACHE"
RUN=$(mktemp -d "$IMAGE_CACHE/boot-run.XXXXXX")
QPID=
cleanup() {
    # (|| true: under set -e a machine already gone would end the trap before the console is kept)
    [ -n "$QPID" ] && kill "$QPID" 2>/dev/null && sleep 0.5 && kill -9 "$QPID" 2>/dev/null || true
    [ -f "$RUN/console.log" ] && cp "$RUN/console.log" "$IMAGE_CACHE/boot-test-$ARCH-console.log"
    rm -rf "$RUN"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ "$ARCH" = amd64 ]; then
    "$HERE/make-image.sh" "$DEB" "$RUN" >&2 || die "could not make the disks"
else
    "$HERE/make-arm64-image.sh" "$DEB" "$RUN" >&2 || die "could not make the disks"
fi
T_IMAGE=$(elapsed)
KVER=$(cat "$RUN/kernel-version")
: > "$RUN/results.log"
# Appended to, never truncated: the amd64 machine is started twice on them.
RESULTS=(-device virtio-serial-pci -chardev "file,id=res,path=$RUN/results.log,append=on"
         -device virtserialport,chardev=res,name=results
         -chardev "file,id=con,path=$RUN/console.log,append=on" -serial chardev:con
         -monitor "unix:$RUN/monitor.sock,server,nowait")

if [ "$ARCH" = amd64 ]; then
# The uncompressed kernel that run-in-vm.sh extracts boots faster under emulation (PVH entry).
KERNEL=/boot/vmlinuz-$KVER
VMLINUX=${VM_STATE:-/var/cache/anchor-alert-vm}/cache/vmlinux-$KVER
[ -s "$VMLINUX" ] && grep -q '^CONFIG_PVH=y' "/boot/config-$KVER" && KERNEL=$VMLINUX
ACCEL=(-accel tcg,thread=multi -cpu max)
if [ -w /dev/kvm ] && [ ! -d /sys/module/kvm_pvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then ACCEL=(-accel kvm -cpu host); fi
APPEND="root=/dev/vda rw console=ttyS0 quiet loglevel=4 panic=-1 tsc=reliable mitigations=off anchor.test=$MODE"
[ "$MODE" = trivial ] && APPEND="$APPEND systemd.mask=anchor-alert.service"

start_machine() {
    qemu-system-x86_64 -name anchor-twin -machine q35 "${ACCEL[@]}" -smp 2 -m 1024 \
        -nodefaults -no-user-config -display none -vga none -nic none \
        -kernel "$KERNEL" -initrd "/boot/initrd.img-$KVER" -append "$APPEND" \
        -drive "file=$RUN/root.img,format=raw,if=virtio" \
        -drive "file=$RUN/data.img,format=raw,if=virtio" \
        -device virtio-rng-pci "${RESULTS[@]}" < /dev/null &
    QPID=$!
}
else
# The Pi Zero 2 W's core (Cortex-A53) and memory (512 MiB), one vCPU and low priority: the
# machine is shared. Disks in this order: vda root (read-only under the overlay), vdb the
# journal's partition, vdc the runner's memory. An i6300esb is the hardware watchdog that
# systemd feeds (the Pi's is bcm2835-wdt).
ACCEL=(-accel tcg -cpu cortex-a53)
APPEND="console=ttyAMA0 quiet loglevel=4 panic=-1 anchor.root=overlay anchor.test=$MODE"
[ "$MODE" = trivial ] && APPEND="$APPEND systemd.mask=anchor-alert.service"
start_machine() {
    nice -n 15 qemu-system-aarch64 -name anchor-twin-arm64 -M virt "${ACCEL[@]}" -smp 1 -m 512 \
        -nodefaults -no-user-config -display none -nic none \
        -kernel "$RUN/vmlinuz" -initrd "$RUN/initrd.img" -append "$APPEND" \
        -drive "if=none,id=root,file=$RUN/root.img,format=raw" -device virtio-blk-pci,drive=root \
        -drive "if=none,id=data,file=$RUN/data.img,format=raw" -device virtio-blk-pci,drive=data \
        -drive "if=none,id=state,file=$RUN/state.img,format=raw" -device virtio-blk-pci,drive=state \
        -device i6300esb -device virtio-rng-pci "${RESULTS[@]}" < /dev/null &
    QPID=$!
}
fi
[ -n "${BOOT_TEST_ONLY:-}" ] && APPEND="$APPEND anchor.only=$BOOT_TEST_ONLY"
start_machine
say "machine started ($ARCH, $MODE, kernel $KVER, ${ACCEL[1]%%,*}); disks made in ${T_IMAGE} s"

monitor() {   # monitor COMMAND: one command to the QEMU monitor
    python3 - "$RUN/monitor.sock" "$1" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); time.sleep(0.2)
s.sendall(sys.argv[2].encode() + b"\n"); time.sleep(0.5); s.close()
PY
}

# Two boots, a drag at the recording's pace and a watchdog restart: 1,085 s and 1,201 s here
# on a loaded host (the second cut short by the old 1,200 s budget).
TIMEOUT=${BOOT_TEST_TIMEOUT:-2700}
[ "$ARCH" = arm64 ] && TIMEOUT=${BOOT_TEST_TIMEOUT:-5400}
seen=0 reset_done=0 summary=
while kill -0 "$QPID" 2>/dev/null; do
    n=$(wc -l < "$RUN/results.log")
    if [ "$n" -gt "$seen" ]; then
        sed -n "$((seen+1)),${n}p" "$RUN/results.log" | while IFS= read -r line; do
            echo "[+$(elapsed)s] $line"
        done
        seen=$n
    fi
    if [ "$reset_done" = 0 ] && grep -q '^RESET-NOW' "$RUN/results.log"; then
        if [ "$ARCH" = amd64 ]; then
            # The power goes: QEMU killed where it stands (what the guest had not written is
            # gone with its RAM), then a cold start on the same disks. QEMU's warm system_reset
            # left this kernel 3 to 10 minutes in soft lockups at its next start (swapper, before
            # init; with one vCPU as with two), where its cold starts take under a minute.
            say "power cut (QEMU killed: no shutdown, the RAM gone), then power on"
            kill -9 "$QPID" 2>/dev/null || true
            wait "$QPID" 2>/dev/null || true
            start_machine
            say "machine started again"
        else
            say "hard reset (system_reset: no shutdown, the power button of a dying battery)"
            monitor system_reset
        fi
        reset_done=1
    fi
    if grep -q '^boot test: ' "$RUN/results.log"; then
        summary=$(grep '^boot test: ' "$RUN/results.log" | tail -1)
        for i in $(seq 100); do kill -0 "$QPID" 2>/dev/null || break; sleep 0.2; done
        break
    fi
    if [ "$(elapsed)" -gt "$TIMEOUT" ]; then
        say "TIMEOUT after $TIMEOUT s; last console lines:"; tail -25 "$RUN/console.log" >&2
        break
    fi
    sleep 1
done
n=$(wc -l < "$RUN/results.log")
[ "$n" -gt "$seen" ] && sed -n "$((seen+1)),${n}p" "$RUN/results.log"
# The guest powers off right after its summary: the machine may be gone before the loop saw the
# line, so the summary is read from the results whatever ended the loop.
[ -n "$summary" ] || summary=$(grep '^boot test: ' "$RUN/results.log" | tail -1 || true)
say "total $(elapsed) s (disks ${T_IMAGE} s); guest console: $IMAGE_CACHE/boot-test-$ARCH-console.log"
if [ -z "$summary" ]; then
    echo "boot test: 0 passed, 1 failed"
    exit 1
fi
case $summary in *" 0 failed"*) exit 0;; *) exit 1;; esac
