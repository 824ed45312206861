#!/usr/bin/env bash
# End to end, inside the test VM: the real `anchor-alert run` (simulated GPS, a boat holding)
# on a gpio-sim chip. The test is the skipper's hand (pulls on the switch and button lines) and
# ear (a sampler on the buzzer line).
#   e2e-in-vm.sh ANCHOR_ALERT HELPER SAMPLER
# Expects `run` to take its lines from the gpio.* keys (chip, buzzer, arm_switch, button,
# debounce), to request them under the consumer label "anchor-alert", to treat ARM as the
# contact closed (line low), and to write "Can't arm: no anchor marked", "Anchor marked at ...",
# "Alarm on" on its standard output. Prints "e2e: N passed, N failed" last.
set -u
bin=$1 helper=$2 sampler=$3
work=/tmp/aa-e2e
rm -rf "$work"; mkdir -p "$work/journal" "$work/run"
passed=0 failed=0 untold=0
ok() { passed=$((passed + 1)); echo "e2e ok: $*"; }
# A chirp that sounded but whose rhythm the emulated loop merged (its 50 ms gaps missed): not a
# pass, not a failure, counted apart and printed.
untold() { untold=$((untold + 1)); echo "e2e not told: $*"; }
bad() { failed=$((failed + 1)); echo "e2e FAILED: $*"; }
finish() {
    [ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null
    [ -n "${spid:-}" ] && kill "$spid" 2>/dev/null
    echo "--- anchor-alert's output"; cat "$work/out.log" 2>/dev/null
    "$helper" remove e2ebox
    echo "e2e: $untold chirps sounded but their rhythm was not told apart (merged under emulation)"
    echo "e2e: $passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
    exit $?
}
uptime_s() { cut -d' ' -f1 /proc/uptime; }
# The buzzer's pulses that began between two times: their lengths in ms, in order ("70 180").
pulses() { awk -v a="$1" -v b="$2" '$2 == 1 { on = $1 } $2 == 0 && on != "" { if (on >= a && on <= b) printf "%s%d", (n++ ? " " : ""), ($1 - on) * 1000 + 0.5; on = "" } END { print "" }' "$work/buzzer.txt"; }
# Which sound the pulses are (Sources/LightsAndSounds/SoundDesign.swift, the buzzer's rhythms): refusal
# three short, mark short then long, arm one long. Anything else is "other".
sound() {
    set -- $1
    case $# in
        # Margins for emulation on a busy host (a pulse stretches by tens of ms), never so wide
        # that the fault pattern's 500 ms note passes for the arm chirp's 180 ms.
        3) [ "$1" -lt 150 ] && [ "$2" -lt 150 ] && [ "$3" -lt 150 ] && { echo refusal; return; };;
        2) [ "$1" -lt 150 ] && [ "$2" -gt $(( $1 + 40 )) ] && { echo mark; return; };;
        1) [ "$1" -ge 120 ] && [ "$1" -lt 420 ] && { echo arm; return; };;
    esac
    echo other
}
wait_log() { # PATTERN SECONDS
    local until=$(awk -v s="$2" '{ print $1 + s }' /proc/uptime)
    while awk -v u="$until" '{ exit !($1 < u) }' /proc/uptime; do
        grep -q "$1" "$work/out.log" && return 0
        sleep 0.1
    done
    grep -q "$1" "$work/out.log"
}
pull() { echo "pull-$2" > "$sysfs/sim_gpio$1/pull"; }   # line offset, up|down

chip=$("$helper" create e2ebox buzzer arm-switch button) || { bad "can't create a gpio-sim chip"; finish; }
sysfs=$("$helper" sysfs e2ebox)
cat > "$work/anchor-alert.conf" <<CONF
[gpio]
chip = "$chip"
buzzer = "buzzer"
arm_switch = "arm-switch"
button = "button"
# Long enough that a burst of shell writes (about 4 ms each under emulation) is one bounce.
debounce = 0.25
# No ring and no speaker in the VM: left enabled, their faults would sound the fault pattern on
# the buzzer over the chirps this test tells apart.
[ring]
enabled = false
[siren]
enabled = false
CONF

"$bin" run --config "$work/anchor-alert.conf" --simulate hold \
    --journal-dir "$work/journal" --runtime-dir "$work/run" > "$work/out.log" 2>&1 & pid=$!

# Bounded by time, not by tries: under emulation on a busy host a gpioinfo can take a second.
held=0 deadline=$(awk '{ print int($1) + 30 }' /proc/uptime)
while [ "$(cut -d. -f1 /proc/uptime)" -lt "$deadline" ]; do
    held=$(gpioinfo "$chip" | grep -c '"anchor-alert"')
    [ "$held" -eq 3 ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
done
if [ "$held" -eq 3 ]; then ok "run holds buzzer, arm switch and button as \"anchor-alert\""
else bad "run did not request the three lines from the gpio.* keys (held: $held): is GPIO wired into run?"; finish; fi
[ "$(cat "$sysfs/sim_gpio0/value")" = 0 ] && ok "buzzer off at start" || bad "buzzer on at start"
# Long enough for the slowest run under emulation (it is stopped at the end).
"$sampler" "$sysfs/sim_gpio0/value" 900 > "$work/buzzer.txt" & spid=$!

# Each chirp is heard in a window and told apart by its rhythm. A loop running late on a busy
# emulated host can merge a chirp's pulses ("other"): then the same act is tried again, up to
# three times, and every try's pulses are printed. A different chirp fails at once.
heard() { # EXPECTED WHAT -> sets $tries; 0 when the expected chirp was heard
    local got
    got=$(sound "$p")
    tries="$tries${tries:+, }${p:-none}"
    [ "$got" = "$1" ] && return 0
    [ "$got" = other ] && return 2
    # One pulse may be another chirp merged: only a rhythm heard whole is another sound.
    set -- $p
    [ $# -le 1 ] && return 2
    return 1
}

# Slide to ARM with no anchor: refused, with its reason and the refusal sound.
tries= verdict=2
for attempt in 1 2 3; do
    t=$(uptime_s); pull 1 down
    if [ $attempt -eq 1 ]; then
        if wait_log "Can't arm: no anchor marked" 5; then ok "ARM without an anchor is refused with its reason"; else bad "no refusal on ARM without an anchor"; fi
    fi
    sleep 1
    p=$(pulses "$t" "$(uptime_s)")
    heard refusal; verdict=$?
    pull 1 up; sleep 1.5
    [ $verdict -eq 2 ] || break
done
judge() { # VERDICT WHAT
    case $1 in
        0) ok "the $2 sounds on the buzzer (pulses ms: $tries)";;
        2) if [ -n "$p" ]; then untold "the $2 sounded, its rhythm merged (pulses ms: $tries)"
           else bad "no $2 on the buzzer (pulses ms: $tries)"; fi;;
        *) bad "no $2 on the buzzer: another sound (pulses ms: $tries)";;
    esac
}
judge $verdict refusal

# Mark with a long press (2 s), once the simulated GPS has given a steady reading.
marked=0
for attempt in 1 2 3 4 5 6; do
    t=$(uptime_s); pull 2 down; sleep 2; pull 2 up
    if wait_log "Anchor marked" 3; then marked=1; break; fi
done
if [ $marked -eq 1 ]; then ok "a long press marks the anchor (attempt $attempt)"; else bad "a long press never marked the anchor"; finish; fi
sleep 1
tries=
# One try only: a second long press would release the anchor.
p=$(pulses "$t" "$(uptime_s)")
heard mark; judge $? "mark chirp"

# Slide to ARM, bouncing: one arm, and its chirp on the buzzer; then nothing more.
before=$(grep -c "^Alarm on" "$work/out.log")
t=$(uptime_s)
for level in down up down up down up down up down; do pull 1 $level; done
burst_end=$(uptime_s)
if wait_log "^Alarm on" 5; then ok "sliding the switch arms the box"; else bad "sliding the switch did not arm"; fi
sleep 2
after=$(grep -c "^Alarm on" "$work/out.log")
[ $((after - before)) -eq 1 ] && ok "a bouncing slide arms once" || bad "a bouncing slide armed $((after - before)) times"
p=$(pulses "$t" "$(uptime_s)")
burst=$(awk -v a="$t" -v b="$burst_end" 'BEGIN{printf "%.0f", (b-a)*1000}')
tries=
heard arm; verdict=$?
for again in 2 3; do
    [ $verdict -eq 2 ] || break
    # Off (its own chirp, left out of the window), then ARM again.
    pull 1 up; sleep 2
    t=$(uptime_s); pull 1 down; sleep 2
    p=$(pulses "$t" "$(uptime_s)")
    heard arm; verdict=$?
done
echo "e2e: the bouncing burst took $burst ms"
judge $verdict "arm chirp"
[ "$(cat "$sysfs/sim_gpio0/value")" = 0 ] && ok "the chirp ended (not an alarm)" || bad "buzzer still on after the chirp"

# SIGTERM: stops cleanly, buzzer off, lines given back.
kill -TERM "$pid"; wait "$pid"; rc=$?; pid=
[ $rc -eq 0 ] && ok "SIGTERM stops run with status 0" || bad "run exited $rc on SIGTERM"
[ "$(cat "$sysfs/sim_gpio0/value")" = 0 ] && ok "buzzer off after SIGTERM" || bad "buzzer on after SIGTERM"
[ "$(gpioinfo "$chip" | grep -c '"anchor-alert"')" -eq 0 ] && ok "lines given back" || bad "lines still held after exit"
echo "--- buzzer transitions (boot clock, value)"; cat "$work/buzzer.txt"
finish
