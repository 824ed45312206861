#!/usr/bin/env bash
# The LED ring and the siren, end to end through the real binary: `anchor-alert test-alarm`
# with the ring's spidev replaced by a plain file and ALSA's default device routed into a WAV
# file (the file plugin over the null device). Checks the frames written, the sound recorded,
# and that missing devices are named faults with exit status 1. Then, inside the VM of
# ../shared/vm (scripts/ring-in-vm.sh): the siren in real time through the kernel's loopback
# card (DriversTests.ALSASirenLoopbackTests, which `swift test` cannot run outside the VM: skip
# it there), and test-alarm with its buzzer on a gpio-sim line.
# Unit and alsa-lib tests are in `swift test --filter 'LightsAndSoundsTests|DriversTests'`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
fail() { echo "test-ring: FAIL: $*"; exit 1; }

swift build --product anchor-alert >/dev/null 2>&1 || { swift build --product anchor-alert; fail "build"; }
bin=$(swift build --show-bin-path)/anchor-alert
[ -r /usr/share/alsa/alsa.conf ] || fail "/usr/share/alsa/alsa.conf is missing (install libasound2-data)"

dir=$(mktemp -d /tmp/test-ring-XXXXXX)
trap 'rm -rf "$dir"' EXIT
pixels=16
: > "$dir/spidev0.0"
# No GPIO chip out here: the buzzer's part of test-alarm runs in the VM (step 3).
printf '[ring]\ndevice = "%s/spidev0.0"\npixels = %d\ntype = "ws2812"\n[gpio]\nbuzzer_enabled = false\n' \
    "$dir" "$pixels" > "$dir/ok.conf"
printf 'pcm.!default { type file; slave.pcm "null"; file "%s/siren.wav"; format "wav" }\n' "$dir" > "$dir/asoundrc"
export ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$dir/asoundrc"

# 1. Everything fitted and working: exit 0, every part reports.
out=$("$bin" test-alarm --config "$dir/ok.conf") || fail "test-alarm exited $? with working devices: $out"
grep -q "^LED ring: lit $pixels pixels on $dir/spidev0.0\$" <<<"$out" || fail "no ring report in: $out"
grep -q '^Siren: sounded on "default"$' <<<"$out" || fail "no siren report in: $out"
# Seven frames (five colours, full brightness, off), each 9 bytes a pixel plus a 90-byte reset gap.
frame=$((pixels * 9 + 90))
size=$(stat -c %s "$dir/spidev0.0")
[ "$size" -eq $((7 * frame)) ] || fail "ring wrote $size bytes, expected 7 frames of $frame"
# The last frame is all pixels off: every WS2812 bit of it is 100 (bytes 92 49 24).
tail -c "$frame" "$dir/spidev0.0" | head -c $((pixels * 9)) | od -An -tx1 | tr -s ' \n' '\n' | sed '/^$/d' | sort -u \
    | tr '\n' ' ' | grep -qx '24 49 92 ' || fail "the last frame does not turn the ring off"
[ "$(head -c 4 "$dir/siren.wav")" = RIFF ] || fail "the siren recorded no WAV"
wav=$(stat -c %s "$dir/siren.wav")
# test-alarm's siren pattern lasts 2.0 s: at 48 kHz mono 16-bit, 192000 bytes of samples.
[ "$wav" -ge 150000 ] || fail "the siren recorded only $wav bytes"

# 2. Nothing fitted where configured: named faults, exit 1, and no hang.
printf '[ring]\ndevice = "%s/missing"\n[siren]\ndevice = "hw:77"\n' "$dir" > "$dir/bad.conf"
set +e
out=$(timeout 20 "$bin" test-alarm --config "$dir/bad.conf" 2>&1)
status=$?
set -e
[ "$status" -eq 1 ] || fail "test-alarm exited $status with missing devices: $out"
grep -q "^LED ring: $dir/missing is missing, the ring is dark\$" <<<"$out" || fail "no ring fault in: $out"
grep -q '^Siren: no sound device "hw:77" .*, the buzzer still rings$' <<<"$out" || fail "no siren fault in: $out"

# 3. Inside the VM: the siren in real time through snd-aloop (arecord on the other end), and
# test-alarm with the buzzer on a gpio-sim line, heard by a sampler.
shared=""
for c in "$here/../shared" "$here/../../shared"; do [ -x "$c/vm/run-in-vm.sh" ] && { shared=$(cd "$c" && pwd); break; }; done
[ -n "$shared" ] || fail "../shared/vm/run-in-vm.sh not found: the real-time siren and buzzer checks need the VM"
swift build --build-tests >/dev/null 2>&1 || fail "building the tests"
tests=$(swift build --show-bin-path)/AnchorAlertPackageTests.xctest
sampler="$dir/line-sampler"
gcc -O2 -Wall -Werror -o "$sampler" "$here/scripts/gpiod/line-sampler.c" || fail "building the line sampler"
set +e
vmout=$(VM_RW="$dir" "$shared/vm/run-in-vm.sh" "$here/scripts/ring-in-vm.sh $bin $tests $shared/vm/gpio-sim-chip.sh $sampler" 2>&1)
status=$?
set -e
echo "$vmout" | grep '^ring-vm'
[ "$status" -eq 0 ] || { echo "$vmout" | tail -30; fail "inside the VM (exit $status)"; }

echo "test-ring: PASS (test-alarm wrote $((size / frame)) ring frames of $pixels pixels and $wav bytes of siren; missing devices named, exit 1; in the VM: the siren in real time, test-alarm's buzzer on gpio-sim)"
