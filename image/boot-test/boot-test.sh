#!/bin/bash
# The boot test: boots the amd64 twin of the Pi image (make-image.sh) with this machine's Debian
# kernel under QEMU, systemd as init, and lets the runner inside check the service
# (guest/rootfs/usr/local/sbin/anchor-boot-test.sh). The host's part: start the machine, pass
# the results through, and press the reset button ("system_reset", no shutdown) when the runner
# asks for it.
#
#   image/boot-test/boot-test.sh [--trivial] [DEB]
#
#   --trivial  check the machine with a stand-in notify service instead of anchor-alert
#              (boot, readiness, watchdog restart, hard reset); anchor-alert is masked
#   DEB        the amd64 package to install (default: built with image/build-deb.sh)
#
# Runs under software emulation here (no usable KVM): budget minutes. Exit 0 when every check
# passed; the last line is "boot test: N passed, M failed".
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd -P)
MODE=full DEB=
for a in "$@"; do
    case $a in
        --trivial) MODE=trivial;;
        -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0;;
        -*) die "unknown option $a";;
        *) DEB=$a;;
    esac
done
need_host_tools qemu-system-x86_64:qemu-system-x86 python3:python3-minimal
T0=$(date +%s.%N)
elapsed() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.0f", b-a}'; }

[ -n "$DEB" ] || DEB=$("$HERE/../build-deb.sh" --arch amd64 | tail -1)
DEB=$(readlink -f "$DEB")
RUN=$(mktemp -d "$IMAGE_CACHE/boot-run.XXXXXX")
QPID=
cleanup() {
    [ -n "$QPID" ] && kill "$QPID" 2>/dev/null && sleep 0.5 && kill -9 "$QPID" 2>/dev/null
    [ -f "$RUN/console.log" ] && cp "$RUN/console.log" "$IMAGE_CACHE/boot-test-console.log"
    rm -rf "$RUN"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
"$HERE/make-image.sh" "$DEB" "$RUN" >&2 || die "could not make the disks"
T_IMAGE=$(elapsed)
KVER=$(cat "$RUN/kernel-version")

# The uncompressed kernel that run-in-vm.sh extracts boots faster under emulation (PVH entry).
KERNEL=/boot/vmlinuz-$KVER
VMLINUX=${VM_STATE:-/var/cache/anchor-alert-vm}/cache/vmlinux-$KVER
[ -s "$VMLINUX" ] && grep -q '^CONFIG_PVH=y' "/boot/config-$KVER" && KERNEL=$VMLINUX
ACCEL=(-accel tcg,thread=multi -cpu max)
if [ -w /dev/kvm ] && [ ! -d /sys/module/kvm_pvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then ACCEL=(-accel kvm -cpu host); fi
APPEND="root=/dev/vda rw console=ttyS0 quiet loglevel=4 panic=-1 tsc=reliable mitigations=off anchor.test=$MODE"
[ "$MODE" = trivial ] && APPEND="$APPEND systemd.mask=anchor-alert.service"

: > "$RUN/results.log"
qemu-system-x86_64 -name anchor-twin -machine q35 "${ACCEL[@]}" -smp 2 -m 1024 \
    -nodefaults -no-user-config -display none -vga none -nic none \
    -kernel "$KERNEL" -initrd "/boot/initrd.img-$KVER" -append "$APPEND" \
    -drive "file=$RUN/root.img,format=raw,if=virtio" \
    -drive "file=$RUN/data.img,format=raw,if=virtio" \
    -device virtio-rng-pci \
    -device virtio-serial-pci -chardev "file,id=res,path=$RUN/results.log" \
    -device virtserialport,chardev=res,name=results \
    -serial "file:$RUN/console.log" \
    -monitor "unix:$RUN/monitor.sock,server,nowait" < /dev/null &
QPID=$!
say "machine started ($MODE, kernel $KVER, ${ACCEL[1]%%,*}); disks made in ${T_IMAGE} s"

monitor() {   # monitor COMMAND: one command to the QEMU monitor
    python3 - "$RUN/monitor.sock" "$1" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); time.sleep(0.2)
s.sendall(sys.argv[2].encode() + b"\n"); time.sleep(0.5); s.close()
PY
}

TIMEOUT=${BOOT_TEST_TIMEOUT:-1200}
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
        say "hard reset (system_reset: no shutdown, the power button of a dying battery)"
        monitor system_reset
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
say "total $(elapsed) s (disks ${T_IMAGE} s); guest console: $IMAGE_CACHE/boot-test-console.log"
if [ -z "$summary" ]; then
    echo "boot test: 0 passed, 1 failed"
    exit 1
fi
case $summary in *" 0 failed"*) exit 0;; *) exit 1;; esac
