#!/usr/bin/env bash
# The network outputs against real peers (Docs/network.md): NMEA 0183 read by pynmea2 over TCP
# and UDP on loopback (alerts, checksums, repetition, ACN/ACK snooze, ARC refusal, noise); MQTT
# through Debian's mosquitto with a fleet of simulated boxes (retained topics, discovery, the
# last will, commands with receipts, `anchor-alert fleet`, a drag reaching the fleet view, the
# broker killed and restarted); gpsd reading a chartplotter's NMEA over tcp://; the systemd
# unit's allowed addresses derived from the configuration; the GPS-lost text as NMEA and Signal K
# clients read it as time goes on. `--full` runs 200 boxes, the
# default run 20 (FLEET_BOXES=N); `--full` also checks the discovery with a real Home Assistant
# (scripts/network/ha-python.sh).
# Prints "test-network: N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${ANCHOR_ALERT_BIN:-.build/debug/anchor-alert}
[ -x "$BIN" ] || swift build >/dev/null || { echo "test-network: build failed"; exit 1; }
missing=()
/usr/bin/python3 -c 'import pynmea2' 2>/dev/null || missing+=("python3-nmea2")
/usr/bin/python3 -c 'import jinja2' 2>/dev/null || missing+=("python3-jinja2")
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || missing+=("python3-jsonschema")
for f in /usr/sbin/mosquitto /usr/bin/mosquitto_sub /usr/bin/mosquitto_pub; do [ -x "$f" ] || missing+=("$f"); done
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
# msub SECONDS ARGS...: mosquitto_sub -W SECONDS ARGS..., killed 5 s past its -W, since Debian
# 12's can deadlock when -W fires (scripts/network/mqttsub.py).
msub() { /usr/bin/python3 scripts/network/mqttsub.py "$@"; }
BOX=; BROKER=; FLEET=; FEED=; GPSD=; TLSB=; LOST=; BOXES=()
N=${FLEET_BOXES:-20}; [ "${1:-}" = "--full" ] && N=${FLEET_BOXES:-200}
cleanup() {
    for p in $BOX $FLEET "${BOXES[@]}" $BROKER $GPSD $FEED $TLSB $LOST; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null; rm -rf "$D"
}
trap cleanup EXIT
# A port free for both TCP and UDP on 127.0.0.1 (gpsd and mosquitto listen on TCP, NMEA goes out
# on UDP): with 200 boxes' connections open, a port free for one need not be free for the other.
freeport() { /usr/bin/python3 -c '
import socket
for _ in range(50):
    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM); t.bind(("127.0.0.1", 0)); port = t.getsockname()[1]
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        u.bind(("127.0.0.1", port)); print(port); break
    except OSError:
        pass
    finally:
        t.close(); u.close()
else:
    raise SystemExit("test-network: no port free for both TCP and UDP in 50 tries")
'; }

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
fastest = 2
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
check "the test's configuration is read cleanly (its evidence rule is the one it scripts)" \
    test -z "$(grep '^Configuration:' "$D/box.out")"
if [ -n "$PORT" ]; then
    out=$(/usr/bin/python3 scripts/network/nmea_client.py "$BIN" "$D/run" "$D/box.conf" "$BOX" "$PORT" "$UDP" 2>&1)
    client_rc=$?
    echo "$out"
    # An exception after the first check ends the client early: its exit status says so.
    # (It also exits 1 after a FAILED line; that one is counted below, not twice.)
    if [ "$client_rc" -ne 0 ] && ! grep -q '^  FAILED:' <<<"$out"; then
        bad "the NMEA client ran to its end (exit $client_rc)"
    fi
    passed=$((passed + $(grep -c '^  ok:' <<<"$out")))
    failed=$((failed + $(grep -c '^  FAILED:' <<<"$out")))
    grep -q -E '^  (ok|FAILED):' <<<"$out" || bad "the NMEA client ran"
    echo "NMEA 0183: the anchor as a waypoint (pynmea2's WPL, as a plotter without alert sentences)"
    out=$(/usr/bin/python3 scripts/network/plotter_waypoint.py "$BIN" "$D/run" "$D/box.conf" "$PORT" 2 2>&1)
    wpl_rc=$?
    echo "$out"
    [ "$wpl_rc" -ne 0 ] && ! grep -q '^  FAILED:' <<<"$out" && bad "plotter_waypoint.py ended with exit $wpl_rc and no check failing"
    passed=$((passed + $(grep -c '^  ok:' <<<"$out")))
    failed=$((failed + $(grep -c '^  FAILED:' <<<"$out")))
fi
# The UDP sender: bound to the one address its route uses, connected to the broadcast target
# (on lo its own address), so datagrams sent to it are not queued unread.
udpline=$(ss -uanpH | grep "pid=$BOX,")
check "the UDP sender is bound to one address, connected to 127.0.0.1:$UDP ($(tr -s ' ' <<<"$udpline" | cut -d' ' -f1-5))" \
    grep -q "^ESTAB .*127\.0\.0\.1:[0-9]* *127\.0\.0\.1:$UDP " <<<"$udpline"
uport=$(sed -n 's/^ESTAB *[0-9]* *[0-9]* *127\.0\.0\.1:\([0-9]*\) .*/\1/p' <<<"$udpline")
if [ -n "$uport" ]; then
    /usr/bin/python3 -c "
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(200): s.sendto(b'x' * 500, ('127.0.0.1', $uport))"
    sleep 0.3
    check "datagrams sent to it queue nowhere (Recv-Q $(ss -uanH "sport = :$uport" | tr -s ' ' | cut -d' ' -f2))" \
        test "$(ss -uanH "sport = :$uport" | tr -s ' ' | cut -d' ' -f2)" = 0
fi
check "the box still runs after every client and its noise" kill -0 "$BOX"
kill "$BOX" 2>/dev/null; wait "$BOX" 2>/dev/null; BOX=
echo "NMEA clients that don't read (scripts/network/nmea_slots.py)"
out=$(/usr/bin/python3 scripts/network/nmea_slots.py "$BIN" "$D/slots" 2>&1); rc=$?
echo "$out"
passed=$((passed + $(grep -c '^  ok:' <<<"$out")))
failed=$((failed + $(grep -c '^  FAILED:' <<<"$out")))
[ $rc -ne 0 ] && ! grep -q '^  FAILED:' <<<"$out" && bad "nmea_slots.py exited $rc without a check failing"

echo "Signal K deltas, read as a Signal K server's TCP data connection reads them (scripts/network/signalk_client.py)"
# SIGNALK_SCHEMAS: a directory with the Signal K specification's schemas/, to validate against
# them too (Docs/network.md).
out=$(/usr/bin/python3 scripts/network/signalk_client.py "$BIN" "$D/signalk" 2>&1); rc=$?
echo "$out"
passed=$((passed + $(grep -c '^  ok:' <<<"$out")))
failed=$((failed + $(grep -c '^  FAILED:' <<<"$out")))
[ $rc -ne 0 ] && ! grep -q '^  FAILED:' <<<"$out" && bad "signalk_client.py exited $rc without a check failing"

echo "The checks' own mosquitto_sub deadline"
# A mosquitto_sub that prints one message and then hangs, deaf to SIGALRM and SIGTERM, as
# mosquitto#3175's deadlock leaves it: scripts/network/mqttsub.py, as msub and as the module the
# Python checks call, ends it 5 s past its -W and keeps what it printed.
mkdir -p "$D/hang"
printf '#!/bin/sh\ntrap "" ALRM TERM\necho "t/x printed"\nexec sleep 30\n' >"$D/hang/mosquitto_sub"; chmod +x "$D/hang/mosquitto_sub"
t0=$SECONDS; got=$(PATH=$D/hang:$PATH msub 1 -t t/x -v 2>"$D/hang/msub.err"); rc=$?; took=$((SECONDS - t0))
check "msub ends a hung mosquitto_sub 5 s past its -W 1 and keeps what it printed ($took s, '$got', exit $rc)" \
    test "$took" -le 7 -a "$got" = "t/x printed" -a "$rc" -eq 137
check "and says it was killed ($(head -c 80 "$D/hang/msub.err"))" grep -q 'killed: mosquitto#3175' "$D/hang/msub.err"
t0=$SECONDS
got=$(cd scripts/network && PATH=$D/hang:$PATH /usr/bin/python3 -c 'import mqttsub; print(mqttsub.subscribe(0, ["t/x"], 1, verbose=True), end="")' 2>/dev/null)
took=$((SECONDS - t0))
check "and so does its subscribe() for the Python checks ($took s, '$got')" test "$took" -le 7 -a "$got" = "t/x printed"

echo "MQTT through mosquitto, and a fleet of $N simulated boxes"
MQ=$(freeport)
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nmax_connections -1\n' "$MQ" > "$D/mosquitto.conf"
start_broker() { /usr/sbin/mosquitto -c "$D/mosquitto.conf" >>"$D/mosquitto.log" 2>&1 & BROKER=$!; 
    for _ in $(seq 50); do msub 1 -p "$MQ" -t x -C 1 2>/dev/null; [ $? -ne 5 ] && break; sleep 0.1; done; }
start_broker
fleet() { "$BIN" fleet --broker 127.0.0.1 --port "$MQ" "$@"; }
boxconf() {  # name, accept_commands, [watch] lines
    printf '[gpio]\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n[ring]\nenabled = false\n[siren]\nenabled = false\n[runtime]\nstatus_interval = 5\n%b[mqtt]\nenabled = true\nport = %s\nbox = "%s"\naccept_commands = %s\n' \
        "${3:-}" "$MQ" "$1" "$2" > "$D/$1.conf"
}
# The dragger's short evidence rule, so its simulated drag rings within seconds.
QUICK='[watch]\nwindow = 4\nconfirmation = 2\nfastest = 2\n'
start_box() {  # name, simulate, speed, accept_commands, switch, [watch] lines
    boxconf "$1" "$4" "${6:-}"
    "$BIN" run --simulate "$2" --speed "$3" --switch "$5" --config "$D/$1.conf" \
        --runtime-dir "$D/$1/run" --journal-dir "$D/$1/journal" >"$D/$1.out" 2>&1 &
    BOXES+=($!)
}
t0=$SECONDS
# The holding boxes are light: each replays one recorded-style log of a holding boat, a GPS
# reading every 5 s (scripts/network/holding_log.py), and starts from one journal already
# marked and armed (copied to every box), with its simulated switch on ARM. No box is marked
# or armed over the network, so N boxes cost N processes that mostly sleep.
/usr/bin/python3 scripts/network/holding_log.py 5 2 > "$D/hold.jsonl"
printf '[gpio]\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n[ring]\nenabled = false\n[siren]\nenabled = false\n' > "$D/template.conf"
"$BIN" run --simulate "$D/hold.jsonl" --switch off --config "$D/template.conf" --runtime-dir "$D/template/run" \
    --journal-dir "$D/template/journal" >"$D/template.out" 2>&1 &
T=$!
for _ in $(seq 60); do "$BIN" mark --runtime-dir "$D/template/run" >/dev/null 2>&1 && break; sleep 0.5; done
kill -USR1 "$T"
alarm=
for _ in $(seq 40); do
    alarm=$("$BIN" status --json --runtime-dir "$D/template/run" 2>/dev/null | /usr/bin/python3 -c "import json,sys; s=json.load(sys.stdin)['status']; print(s['alarm']['state'], s['position']['verdict'])" 2>/dev/null)
    [ "$alarm" = "armed holding" ] && break; sleep 0.5
done
kill "$T"; wait "$T" 2>/dev/null
check "the template journal is marked and armed, the replayed boat holding (${alarm:-no status})" test "$alarm" = "armed holding"
names=(); for i in $(seq 1 $((N - 1))); do names+=("$(printf 'boat%03d' "$i")"); done
# boat001 takes no commands over MQTT; the others do.
for b in "${names[@]}"; do
    mkdir -p "$D/$b"; cp -r "$D/template/journal" "$D/$b/journal"
    start_box "$b" "$D/hold.jsonl" 1 "$([ "$b" = boat001 ] && echo false || echo true)" on
done
echo "  ($((N - 1)) holding boxes started in $((SECONDS - t0)) s)"
heard=0
for _ in $(seq 60); do
    heard=$(fleet --json --wait 5 | grep -c '"verdict":"holding"')
    [ "$heard" -ge $((N - 1)) ] && break; sleep 2
done
echo "  ($heard of $((N - 1)) holding on the broker $((SECONDS - t0)) s after the first started)"
"$BIN" fleet --broker 127.0.0.1 --port "$MQ" --follow --json >"$D/follow.jsonl" 2>"$D/follow.err" &
FLEET=$!
# The dragger: a fresh journal, marked over MQTT (a receipt on its reply topic), then armed.
mkdir -p "$D/dragger"
start_box dragger drag 10 true off "$QUICK"
DRAGGER=${BOXES[-1]}
mosquitto_sub -p "$MQ" -t anchor-alert/dragger/reply -v >"$D/dragger-replies.txt" 2>/dev/null &
MSUB=$!
for _ in $(seq 30); do
    sleep 0.5
    mosquitto_pub -p "$MQ" -t anchor-alert/dragger/command -m '{"id":"m1","decision":"mark"}'
    sleep 0.5
    grep -q '"id":"m1","result":"receipt"' "$D/dragger-replies.txt" && break
done
kill -KILL "$MSUB" 2>/dev/null; wait "$MSUB" 2>/dev/null   # not SIGTERM: see msub
check "mark over MQTT: a receipt on the reply topic" grep -q '"id":"m1","result":"receipt"' "$D/dragger-replies.txt"
kill -USR1 "$DRAGGER"
for _ in $(seq 120); do grep -q '"box":"dragger".*"alarm":"ringing"' "$D/follow.jsonl" && break; sleep 0.5; done
lat=$(/usr/bin/python3 - "$D/follow.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    if j["box"] == "dragger" and j.get("alarm") == "ringing":
        print("%.2f" % (j["seen_at"] - j["written_at"])); break
PY
)
check "the drag reaches the fleet view within 2 s of the box saying it (${lat:-never} s)" \
    /usr/bin/python3 -c "import sys; sys.exit(0 if '$lat' and float('$lat') < 2 else 1)"
# fleet prints once the retained statuses stop arriving; on a loaded machine a pause can end its
# gathering early, so ask again (up to 60 s) until it has heard every box.
t1=$SECONDS
while :; do
    fleet --wait 5 >"$D/fleet.txt"; rc=$?
    grep -q "^Fleet: $N boxes" "$D/fleet.txt" || [ $((SECONDS - t1)) -ge 60 ] || { sleep 1; continue; }
    break
done
head -4 "$D/fleet.txt" | sed 's/^/    /'
check "fleet lists all $N boxes (rc $rc)" grep -q "^Fleet: $N boxes" "$D/fleet.txt"
check "the ringing box comes first" test "$(sed -n 2p "$D/fleet.txt" | cut -d' ' -f1)" = dragger
calm=$(grep -c ' Holding. Alarm on' "$D/fleet.txt")
check "every other box holding ($calm of $((N - 1)))" test "$calm" -eq $((N - 1))

# Retained topics and Home Assistant discovery, as any MQTT client sees them.
msub 2 -p "$MQ" -t 'anchor-alert/boat001/#' -t 'homeassistant/+/anchor_alert_boat001/+/config' -v >"$D/topics.txt"
for t in status state alarm position faults check online; do
    check "retained anchor-alert/boat001/$t" grep -q "^anchor-alert/boat001/$t " "$D/topics.txt"
done
# boat001 takes no commands: its five entities, and no snooze button or radius number.
check "Home Assistant discovery: 5 entities" test "$(grep -c '^homeassistant/' "$D/topics.txt")" -eq 5

# Remote controls can't quiet a drag: while it rings, widening the radius, a new mark, release
# and disarm over MQTT are refused; the watch keeps its radius and rings on.
quiet() {  # file, then requests
    local f=$1; shift
    msub 10 -p "$MQ" -t anchor-alert/dragger/reply -C $# >"$f" &
    local sub=$!; sleep 0.5
    for r in "$@"; do mosquitto_pub -p "$MQ" -t anchor-alert/dragger/command -m "$r"; done
    wait $sub
}
quiet "$D/quiet.txt" '{"id":"q1","decision":"radius","meters":500}' '{"id":"q2","decision":"disarm"}' \
    '{"id":"q3","decision":"mark"}' '{"id":"q4","decision":"release"}'
for q in "q1 radius 500" "q3 mark" "q4 release"; do
    check "while ringing, ${q#* } over MQTT is refused" \
        grep -q "\"id\":\"${q%% *}\",\"result\":\"error\".*\"error\":\"skipper_only\"" "$D/quiet.txt"
done
# Disarm is the switch's alone, over any request (Docs/commands.md).
check "disarm over MQTT is refused" grep -q '"id":"q2","result":"error".*"error":"not_allowed"' "$D/quiet.txt"
rr=$("$BIN" status --json --runtime-dir "$D/dragger/run" | /usr/bin/python3 -c "import json,sys; s=json.load(sys.stdin)['status']; print(s['alarm']['state'], s['alert_radius_m'])")
check "the dragger still rings with its radius ($rr)" grep -q '^ringing [0-9.]*$' <<<"$rr"
check "its radius is not 500 m ($rr)" test "${rr#* }" != 500
# Every request is answered, a busy refusal at least: 1000 at once, 1000 replies.
seq 1000 | sed 's/.*/{"id":"f&","decision":"snooze","episode":999999}/' >"$D/flood.txt"
msub 20 -p "$MQ" -q 1 -t anchor-alert/dragger/reply -C 1000 >"$D/flood-replies.txt" &
SUB=$!; sleep 0.5
mosquitto_pub -p "$MQ" -t anchor-alert/dragger/command -l <"$D/flood.txt"
wait $SUB
answered=$(grep -o '"id":"f[0-9]*"' "$D/flood-replies.txt" | sort -u | wc -l)
check "1000 requests at once get 1000 answers ($answered; $(grep -c '"error":"busy"' "$D/flood-replies.txt") busy)" test "$answered" -eq 1000

# Commands: the control socket's requests on the command topic, answered on the reply topic.
ep=$("$BIN" status --json --runtime-dir "$D/dragger/run" | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['status']['alarm']['episode'])")
msub 10 -p "$MQ" -t anchor-alert/dragger/reply -t anchor-alert/boat001/reply -C 3 >"$D/replies.txt" &
SUB=$!; sleep 0.5
mosquitto_pub -p "$MQ" -t anchor-alert/dragger/command -m "{\"id\":\"s1\",\"decision\":\"snooze\",\"episode\":$ep}"
sleep 0.3
mosquitto_pub -p "$MQ" -t anchor-alert/dragger/command -m "{\"id\":\"s2\",\"decision\":\"snooze\",\"episode\":$ep}"
mosquitto_pub -p "$MQ" -t anchor-alert/dragger/command -m 'not json'
mosquitto_pub -p "$MQ" -t anchor-alert/boat001/command -m '{"id":"r1","decision":"radius","meters":45}'
wait $SUB
sed 's/^/    /' "$D/replies.txt"
check "snooze over MQTT: a receipt, after the journal" grep -q '"id":"s1","result":"receipt"' "$D/replies.txt"
check "a second snooze of episode $ep is refused" grep -q '"id":"s2","result":"refused"' "$D/replies.txt"
check "garbage is answered with an error, the box unaffected" grep -q '"result":"error"' "$D/replies.txt"
# With accept_commands off the box does not subscribe at all (a large message can't reach it).
check "a box that takes no commands does not listen (no reply to r1)" test -z "$(grep '"id":"r1"' "$D/replies.txt")"
state=$("$BIN" status --json --runtime-dir "$D/dragger/run" | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['status']['alarm']['state'])")
check "the dragging box is snoozed ($state)" test "$state" = snoozed
quiet "$D/quiet2.txt" '{"id":"q5","decision":"radius","meters":500}'
check "snoozed, radius 500 over MQTT is refused" grep -q '"id":"q5","result":"error".*"error":"skipper_only"' "$D/quiet2.txt"

# The last will: a box killed outright is "offline" in the fleet view.
kill -9 "${BOXES[1]}"
for _ in $(seq 20); do fleet --json | grep -q '"box":"boat002".*"online":"offline"' && break; sleep 0.5; done
fleet >"$D/fleet2.txt"
check "a box killed outright is offline (its last will)" grep -q '^boat002 .*Offline' "$D/fleet2.txt"

/usr/bin/python3 scripts/network/box_cost.py 10 "${BOXES[@]:0:$((N - 1))}"
# The broker killed and restarted empty: every box reconnects and republishes.
written=$("$BIN" status --json --runtime-dir "$D/boat003/run" | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['status']['written_at'])")
kill -9 "$BROKER"; wait "$BROKER" 2>/dev/null
sleep 6
alive=0; for p in "${BOXES[@]}"; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
check "every box keeps running without the broker ($alive of $((N - 1)))" test "$alive" -eq $((N - 1))
later=$("$BIN" status --json --runtime-dir "$D/boat003/run" | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['status']['written_at'])")
check "a box's own status goes on while the broker is away" /usr/bin/python3 -c "import sys; sys.exit(0 if $later > $written else 1)"
rows=$("$BIN" status --json --runtime-dir "$D/boat003/run" | /usr/bin/python3 -c "import json,sys; print([r['answer'] for r in json.load(sys.stdin)['status']['checks'] if r['component']=='mqtt'][0])")
check "the Systems Check says the broker is away ($rows)" grep -q '^No: ' <<<"$rows"
t1=$SECONDS
start_broker
back=0
for _ in $(seq 90); do
    back=$(fleet --json --wait 3 | grep -c '"heard":true')
    [ "$back" -ge $((N - 1)) ] && break; sleep 1
done
echo "  ($back boxes back on the broker $((SECONDS - t1)) s after its restart)"
check "after the restart every running box republished ($back of $((N - 1)))" test "$back" -ge $((N - 1))
# The fleet is done with: stop its boxes, so the checks below don't share the machine with 200
# of them (a --full run on a fresh clone once failed the tcp:// check below that way).
for p in $FLEET "${BOXES[@]}"; do kill "$p" 2>/dev/null; done
for p in $FLEET "${BOXES[@]}"; do wait "$p" 2>/dev/null; done
FLEET=; BOXES=()
echo "MQTT: two boxes with one name"
# The second takes the broker's session from the first (one client id); each reconnect would
# take it back. One yields and says why; the retained topics stop changing hands.
for t in twin1 twin2; do
    printf '[gpio]\nbuzzer_enabled = false\n[runtime]\nstatus_interval = 1\n[mqtt]\nenabled = true\nport = %s\nbox = "twin"\n' "$MQ" > "$D/$t.conf"
done
"$BIN" run --simulate hold --switch off --config "$D/twin1.conf" --runtime-dir "$D/twin1/run" --journal-dir "$D/twin1/journal" >"$D/twin1.out" 2>&1 &
BOXES+=($!); sleep 3
"$BIN" run --simulate hold --switch off --config "$D/twin2.conf" --runtime-dir "$D/twin2/run" --journal-dir "$D/twin2/journal" >"$D/twin2.out" 2>&1 &
BOXES+=($!); sleep 6
msub 6 -p "$MQ" -t anchor-alert/twin/online -t anchor-alert/twin/identity -v >"$D/twin-topics.txt"
twinrow() { "$BIN" status --json --runtime-dir "$D/$1/run" 2>/dev/null | /usr/bin/python3 -c "import json,sys; print([r['answer'] for r in json.load(sys.stdin)['status']['checks'] if r['component']=='mqtt'][0])" 2>/dev/null; }
r1=$(twinrow twin1); r2=$(twinrow twin2)
echo "    twin1: $r1"; echo "    twin2: $r2"
yielded=$(printf '%s\n%s\n' "$r1" "$r2" | grep -c '^No: another box uses the name twin on ')
online=$(printf '%s\n%s\n' "$r1" "$r2" | grep -c '^Yes: anchor-alert/twin on ')
check "one of two boxes named twin yields and says why, the other stays on ($yielded yielded, $online on)" test "$yielded" -eq 1 -a "$online" -eq 1
check "the twin's topics are steady: once online, one identity, over 6 s ($(tr '\n' ' ' <"$D/twin-topics.txt"))" \
    test "$(grep -c '^anchor-alert/twin/online online$' "$D/twin-topics.txt")" -eq 1 -a "$(wc -l <"$D/twin-topics.txt")" -eq 2
for p in "${BOXES[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; BOXES=()
# The GPS-lost text as NMEA and Signal K clients read it takes about 30 s of waiting on one
# light box: it runs beside the sections from here on and is read at the end.
/usr/bin/python3 scripts/network/gps_lost_text.py "$BIN" "$D/lost" >"$D/lost.log" 2>&1 &
LOST=$!
echo "MQTT against large messages (scripts/network/mqtt_limits.py)"
out=$(/usr/bin/python3 scripts/network/mqtt_limits.py "$BIN" "$D/limits" 2>&1); rc=$?
echo "$out"
passed=$((passed + $(grep -c '^  ok:' <<<"$out")))
failed=$((failed + $(grep -c '^  FAILED:' <<<"$out")))
[ $rc -ne 0 ] && ! grep -q '^  FAILED:' <<<"$out" && bad "mqtt_limits.py exited $rc without a check failing"
echo "Home Assistant's MQTT discovery (scripts/network/ha_discovery.py)"
# HA_PYTHON: a Python with the homeassistant package, for its own schemas and a live Home
# Assistant on the broker (Docs/network.md). --full makes one (scripts/network/ha-python.sh, a
# venv in HA_CACHE: minutes the first time); a failure to make it is a failed check, not a skip.
if [ "${1:-}" = "--full" ]; then
    t0=$SECONDS
    HA_PYTHON=$(scripts/network/ha-python.sh 2>"$D/ha-python.err"); harc=$?
    tail -15 "$D/ha-python.err" | sed 's/^/    /'
    if [ $harc -eq 0 ] && [ -x "$HA_PYTHON" ]; then
        export HA_PYTHON
        echo "  (HA_PYTHON=$HA_PYTHON, ready in $((SECONDS - t0)) s)"
    else
        bad "scripts/network/ha-python.sh made a Python with Home Assistant ($(grep '^ha-python: FAILED' "$D/ha-python.err" | tail -1))"
        unset HA_PYTHON
    fi
fi
out=$(/usr/bin/python3 scripts/network/ha_discovery.py "$BIN" "$D/ha" 2>&1); rc=$?
echo "$out"
passed=$((passed + $(grep -c '^  ok:' <<<"$out")))
failed=$((failed + $(grep -c '^  FAILED:' <<<"$out")))
[ $rc -ne 0 ] && ! grep -q '^  FAILED:' <<<"$out" && bad "ha_discovery.py exited $rc without a check failing"
echo "MQTT with TLS and a per-box user"
if command -v openssl >/dev/null && command -v mosquitto_passwd >/dev/null; then
    T=$D/tls; mkdir -p "$T"; chmod 755 "$D" "$T"   # mosquitto drops to its own user
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/ca.key" -out "$T/ca.crt" -days 2 -subj /CN=test-ca 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout "$T/server.key" -out "$T/server.csr" -subj /CN=127.0.0.1 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1\n' > "$T/ext.cnf"
    openssl x509 -req -in "$T/server.csr" -CA "$T/ca.crt" -CAkey "$T/ca.key" -CAcreateserial -out "$T/server.crt" \
        -days 2 -extfile "$T/ext.cnf" 2>/dev/null
    mosquitto_passwd -c -b "$T/passwd" tlsboat secret1
    chmod 644 "$T"/*
    TP=$(freeport)
    printf 'listener %s 127.0.0.1\ncafile %s/ca.crt\ncertfile %s/server.crt\nkeyfile %s/server.key\nallow_anonymous false\npassword_file %s/passwd\npersistence false\n' \
        "$TP" "$T" "$T" "$T" "$T" > "$T/m.conf"
    /usr/sbin/mosquitto -c "$T/m.conf" >"$T/m.log" 2>&1 &
    TLSB=$!; sleep 1
    tlsbox() {  # password, name, [more mqtt lines]
        echo "$1" > "$T/pw.$2"; chmod 600 "$T/pw.$2"
        printf '[gpio]\nbuzzer_enabled = false\n[runtime]\nstatus_interval = 2\n[mqtt]\nenabled = true\nport = %s\nbox = "tlsboat"\nusername = "tlsboat"\npassword_file = "%s"\nca_file = "%s/ca.crt"\n%b' \
            "$TP" "$T/pw.$2" "$T" "${3:-}" > "$T/$2.conf"
        "$BIN" run --simulate hold --switch off --config "$T/$2.conf" --runtime-dir "$T/$2/run" --journal-dir "$T/$2/journal" >"$T/$2.out" 2>&1 &
        BOX=$!
        row=
        for _ in $(seq 20); do
            sleep 0.5
            row=$("$BIN" status --json --runtime-dir "$T/$2/run" 2>/dev/null | /usr/bin/python3 -c "import json,sys; print([r['answer'] for r in json.load(sys.stdin)['status']['checks'] if r['component']=='mqtt'][0])" 2>/dev/null)
            case $row in Yes:*|"No: connection lost"*|"No: the broker refused"*|"No: can't"*) break ;; esac
        done
        kill "$BOX"; wait "$BOX" 2>/dev/null; BOX=
    }
    tlsbox secret1 good
    check "over TLS with its own user the box is on the broker ($row)" grep -q '^Yes: anchor-alert/tlsboat on ' <<<"$row"
    tlsbox wrong bad
    check "a wrong password is a Systems Check row, retried ($row)" grep -q '^No: .*trying again$' <<<"$row"
    check "and it says the broker refused the box, not a lost connection" grep -q '^No: the broker refused the connection: ' <<<"$row"
    tlsbox secret1 nocert "cert_file = \"$T/none.crt\"\nkey_file = \"$T/none.key\"\n"
    check "a missing client certificate is named ($row)" grep -q "^No: can't read mqtt.cert_file $T/none.crt (No such file or directory)$" <<<"$row"
    kill "$TLSB"; wait "$TLSB" 2>/dev/null
else
    bad "openssl and mosquitto_passwd are needed for the TLS test"
fi

echo "gpsd reading a chartplotter's NMEA over TCP (gpsd's own tcp:// source)"
if [ -x /usr/sbin/gpsd ]; then
    /usr/bin/python3 scripts/network/plotter_feed.py ../shared/data/gps/avnav/segments/nmea-20130630_L1-8252_moored-berth.log \
        >"$D/feed.port" 2>"$D/feed.err" &
    FEED=$!
    for _ in $(seq 300); do [ -s "$D/feed.port" ] && break; sleep 0.1; done
    GP=$(freeport)
    /usr/sbin/gpsd -N -n -S "$GP" -F "$D/gpsd.sock" "tcp://127.0.0.1:$(cat "$D/feed.port")" >"$D/gpsd.log" 2>&1 &
    GPSD=$!
    printf '[runtime]\nstatus_interval = 1\n[gps]\nhost = "127.0.0.1"\nport = %s\n[gpio]\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n[ring]\nenabled = false\n[siren]\nenabled = false\n' "$GP" > "$D/tcpgps.conf"
    "$BIN" run --switch off --config "$D/tcpgps.conf" --runtime-dir "$D/tcpgps/run" --journal-dir "$D/tcpgps/journal" \
        >"$D/tcpgps.out" 2>&1 &
    BOX=$!
    fresh=; t0=$SECONDS
    # Waits on the reading itself, up to 120 s of wall time (a loaded 2-core machine keeps that).
    while [ $((SECONDS - t0)) -lt 120 ]; do
        fresh=$("$BIN" status --json --runtime-dir "$D/tcpgps/run" 2>/dev/null | /usr/bin/python3 -c '
import json, sys, time
s = json.load(sys.stdin)["status"]
at = s.get("gps", {}).get("reading_at")
kinds = [f["kind"] for f in s.get("faults", [])]
if at and time.time() - at < 5 and "gpsd" not in kinds and "receiver" not in kinds: print("%.1f s old" % (time.time() - at))' 2>/dev/null)
        [ -n "$fresh" ] && break; sleep 0.5
    done
    check "the box reads GPS through gpsd fed over tcp:// (a reading ${fresh:-never seen}, $((SECONDS - t0)) s)" test -n "$fresh"
    if [ -z "$fresh" ]; then   # say why, so a failure is not a mystery
        echo "  feed port: $(cat "$D/feed.port" 2>/dev/null); feed: $(tail -3 "$D/feed.err" 2>/dev/null)"
        echo "  gpsd (port $GP):"; tail -5 "$D/gpsd.log" 2>/dev/null | sed 's/^/    /'
        echo "  box:"; tail -5 "$D/tcpgps.out" 2>/dev/null | sed 's/^/    /'
    fi
    kill "$BOX" "$GPSD" "$FEED" 2>/dev/null; wait "$BOX" "$GPSD" "$FEED" 2>/dev/null; BOX=
else
    bad "gpsd is not installed (scripts/packages/gpsd.txt)"
fi

echo "config --check refuses what run refuses (the network sections)"
C=$D/cfg; mkdir -p "$C"; echo secret > "$C/pw.open"; chmod 644 "$C/pw.open"; echo secret > "$C/pw.ok"; chmod 600 "$C/pw.ok"
cfgcheck() {  # what, expected words, config text
    printf '%b' "$3" > "$C/c.conf"
    local out rc; out=$("$BIN" config --check "$C/c.conf" 2>&1); rc=$?
    check "config --check: $1 ($(head -1 <<<"$out"))" test "$rc" -ne 0 -a -n "$(grep -F -- "$2" <<<"$out")"
}
for name in "my boat" "a/b" "a+b" "bateau-été"; do
    cfgcheck "box name \"$name\"" "can't be a topic level" "[mqtt]\nenabled = true\nbox = \"$name\"\n"
done
cfgcheck 'talker "XYZ"' "talker must be two capital letters" '[nmea]\nenabled = true\ntalker = "XYZ"\n'
cfgcheck 'an empty talker' "talker must be two capital letters" '[nmea]\nenabled = true\ntalker = ""\n'
cfgcheck 'listen = "wlan0"' "must be an IPv4 address" '[nmea]\nenabled = true\nlisten = "wlan0"\n'
cfgcheck 'a missing password file' "can't read the password file" "[mqtt]\nenabled = true\nbox = \"b1\"\npassword_file = \"$C/none\"\n"
cfgcheck 'a world-readable password file' "readable by every user" "[mqtt]\nenabled = true\nbox = \"b1\"\npassword_file = \"$C/pw.open\"\n"
printf '[mqtt]\nenabled = true\nbox = "b-1.x_y"\npassword_file = "%s"\n[nmea]\nenabled = true\ntalker = "GP"\nlisten = "127.0.0.1"\n' "$C/pw.ok" > "$C/good.conf"
check "config --check passes good network settings" "$BIN" config --check "$C/good.conf"
printf '[mqtt]\nenabled = true\n' > "$C/host.conf"
check "config --check warns that an empty mqtt.box is the host name on the broker" \
    grep -q '^Note: mqtt.box is empty, so this box is ' <<<"$("$BIN" config --check "$C/host.conf")"
# run turns the same down, and says so: a name that is no topic level, a password any user reads.
runsays() {  # config text, then expected words
    printf '%b' "$1" > "$C/r.conf"; shift
    timeout 4 "$BIN" run --simulate hold --switch off --config "$C/r.conf" --runtime-dir "$C/run" --journal-dir "$C/journal" >"$C/r.out" 2>&1
    for w in "$@"; do check "run says: $w" grep -q -F -- "$w" "$C/r.out"; done
}
runsays '[mqtt]\nenabled = true\nport = 1\nbox = "bateau-été"\n[nmea]\nenabled = true\nport = 0\ntalker = "XYZ"\nlisten = "wlan0"\n' \
    "can't be a topic level: use up to 64 ASCII letters, digits, - _ or .; not connecting" "talker must be two capital letters" "an IPv4 address is needed"
runsays "[mqtt]\nenabled = true\nport = 1\nbox = \"b1\"\npassword_file = \"$C/pw.open\"\n" "readable by every user; chmod 600 it; not connecting"

echo "The systemd unit's addresses, derived from the configuration"
printf '[gps]\nhost = "192.168.1.7"\n[mqtt]\nenabled = true\nbroker = "10.0.0.2"\n[nmea]\nenabled = true\nallow = "192.168.1.0/24 fd00::/8"\n' > "$D/allow.conf"
printf '[signalk]\nenabled = true\nallow = "192.168.1.9"\n' > "$D/skallow.conf"
check "the drop-in allows the Signal K server" \
    test "$("$BIN" config --network-allow --config "$D/skallow.conf" | grep '^IPAddressAllow=')" = "IPAddressAllow=192.168.1.9"
out=$("$BIN" config --network-allow --config "$D/allow.conf")
check "the drop-in allows exactly the gpsd host, the broker and the NMEA clients" \
    test "$(grep '^IPAddressAllow=' <<<"$out" | tr '\n' ' ')" = "IPAddressAllow=192.168.1.7 IPAddressAllow=10.0.0.2 IPAddressAllow=192.168.1.0/24 IPAddressAllow=fd00::/8 "
printf '[mqtt]\nenabled = false\nbroker = "10.0.0.2"\n' > "$D/local.conf"
out=$("$BIN" config --network-allow --config "$D/local.conf")
check "with gpsd on localhost and the outputs off, nothing is added" test -z "$(grep -E '^(IPAddressAllow|RestrictAddressFamilies)=' <<<"$out")"
printf '[nmea]\nenabled = true\nudp_interface = "wlan0"\n' > "$D/udp.conf"
check "a UDP broadcast interface adds netlink, to find its broadcast address" \
    grep -q '^RestrictAddressFamilies=AF_NETLINK$' <<<"$("$BIN" config --network-allow --config "$D/udp.conf")"
# NMEA on with nmea.allow empty: the drop-in lets no plotter in, and the Systems Check says so.
nmearow() {  # config file: the nmea_out row's status and answer from a short run
    timeout 4 "$BIN" run --simulate hold --switch off --config "$1" --runtime-dir "$D/allowrun/run" \
        --journal-dir "$D/allowrun/journal" >"$D/allowrun.out" 2>&1 &
    local p=$! r=
    for _ in $(seq 30); do
        sleep 0.2
        r=$("$BIN" status --json --runtime-dir "$D/allowrun/run" 2>/dev/null | /usr/bin/python3 -c "import json,sys; print([r['status'] + ' ' + r['answer'] for r in json.load(sys.stdin)['status']['checks'] if r['component']=='nmea_out'][0])" 2>/dev/null)
        [ -n "$r" ] && break
    done
    kill $p 2>/dev/null; wait $p 2>/dev/null; rm -rf "$D/allowrun"
    echo "$r"
}
printf '[gpio]\nbuzzer_enabled = false\n[nmea]\nenabled = true\nport = 0\n' > "$D/nmeaopen.conf"
out=$("$BIN" config --network-allow --config "$D/nmeaopen.conf")
check "NMEA on, nmea.allow empty: the drop-in adds no address and says only this box reaches the port" \
    test -z "$(grep '^IPAddressAllow=' <<<"$out")" -a -n "$(grep -F '# nmea.allow is empty: only this box reaches the NMEA port' <<<"$out")"
row=$(nmearow "$D/nmeaopen.conf")
check "and the Systems Check agrees: for this box only ($row)" grep -q '^attention Yes: TCP port [0-9]*, 0 listening; for this box only: nmea.allow is empty$' <<<"$row"
printf '[gpio]\nbuzzer_enabled = false\n[nmea]\nenabled = true\nport = 0\nallow = "192.168.1.0/24"\n' > "$D/nmealan.conf"
row=$(nmearow "$D/nmealan.conf")
check "with nmea.allow set the row is a plain yes ($row)" grep -q '^ok Yes: TCP port [0-9]*, 0 listening$' <<<"$row"
G=$D/generated; mkdir -p "$G"
if command -v systemd-analyze >/dev/null; then
    sed "s|/usr/bin/anchor-alert config --network-allow --config /etc/anchor-alert/anchor-alert.conf|$BIN config --network-allow --config $D/allow.conf|; s|\[ -x /usr/bin/anchor-alert \] \|\| exit 0||" \
        image/deb/anchor-alert-generator > "$D/generator.sh"
    sh "$D/generator.sh" "$G"
    check "the generator writes the drop-in" grep -q '^IPAddressAllow=10.0.0.2$' "$G/anchor-alert.service.d/50-network-allow.conf"
fi

echo "The GPS-lost text, as a plotter and a Signal K server read it (scripts/network/gps_lost_text.py)"
t0=$SECONDS; wait "$LOST"; rc=$?; LOST=
out=$(cat "$D/lost.log")
echo "$out"
echo "  (the script waited $((SECONDS - t0)) s for it after its other sections)"
passed=$((passed + $(grep -c '^  ok:' <<<"$out")))
failed=$((failed + $(grep -c '^  FAILED:' <<<"$out")))
[ $rc -ne 0 ] && ! grep -q '^  FAILED:' <<<"$out" && bad "gps_lost_text.py exited $rc without a check failing"
echo "test-network: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
