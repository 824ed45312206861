#!/usr/bin/env bash
# What each network output costs the box's loop: the same simulated holding box (1 fix a
# second) for SECONDS (default 60) with the outputs off, NMEA on (one plotter reading), MQTT on
# (a local mosquitto), and both; prints CPU time and wakeups per fix from /proc and the box's
# own stop line. A benchmark: it measures and prints, it asserts nothing.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${ANCHOR_ALERT_BIN:-.build/debug/anchor-alert}
S=${1:-60}
D=$(mktemp -d /tmp/aa-netbench-XXXXXX)
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$D"' EXIT
freeport() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
MQ=$(freeport); NP=$(freeport)
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$MQ" > "$D/m.conf"
/usr/sbin/mosquitto -c "$D/m.conf" >/dev/null 2>&1 & PIDS+=($!)
sleep 0.5
base='[gpio]\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n[ring]\nenabled = false\n[siren]\nenabled = false\n'
nmea="[nmea]\nenabled = true\nlisten = \"127.0.0.1\"\nport = $NP\nrepeat_interval = 30\n"
mqtt="[mqtt]\nenabled = true\nport = $MQ\nbox = \"bench\"\n"
echo "bench-network: $S s of a holding box per case, $BIN, $(nproc) cores (load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-10s %10s %12s %10s %12s\n' case cpu_ms cpu_ms/s wakeups wakeups/s
for case in off nmea mqtt both; do
    conf=$base
    case $case in nmea) conf+=$nmea ;; mqtt) conf+=$mqtt ;; both) conf+=$nmea$mqtt ;; esac
    printf "$conf" > "$D/$case.conf"
    "$BIN" run --simulate hold --switch off --config "$D/$case.conf" --runtime-dir "$D/$case/run" \
        --journal-dir "$D/$case/journal" >"$D/$case.out" 2>&1 &
    box=$!
    reader=
    if [ "$case" = nmea ] || [ "$case" = both ]; then
        sleep 1; /usr/bin/python3 -c "
import socket, time
s = socket.create_connection(('127.0.0.1', $NP)); s.settimeout(1)
end = time.time() + $S
while time.time() < end:
    try: s.recv(4096)
    except socket.timeout: pass" & reader=$!
    fi
    sleep 2
    # schedstat's first field: nanoseconds on the CPU of the loop's thread (stat's ticks are 10 ms).
    a=$(cut -d' ' -f1 /proc/$box/schedstat)
    sleep "$S"
    b=$(cut -d' ' -f1 /proc/$box/schedstat)
    kill "$box"; wait "$box" 2>/dev/null
    [ -n "$reader" ] && { kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null; }
    w=$(sed -n 's/.* \([0-9]*\) wakeups$/\1/p' "$D/$case.out")
    total=$(sed -n 's/.*stopped after \([0-9]*\) s.*/\1/p' "$D/$case.out")
    awk -v c="$case" -v t=$((b - a)) -v s="$S" -v w="$w" -v total="$total" 'BEGIN {
        ms = t / 1e6; printf "%-10s %10.1f %12.3f %10d %12.2f\n", c, ms, ms / s, w, w / total }'
done
