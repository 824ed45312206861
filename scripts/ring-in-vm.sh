#!/usr/bin/env bash
# Inside the test VM (run by scripts/test-ring.sh): the siren in real time through snd-aloop,
# and `anchor-alert test-alarm` on real hardware stand-ins: the buzzer on a gpio-sim line (a
# sampler listens to it), the siren on the loopback card, the ring into a plain file.
#   ring-in-vm.sh ANCHOR_ALERT TEST_BUNDLE GPIO_SIM_HELPER LINE_SAMPLER
# Prints "ring-vm: N passed, N failed" last; exit status 0 only if all passed.
set -u
bin=$1 tests=$2 helper=$3 sampler=$4
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ring-vm ok: $*"; }
bad() { failed=$((failed + 1)); echo "ring-vm FAILED: $*"; }
finish() {
    "$helper" remove ringbox >/dev/null 2>&1
    echo "ring-vm: $passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
    exit $?
}

modprobe snd-aloop || { bad "snd-aloop does not load"; finish; }

# 1. The siren in real time, arecord on the loopback's other end.
out=$("$tests" DriversTests.ALSASirenLoopbackTests 2>&1)
if [ $? -eq 0 ]; then ok "$(grep '^siren in real time' <<<"$out")"; else
    echo "$out" | grep -E 'error|siren in real|Executed' | tail -15; bad "DriversTests.ALSASirenLoopbackTests"; fi

# 2. test-alarm with every part fitted.
work=/tmp/ring-vm
rm -rf "$work"; mkdir -p "$work"; : > "$work/spidev0.0"
chip=$("$helper" create ringbox buzzer) || { bad "can't create a gpio-sim chip"; finish; }
sysfs=$("$helper" sysfs ringbox)
cat > "$work/anchor-alert.conf" <<CONF
[ring]
device = "$work/spidev0.0"
[siren]
device = "plughw:Loopback,0,0"
[gpio]
chip = "$chip"
buzzer = "buzzer"
CONF
"$sampler" "$sysfs/sim_gpio0/value" 15 > "$work/buzzer.txt" & spid=$!
sleep 0.3
report=$("$bin" test-alarm --config "$work/anchor-alert.conf" 2>&1); status=$?
sleep 0.3
kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
echo "$report"
[ $status -eq 0 ] && ok "test-alarm exit 0" || bad "test-alarm exited $status"
grep -q '^Buzzer: sounded on buzzer$' <<<"$report" && ok "buzzer reported" || bad "no buzzer report"
grep -q '^Siren: sounded on "plughw:Loopback,0,0"$' <<<"$report" && ok "siren reported" || bad "no siren report"
grep -q '^LED ring: lit 12 pixels' <<<"$report" && ok "ring reported" || bad "no ring report"
# The alarm's rhythm on the line: 1.2 s of 0.2 s on, 0.2 s off is three buzzes, and it ends low.
rises=$(awk 'NR > 1 && $2 == 1 { n++ } END { print n + 0 }' "$work/buzzer.txt")
last=$(tail -1 "$work/buzzer.txt" | cut -d' ' -f2)
ons=$(awk '$2 == 1 { t = $1 } $2 == 0 && t { printf "%d ", ($1 - t) * 1000 + 0.5; t = 0 }' "$work/buzzer.txt")
[ "$rises" -eq 3 ] && ok "three buzzes on the line (on for ${ons}ms)" || { cat "$work/buzzer.txt"; bad "$rises buzzes on the line, expected 3"; }
[ "$last" = 0 ] && ok "the buzzer ends off" || bad "the buzzer line ends at $last"
finish
