#!/bin/bash
# The loop's cost on arm64, measured on the arm64 twin (image/README.md): callgrind (trixie's
# valgrind, arm64) over the Pi's own binary (the arm64 package, Swift 6.0.3) inside
# qemu-system-aarch64, the same Cortex-A53 machine as boot-test.sh --arch arm64, booted
# straight into this script's runner instead of systemd (nothing else runs beside the box).
#
#   image/boot-test/bench-arm64.sh [DEB]
#
# `anchor-alert run --simulate FILE --speed 10 --switch on` on a 20 s and an 80 s log of a
# moored boat at 10 Hz (`anchor-bench --holding-log`: 200 and 800 GPS readings), each stopped
# by SIGTERM after the same time; instructions per fix = the difference of callgrind's totals /
# the difference of the readings the box handled (its "stopped after" line). Journal,
# snapshot and control socket on; GPIO, ring and siren not fitted; no gpsd (the simulated GPS
# reads the file). Then the same two logs without valgrind for the peak RSS (VmHWM).
# Measures and prints; asserts nothing. About 21 minutes here with BENCH_WALL=300. Its one run
# so far gave no figure: in the twin without systemd the simulated GPS's pacing did not run
# (image/README.md, "What differs on arm64"), and the script says so instead of a number.
#   BENCH_WALL=SECONDS   how long each callgrind run lasts (default 240)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd -P)
need_host_tools qemu-system-aarch64:qemu-system-arm callgrind_annotate:valgrind debugfs:e2fsprogs
WALL=${BENCH_WALL:-240}
DEB=${1:-}
[ -n "$DEB" ] || DEB=$("$HERE/../build-deb.sh" --arch arm64 | tail -1)
DEB=$(readlink -f "$DEB")
BENCH=${ANCHOR_BENCH:-$REPO_ROOT/.build/release/anchor-bench}
if [ ! -x "$BENCH" ]; then
    (cd "$REPO_ROOT" && nice -n 10 swift build -c release --product anchor-bench >&2) || die "anchor-bench build failed"
fi
TWIN=$IMAGE_CACHE/arm64-twin
RUN=$(mktemp -d "$IMAGE_CACHE/bench-run.XXXXXX")
trap 'rm -rf "$RUN"' EXIT
"$HERE/make-arm64-image.sh" "$DEB" "$RUN" >&2 || die "could not make the disks"

# The bench disk: valgrind (unpacked, run from there), the logs, the configuration, the runner.
ls "$TWIN/debs/"valgrind_*_arm64.deb >/dev/null 2>&1 || {
    TROOT=$("$HERE/../trixie-root.sh")
    trixie_lists "$TROOT"
    (cd "$TWIN/debs" && apt-get download -q -o Dir::State::Lists="$TROOT/var/lib/apt/lists" \
        -o Dir::Etc::SourceList="$TROOT/etc/apt/sources.list" -o Dir::Etc::SourceParts="$TROOT/etc/apt/sources.list.d" \
        -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Architecture=arm64 \
        -o APT::Architectures::=arm64 valgrind:arm64 >/dev/null 2>&1) || die "could not download valgrind:arm64"
}
B=$RUN/bench
mkdir -p "$B"
dpkg-deb -x "$TWIN/debs/"valgrind_*_arm64.deb "$B/vg"
"$BENCH" --holding-log "$B/short.nmea" 20 >/dev/null
"$BENCH" --holding-log "$B/longer.nmea" 80 >/dev/null
printf '[gpio]\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n[ring]\nenabled = false\n[siren]\nenabled = false\n' > "$B/box.conf"
cat > "$B/run.sh" <<EOF
#!/bin/bash
# The bench's runner inside the twin (written by bench-arm64.sh).
W=$WALL
EOF
cat >> "$B/run.sh" <<'EOF'
B=/mnt/bench
export VALGRIND_LIB=$B/vg/usr/libexec/valgrind
box() {   # box NAME [valgrind...]
    local name=$1; shift
    rm -rf /tmp/j /tmp/r
    "$@" /usr/bin/anchor-alert run --config $B/box.conf --simulate $B/$name.nmea --speed 10 --switch on \
        --journal-dir /tmp/j --runtime-dir /tmp/r > $B/$name.out 2>&1 &
    pid=$!
}
for name in short longer; do
    box $name $B/vg/usr/bin/valgrind --tool=callgrind --callgrind-out-file=$B/cg.$name
    sleep $W; kill -TERM $pid; wait $pid
    echo "BENCH: callgrind $name done: $(tail -1 $B/$name.out)"
done
for name in short longer; do
    cp $B/$name.nmea $B/$name.rss.nmea
    box $name.rss
    sleep 30; grep -E '^Vm(HWM|RSS)' /proc/$pid/status | tr -s ' \t' ' ' | paste -sd' ' > $B/$name.hwm
    kill -TERM $pid; wait $pid
    echo "BENCH: $name without valgrind: $(tail -1 $B/$name.rss.out); $(cat $B/$name.hwm)"
done
EOF
chmod 755 "$B/run.sh"
mke2fs -q -t ext4 -L anchor-bench -d "$B" "$RUN/bench.img" 256M || die "mke2fs bench failed"
# The twin's root boots into this init instead of systemd: the same kernel, initramfs, overlay
# root and binary, nothing else running.
cat > "$RUN/init.sh" <<'EOF'
#!/bin/bash
exec > /dev/ttyAMA0 2>&1
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t tmpfs tmpfs /run; mount -t tmpfs tmpfs /tmp
mkdir -p /mnt/bench && mount /dev/vdb /mnt/bench && /mnt/bench/run.sh
echo "BENCH: end"; sync; umount /mnt/bench; echo o > /proc/sysrq-trigger; sleep 10
EOF
debugfs -w -R "write $RUN/init.sh /bench-init.sh" "$RUN/root.img" >/dev/null 2>&1
debugfs -w -R "set_inode_field /bench-init.sh mode 0100755" "$RUN/root.img" >/dev/null 2>&1
t0=$(date +%s)
say "booting the twin into the bench (callgrind runs of $WALL s each)"
nice -n 15 timeout $((WALL * 2 + 600)) qemu-system-aarch64 -M virt -accel tcg -cpu cortex-a53 -smp 1 -m 512 \
    -nodefaults -no-user-config -display none -nic none \
    -kernel "$RUN/vmlinuz" -initrd "$RUN/initrd.img" \
    -append "console=ttyAMA0 quiet loglevel=4 panic=-1 anchor.root=overlay anchor.init=/bench-init.sh" \
    -drive "if=none,id=root,file=$RUN/root.img,format=raw" -device virtio-blk-pci,drive=root \
    -drive "if=none,id=bench,file=$RUN/bench.img,format=raw" -device virtio-blk-pci,drive=bench \
    -device virtio-rng-pci -serial "file:$RUN/console.log" < /dev/null || say "qemu exited $?"
grep '^BENCH' "$RUN/console.log" >&2 || { tail -30 "$RUN/console.log" >&2; die "the bench did not run"; }
say "twin run $(( $(date +%s) - t0 )) s"
rm -rf "$B"; mkdir -p "$B"
debugfs -R "rdump / $B" "$RUN/bench.img" >/dev/null 2>&1
O=$B
# (|| true: a missing output must reach the message below, not end the script under set -e)
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}' || true; }
readings() { sed -n 's/.*stopped after .* \([0-9]*\) GPS readings.*/\1/p' "$1" 2>/dev/null | tail -1 || true; }
a=$(total "$O/cg.short"); b=$(total "$O/cg.longer")
ra=$(readings "$O/short.out"); rb=$(readings "$O/longer.out")
[ -n "$a" ] && [ -n "$b" ] && [ -n "$ra" ] && [ -n "$rb" ] && [ "$rb" -gt "$ra" ] ||
    { cat "$O"/short.out "$O"/longer.out >&2 2>/dev/null; die "no callgrind totals or readings (short $a/$ra, longer $b/$rb)"; }
echo "arm64 instructions: 200-fix log $a ($ra GPS readings handled), 800-fix log $b ($rb GPS readings handled)"
echo "arm64 instructions per fix: $(( (b - a) / (rb - ra) )) (difference / $((rb - ra)) readings, whole process)"
for n in short longer; do echo "arm64 $n log without valgrind: $(tail -1 "$O/$n.rss.out"); $(cat "$O/$n.hwm")"; done
