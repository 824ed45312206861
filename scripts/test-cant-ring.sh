#!/usr/bin/env bash
# A box with nothing that can sound the alarm (buzzer and siren both off) looks like one on every
# surface, through the real binary: the service log says "Won't ring: nothing can sound the
# alarm" first (at the journal's error priority when its stream is journald's), `status` says it
# first, `status --json` has "can_sound": false, `watch` paints the line in the alarm's red and
# draws the ring with the fault marker, and the LED ring (a plain file as its spidev, APA102
# frames) shows the fault marker and stays at its working brightness past `ring.calm_after`.
# The same box with the siren fitted (ALSA's null device) is none of these.
# Prints "test-cant-ring: N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${ANCHOR_ALERT_BIN:-.build/debug/anchor-alert}
[ -x "$BIN" ] || swift build >/dev/null || { echo "test-cant-ring: build failed"; exit 1; }
D=$(mktemp -d /tmp/aa-cant-ring-XXXXXX)
BOX=
cleanup() { [ -n "$BOX" ] && kill "$BOX" 2>/dev/null; wait 2>/dev/null; rm -rf "$D"; }
trap cleanup EXIT
passed=0; failed=0
check() { local what=$1; shift; if "$@"; then passed=$((passed + 1)); echo "  ok: $what"; else failed=$((failed + 1)); echo "  FAILED: $what"; fi; }
WONT="Won't ring: nothing can sound the alarm: no buzzer is fitted and no siren is fitted"

# The ring into a file: APA102 with RGB order, so each pixel is 0xff, r, g, b after a 4-byte start.
ring='[ring]\ntype = "apa102"\norder = "rgb"\npixels = 12\ncalm_after = 1\ndevice = "%s/ring"\n'
# No button either (none is wired here: its fault would put a marker on the ring by itself); the
# switch is simulated (SIGUSR1 slides it to ARM).
printf "[gpio]\nbuzzer_enabled = false\nbutton_enabled = false\n[siren]\nenabled = false\n$ring" "$D" > "$D/silent.conf"
printf "[gpio]\nbuzzer_enabled = false\nbutton_enabled = false\n[siren]\ndevice = \"null\"\n$ring" "$D" > "$D/siren.conf"

# A frame from the ring's file, "r,g,b r,g,b ..." for the 12 pixels: the last one, or the first
# with 12 o'clock green (the ring just turned green: a change, so at its working brightness).
frames() { python3 - "$D/ring" "$1" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
size = 4 + 12 * 4 + 4 + 1
frames = [[tuple(data[at + 4 + 4 * i + 1:at + 4 + 4 * i + 4]) for i in range(12)] for at in range(0, len(data) - size + 1, size)]
if sys.argv[2] != "last":
    frames = [f for f in frames if f[0][1] > max(f[0][0], f[0][2])]
print(" ".join(",".join(map(str, p)) for p in frames[-1 if sys.argv[2] == "last" else 0]) if frames else "none")
PY
}
json() { python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"; }

start() {  # start CONF: a box holding, marked and armed; its log in $D/box.log as journald's stream
    rm -rf "$D/run" "$D/journal" "$D/ring"
    : > "$D/box.log"; : > "$D/ring"
    JOURNAL_STREAM="$(stat -c '%d:%i' "$D/box.log")" "$BIN" run --simulate hold --switch off --config "$1" \
        --runtime-dir "$D/run" --journal-dir "$D/journal" >>"$D/box.log" 2>&1 &
    BOX=$!
    for _ in $(seq 50); do "$BIN" status --runtime-dir "$D/run" >/dev/null 2>&1 && break; sleep 0.1; done
    # A mark needs a few steady readings; then the switch to ARM: a whole ring, holding green.
    for _ in $(seq 20); do "$BIN" mark --runtime-dir "$D/run" >/dev/null 2>&1 && break; sleep 0.5; done
    kill -USR1 "$BOX"
    for _ in $(seq 50); do
        [ "$("$BIN" status --json --runtime-dir "$D/run" | json "j['status']['alarm']['state']")" = armed ] && break
        sleep 0.1
    done
}
stop() { kill "$BOX" 2>/dev/null; wait "$BOX" 2>/dev/null; BOX=; }
aa() { "$BIN" "$@" --runtime-dir "$D/run" --config "$D/silent.conf"; }

start "$D/silent.conf"
check "the box holds, armed" \
    test "$(aa status --json | json "j['status']['position']['verdict'] + ' ' + j['status']['alarm']['state']")" = "holding armed"
sleep 2.5   # past ring.calm_after: a calm ring would have settled to its night glow
first=$(head -1 "$D/box.log")
check "log: the first line, at the journal's error priority ($first)" test "$first" = "<3>$WONT"
check "log: and then watching" grep -q "^Anchor Alert: watching" "$D/box.log"
s=$(aa status)
check "status: says it first ($(head -1 <<<"$s"))" test "$(head -1 <<<"$s")" = "$WONT"
check "status: says it once" test "$(grep -c "^$WONT" <<<"$s")" -eq 1
check "status --json: can_sound is false" test "$(aa status --json | json "j['status']['can_sound']")" = False
check "status --json: wont_ring says it" test "$(aa status --json | json "j['status']['wont_ring']")" = "$WONT"
w=$(aa watch --once --width 120)
check "watch (plain): the ring has the fault marker, dark either side ($(grep -o '·' <<<"$w" | wc -l) dark pixels)" \
    test "$(grep -o '·' <<<"$w" | wc -l)" -eq 2
wc=$(TERM=xterm script -qec "$BIN watch --once --width 120 --runtime-dir $D/run --config $D/silent.conf" /dev/null)
check "watch (colour): the line in bold bright red" grep -qF $'\e[1;91m'"Won't ring: nothing can sound" <<<"$wc"
last=$(frames last); first=$(frames green)
read -ra px <<<"$last"
check "LED ring: the fault marker at 6 o'clock, red (${px[6]})" \
    python3 -c "r,g,b=map(int,'${px[6]}'.split(',')); exit(0 if r > 2 * max(g, b) else 1)"
check "LED ring: dark either side of it (${px[5]} ${px[7]})" test "${px[5]} ${px[7]}" = "0,0,0 0,0,0"
check "LED ring: still at its working brightness past calm_after (${px[0]} then ${first%% *})" test "${px[0]}" = "${first%% *}"
stop

start "$D/siren.conf"
sleep 2.5
check "siren fitted: no such log line" test -z "$(grep "nothing can sound" "$D/box.log")"
check "siren fitted: status starts with the position" test "$("$BIN" status --runtime-dir "$D/run" | head -1)" = "Holding"
check "siren fitted: can_sound is true" \
    test "$("$BIN" status --json --runtime-dir "$D/run" | json "j['status']['can_sound']")" = True
first=$(frames green); read -ra px <<<"$(frames last)"
check "siren fitted: no marker, one colour all round (${px[5]} ${px[6]} ${px[7]})" test "${px[5]}" = "${px[6]}" -a "${px[6]}" = "${px[7]}"
check "siren fitted: the calm ring settles to its night glow (${px[0]} from ${first%% *})" test "${px[0]}" != "${first%% *}"
stop

echo "test-cant-ring: $passed passed, $failed failed"
[ $failed -eq 0 ]
