#!/usr/bin/env bash
# The loop's cost on the real path (Docs/benchmarks.md, "The loop's cost"): `anchor-alert run`
# on a real gpsd fed by gpsfake at 10 Hz, with the journal, the status snapshot and the control
# socket; marked with `anchor-alert mark`, armed with the simulated switch, holding.
#   1. instructions per fix: callgrind's totals for a 200-fix and an 800-fix log, their difference
#      divided by the difference of the GPS readings the box handled (its "stopped after" line:
#      under valgrind it misses the first few fixes while it starts)
#   2. peak RSS (VmHWM) and wakeups per second ("stopped after N s, N GPS readings, N wakeups")
#      at 10 Hz and 1 Hz
# Measures and prints; asserts nothing. GPIO, ring and siren are not fitted here (no hardware
# outside the VM). About 6 minutes (callgrind is ~50x slower than the box).
#   --long SECONDS   the RSS and wakeup runs last SECONDS of fixes each (default 120)
#   --cost-only      only the instructions per fix
#   --keep DIR       leave the two callgrind outputs in DIR (cg.short, cg.longer) to study with
#                    callgrind_annotate --tree=calling
set -euo pipefail
cd "$(dirname "$0")/.."
long=120; cost_only=; keep=
while [ $# -gt 0 ]; do
    case $1 in
        --long) long=$2; shift 2 ;;
        --cost-only) cost_only=1; shift ;;
        --keep) keep=$2; shift 2 ;;
        *) echo "usage: $0 [--long SECONDS] [--cost-only] [--keep DIR]"; exit 64 ;;
    esac
done
for tool in valgrind callgrind_annotate gpsfake; do
    command -v $tool >/dev/null || { echo "bench-loop: $tool is not installed (scripts/packages/bench.txt, gpsd-clients)"; exit 0; }
done
swift build -c release --product anchor-alert >/dev/null
swift build -c release --product anchor-bench >/dev/null
T=$(mktemp -d /tmp/aa-bench-loop-XXXXXX)
FAKE=; BOX=
cleanup() {
    [ -n "$BOX" ] && kill "$BOX" 2>/dev/null || true
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
log() { .build/release/anchor-bench --holding-log "$T/$1.nmea" "$2" >/dev/null; }

# run NAME SECONDS CYCLE [valgrind...]: the box on gpsfake for the whole log, marked and armed
# after 3 s of fixes, stopped by SIGTERM 2 s after the log ends. Leaves $T/NAME.out.
run() {
    local name=$1 seconds=$2 cycle=$3; shift 3
    local d="$T/$name"; mkdir -p "$d"
    printf '[gps]\nport = %s\n[gpio]\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n[ring]\nenabled = false\n[siren]\nenabled = false\n' \
        "$port" > "$d/box.conf"
    setsid /usr/bin/python3 /usr/bin/gpsfake -1 -q -P "$port" -c "$cycle" -W 3600 "$T/$name.nmea" >"$d/fake.out" 2>&1 &
    FAKE=$!
    sleep 1.5
    "$@" "$T/aa" run --config "$d/box.conf" --switch off --journal-dir "$d/journal" --runtime-dir "$d/run" >"$d/box.out" 2>&1 &
    BOX=$!
    local t0=$SECONDS
    for _ in $(seq 100); do "$T/aa" mark --runtime-dir "$d/run" --config "$d/box.conf" >/dev/null 2>&1 && break; sleep 0.5; done
    kill -USR1 "$BOX"
    local rest=$(( seconds + 2 - (SECONDS - t0) ))
    [ $rest -gt 0 ] && sleep $rest
    grep VmHWM /proc/$BOX/status > "$d/hwm" 2>/dev/null || true
    kill "$BOX"; wait "$BOX" 2>/dev/null || true; BOX=
    kill -KILL -- "-$FAKE" 2>/dev/null || true; wait "$FAKE" 2>/dev/null || true; FAKE=
    port=$((port + 1))
}

echo "## The loop's cost: anchor-alert run on gpsd (gpsfake), journal, snapshot, control socket"
log short 20; log longer 80
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'; }
run short 20 0.1 valgrind --tool=callgrind --callgrind-out-file="$T/cg.short"
run longer 80 0.1 valgrind --tool=callgrind --callgrind-out-file="$T/cg.longer"
a=$(total "$T/cg.short"); b=$(total "$T/cg.longer")
readings() { sed -n 's/.*stopped after .* \([0-9]*\) GPS readings.*/\1/p' "$T/$1/box.out" | tail -1; }
ra=$(readings short); rb=$(readings longer)
fixes=$(( rb - ra ))
[ "$fixes" -gt 0 ] || { echo "bench-loop: the box handled no more readings in the longer run ($ra, $rb)"; exit 1; }
echo "instructions: 200-fix log $a ($ra GPS readings handled), 800-fix log $b ($rb GPS readings handled)"
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

[ -n "$cost_only" ] && exit 0
log tenhz "$long"
run tenhz "$long" 0.1
echo "10 Hz for $long s: $(tail -1 "$T/tenhz/box.out"); peak $(cat "$T/tenhz/hwm")"
# 1 Hz: the same log, one sentence a second.
cp "$T/tenhz.nmea" "$T/onehz.nmea"
run onehz "$long" 1.0
echo "1 Hz for $long s: $(tail -1 "$T/onehz/box.out"); peak $(cat "$T/onehz/hwm")"
