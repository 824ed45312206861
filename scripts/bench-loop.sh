#!/usr/bin/env bash
# The loop's cost on the real path (Docs/benchmarks.md, "The loop's cost"): `anchor-alert run`
# on a real gpsd fed by gpsfake at 10 Hz, with the journal, the status snapshot and the control
# socket; marked with `anchor-alert mark`, armed with the simulated switch, holding.
#   1. instructions per fix: callgrind's totals for a 200-fix and an 800-fix log, their difference
#      divided by the difference of the GPS readings the box handled (its "stopped after" line:
#      under valgrind it misses the first few fixes while it starts)
#   2. peak RSS (VmHWM) and wakeups per second ("stopped after N s, N GPS readings, N wakeups")
#      at 10 Hz and 1 Hz; and the steady state alone: the loop thread's sleeps counted by the
#      kernel (voluntary_ctxt_switches of its task, an upper bound on its wakeups: every poll(2)
#      that sleeps is one) from 5 s after arming to 5 s before the log's last reading
#   3. systemd's watchdog as the unit has it (WatchdogSec=10s): the box runs with WATCHDOG_USEC
#      and a NOTIFY_SOCKET (scripts/notify-sink.py) that records each ping; pings and the
#      longest gap between two are printed
# Measures and prints; asserts nothing. GPIO, ring and siren are not fitted here (no hardware
# outside the VM). About 6 minutes (callgrind is ~50x slower than the box).
#   --long SECONDS   the RSS and wakeup runs last SECONDS of fixes each (default 120)
#   --cost-only      only the instructions per fix
#   --drag           the instructions per fix while dragging: the same two runs on a log where the
#                    boat drags away 12 s in (anchor-bench --dragging-log) and lies 80 m off, so the
#                    difference of the two is fixes while checking, dragging and ringing (the status
#                    following the readings); implies --cost-only
#   --no-cost        only the RSS, wakeup and watchdog runs (no callgrind)
#   --keep DIR       leave the two callgrind outputs in DIR (cg.short, cg.longer) to study with
#                    callgrind_annotate --tree=calling
#   --qemu ARCH      instructions per fix counted under user-mode qemu instead of callgrind
#                    (amd64: this build under qemu-x86_64, to check the count against callgrind's;
#                    arm64: image/cross-arm64.sh's binary under qemu-aarch64 with the trixie root's
#                    libraries): scripts/qemu-insn-count.c, a TCG plugin, counts every guest
#                    instruction, the loop's thread (the main one) apart. Only the cost; qemu-user
#                    and gcc (scripts/packages/bench.txt). About 2 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
long=120; cost_only=; no_cost=; keep=; qemu=; kind=holding
while [ $# -gt 0 ]; do
    case $1 in
        --long) long=$2; shift 2 ;;
        --cost-only) cost_only=1; shift ;;
        --drag) kind=dragging; cost_only=1; shift ;;
        --no-cost) no_cost=1; shift ;;
        --keep) keep=$2; shift 2 ;;
        --qemu) qemu=$2; cost_only=1; shift 2 ;;
        *) echo "usage: $0 [--long SECONDS] [--cost-only | --no-cost | --drag] [--keep DIR] [--qemu amd64|arm64]"; exit 64 ;;
    esac
done
tools="valgrind callgrind_annotate gpsfake"
case $qemu in
    '') ;;
    amd64) tools="qemu-x86_64 gcc gpsfake" ;;
    arm64) tools="qemu-aarch64 gcc gpsfake" ;;
    *) echo "bench-loop: --qemu takes amd64 or arm64"; exit 64 ;;
esac
for tool in $tools; do
    command -v $tool >/dev/null || { echo "bench-loop: $tool is not installed (scripts/packages/bench.txt, gpsd-clients)"; exit 0; }
done
swift build -c release --product anchor-alert >/dev/null
swift build -c release --product anchor-bench >/dev/null
T=$(mktemp -d /tmp/aa-bench-loop-XXXXXX)
FAKE=; BOX=; SINK=
cleanup() {
    [ -n "$BOX" ] && kill "$BOX" 2>/dev/null || true
    [ -n "$SINK" ] && kill "$SINK" 2>/dev/null || true
    [ -n "$FAKE" ] && kill -KILL -- "-$FAKE" 2>/dev/null || true
    wait 2>/dev/null || true
    if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$T"/cg.short "$T"/cg.longer "$keep"/ 2>/dev/null || true; fi
    rm -rf "$T"
}
trap cleanup EXIT
# valgrind 3.19 can't read this toolchain's DWARF: a copy without debug info, symbols kept.
cp .build/release/anchor-alert "$T/aa"
strip --strip-debug "$T/aa"
port=$((20000 + RANDOM % 20000))

# One sentence a fix (GGA), so gpsfake's -c 0.1 is 10 Hz.
log() { .build/release/anchor-bench --$kind-log "$T/$1.nmea" "$2" >/dev/null; }

# run NAME SECONDS CYCLE [valgrind...]: the box on gpsfake for the whole log, marked and armed
# after 3 s of fixes, stopped by SIGTERM 2 s after the log ends. Leaves $T/NAME.out.
run() {
    local name=$1 seconds=$2 cycle=$3; shift 3
    local d="$T/$name"; mkdir -p "$d"
    printf '[gps]\nport = %s\n[gpio]\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n[ring]\nenabled = false\n[siren]\nenabled = false\n' \
        "$port" > "$d/box.conf"
    setsid /usr/bin/python3 /usr/bin/gpsfake -1 -q -P "$port" -c "$cycle" -W 3600 "$T/$name.nmea" >"$d/fake.out" 2>&1 &
    FAKE=$!
    /usr/bin/python3 scripts/notify-sink.py "$d/notify" >"$d/notify.out" 2>&1 &
    SINK=$!
    sleep 1.5
    NOTIFY_SOCKET="$d/notify" WATCHDOG_USEC=10000000 \
        "$@" "${BOXBIN:-$T/aa}" run --config "$d/box.conf" --switch off --journal-dir "$d/journal" --runtime-dir "$d/run" >"$d/box.out" 2>&1 &
    BOX=$!
    local t0=$SECONDS
    for _ in $(seq 100); do "$T/aa" mark --runtime-dir "$d/run" --config "$d/box.conf" >/dev/null 2>&1 && break; sleep 0.5; done
    kill -USR1 "$BOX"
    # The steady window: 5 s after arming to 5 s before the log's last reading.
    local steady=$(( seconds - 5 - (SECONDS - t0) - 5 ))
    if [ $steady -gt 10 ] && [ $# -eq 0 ]; then
        sleep 5
        local v1 s1; v1=$(awk '/^voluntary_ctxt_switches/ {print $2}' /proc/$BOX/task/$BOX/status); s1=$(date +%s.%N)
        sleep $steady
        local v2 s2; v2=$(awk '/^voluntary_ctxt_switches/ {print $2}' /proc/$BOX/task/$BOX/status); s2=$(date +%s.%N)
        awk -v a="$v1" -v b="$v2" -v s="$s1" -v e="$s2" -v c="$cycle" 'BEGIN {
            printf "steady %.0f s after arming: %d loop-thread sleeps, %.2f a second (gpsfake sends a reading every %.1f s)\n", e - s, b - a, (b - a) / (e - s), c }' > "$d/steady"
    fi
    local rest=$(( seconds + 2 - (SECONDS - t0) ))
    [ $rest -gt 0 ] && sleep $rest
    grep VmHWM /proc/$BOX/status > "$d/hwm" 2>/dev/null || true
    kill "$BOX"; wait "$BOX" 2>/dev/null || true; BOX=
    kill "$SINK" 2>/dev/null || true; wait "$SINK" 2>/dev/null || true; SINK=
    awk '/WATCHDOG=1/ { n++; if (last) { g = $1 - last; if (g > max) max = g }; last = $1 }
         END { printf "watchdog (WatchdogSec=10s): %d pings, longest gap %.1f s\n", n, max }' "$d/notify.out" > "$d/pings"
    kill -KILL -- "-$FAKE" 2>/dev/null || true; wait "$FAKE" 2>/dev/null || true; FAKE=
    port=$((port + 1))
}

echo "## The loop's cost: anchor-alert run on gpsd (gpsfake), journal, snapshot, control socket"
readings() { sed -n 's/.*stopped after .* \([0-9]*\) GPS readings.*/\1/p' "$T/$1/box.out" | tail -1; }
if [ -n "$qemu" ]; then
    # The same two runs with the box under user-mode qemu (syscalls pass through: it talks to this
    # machine's gpsd over loopback); `mark` stays the native client.
    gcc -O2 -shared -fPIC -o "$T/insn.so" scripts/qemu-insn-count.c
    if [ "$qemu" = amd64 ]; then
        QEMU=(qemu-x86_64)
    else
        BOXBIN=$(nice -n 10 image/cross-arm64.sh 2>"$T/cross.err" | tail -1) && [ -x "$BOXBIN" ] ||
            { tail -5 "$T/cross.err"; echo "bench-loop: no arm64 binary (image/cross-arm64.sh failed)"; exit 1; }
        QEMU=(qemu-aarch64 -L "$(image/trixie-root.sh)")
    fi
    log short 20; log longer 80
    run short 20 0.1 "${QEMU[@]}" -plugin "$T/insn.so,out=$T/short.count"
    run longer 80 0.1 "${QEMU[@]}" -plugin "$T/insn.so,out=$T/longer.count"
    count() { awk -v k="$2" '($1 == "cpu" && $2 == "0" && k == "loop") || ($1 == "total" && k == "total") { print $NF }' "$T/$1.count"; }
    ra=$(readings short); rb=$(readings longer); fixes=$(( rb - ra ))
    [ "$fixes" -gt 0 ] || { echo "bench-loop: the box handled no more readings in the longer run ($ra, $rb)"; exit 1; }
    for k in total loop; do
        a=$(count short $k); b=$(count longer $k)
        [ -n "$a" ] && [ -n "$b" ] || { echo "bench-loop: qemu wrote no instruction count"; exit 1; }
        what=$([ $k = total ] && echo "whole process" || echo "the loop's thread")
        echo "qemu $qemu, $what: 200-fix log $a ($ra GPS readings handled), 800-fix log $b ($rb GPS readings handled)"
        echo "instructions per fix under qemu ($qemu, $what): $(( (b - a) / fixes )) (difference / $fixes readings)"
    done
    BOXBIN=
elif [ -z "$no_cost" ]; then
log short 20; log longer 80
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'; }
run short 20 0.1 valgrind --tool=callgrind --callgrind-out-file="$T/cg.short"
run longer 80 0.1 valgrind --tool=callgrind --callgrind-out-file="$T/cg.longer"
a=$(total "$T/cg.short"); b=$(total "$T/cg.longer")
ra=$(readings short); rb=$(readings longer)
fixes=$(( rb - ra ))
[ "$fixes" -gt 0 ] || { echo "bench-loop: the box handled no more readings in the longer run ($ra, $rb)"; exit 1; }
echo "instructions: 200-fix log $a ($ra GPS readings handled), 800-fix log $b ($rb GPS readings handled)"
if [ $kind = dragging ]; then
    for f in short longer; do
        echo "the $f run's log: $(grep -E 'Checking|Dragging|ringing|Alarm' "$T/$f/box.out" | tr '\n' ';' | cut -c1-400 || true)"
    done
fi
echo "instructions per fix: $(( (b - a) / fixes )) (difference / $fixes readings, whole process)"
echo "where a fix's instructions go (inclusive, difference of the two runs / $fixes, top 20):"
for f in short longer; do
    callgrind_annotate --inclusive=yes "$T/cg.$f" 2>/dev/null | grep -E '^ *[0-9,]+ ' > "$T/cg.$f.txt" || true
done
/usr/bin/python3 - "$T/cg.short.txt" "$T/cg.longer.txt" "$fixes" <<'PY'
import re, sys
def load(p):
    d = {}
    for line in open(p):
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*?)(?: \[.*\])?$", line)
        if m: d[m.group(2)] = int(m.group(1).replace(",", ""))
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
rows = sorted(((v - a.get(k, 0)) / int(sys.argv[3]), k) for k, v in b.items())[::-1]
for per, name in rows[:20]:
    print(f"{per:10.0f}  {name[:140]}")
PY
fi

[ -n "$cost_only" ] && exit 0
log tenhz "$long"
run tenhz "$long" 0.1
say() { echo "$1 for $long s: $(tail -1 "$T/$2/box.out"); peak $(cat "$T/$2/hwm")"; cat "$T/$2/steady" "$T/$2/pings" 2>/dev/null | sed 's/^/    /'; }
say "10 Hz" tenhz
# 1 Hz: the same log, one sentence a second.
cp "$T/tenhz.nmea" "$T/onehz.nmea"
run onehz "$long" 1.0
say "1 Hz" onehz
