#!/usr/bin/env bash
# The network outputs against real peers (Docs/network.md): NMEA 0183 read by pynmea2 over TCP
# and UDP on loopback (alerts, checksums, repetition, ACN/ACK snooze, ARC refusal, noise).
# Prints "test-network: N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${ANCHOR_ALERT_BIN:-.build/debug/anchor-alert}
[ -x "$BIN" ] || swift build >/dev/null || { echo "test-network: build failed"; exit 1; }
missing=()
/usr/bin/python3 -c 'import pynmea2' 2>/dev/null || missing+=("python3-nmea2")
if [ ${#missing[@]} -gt 0 ]; then
    echo "test-network: missing ${missing[*]} (scripts/packages/network.txt; run scripts/install-deps.sh)"
    echo "test-network: 0 passed, 1 failed"
    exit 1
fi
D=$(mktemp -d /tmp/aa-network-XXXXXX)
passed=0; failed=0
ok() { passed=$((passed + 1)); echo "  ok: $1"; }
bad() { failed=$((failed + 1)); echo "  FAILED: $1"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
BOX=
cleanup() { [ -n "$BOX" ] && kill "$BOX" 2>/dev/null; wait 2>/dev/null; rm -rf "$D"; }
trap cleanup EXIT
freeport() { /usr/bin/python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

echo "NMEA 0183 out (pynmea2 as the plotter)"
UDP=$(freeport)
# A short evidence rule and a 10 s snooze, so the simulated drag rings and rings again within
# the script's waits; the repetition at 2 s so it can be measured in seconds.
cat > "$D/box.conf" <<CONF
[runtime]
status_interval = 2
[watch]
window = 4
confirmation = 2
majority = 0.6
drift_span = 0
snooze = 10
[nmea]
enabled = true
listen = "127.0.0.1"
port = 0
udp_interface = "lo"
udp_port = $UDP
repeat_interval = 2
acknowledge_snoozes = true
CONF
"$BIN" run --simulate drag --speed 10 --switch off --config "$D/box.conf" \
    --runtime-dir "$D/run" --journal-dir "$D/journal" >"$D/box.out" 2>&1 &
BOX=$!
PORT=
for _ in $(seq 50); do
    PORT=$(sed -n 's/^NMEA: Yes: TCP port \([0-9]*\),.*/\1/p' "$D/box.out")
    [ -n "$PORT" ] && break; sleep 0.1
done
check "the box says where NMEA goes (${PORT:-nothing})" test -n "$PORT"
if [ -n "$PORT" ]; then
    out=$(/usr/bin/python3 scripts/network/nmea_client.py "$BIN" "$D/run" "$D/box.conf" "$BOX" "$PORT" "$UDP" 2>&1)
    echo "$out"
    passed=$((passed + $(grep -c '^  ok:' <<<"$out")))
    failed=$((failed + $(grep -c '^  FAILED:' <<<"$out")))
    grep -q -E '^  (ok|FAILED):' <<<"$out" || bad "the NMEA client ran"
fi
check "the box still runs after every client and its noise" kill -0 "$BOX"
kill "$BOX" 2>/dev/null; wait "$BOX" 2>/dev/null; BOX=

echo "test-network: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
