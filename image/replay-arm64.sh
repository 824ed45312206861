#!/bin/bash
# Runs `anchor-alert replay` of the arm64 binary under qemu-aarch64 (in the trixie root, with
# trixie's arm64 libraries) on a recorded departure from a berth, and compares its output with
# the same replay by a native build: same verdicts, same alarm at the same moment.
#
#   image/replay-arm64.sh [ARM64_BINARY]   (default: the one image/cross-arm64.sh built)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROOT=$("$(dirname "$0")/trixie-root.sh")
BIN=${1:-.build/trixie-arm64/aarch64-unknown-linux-gnu/release/anchor-alert}
BIN=${BIN#"$REPO_ROOT"/}
[ -x "$REPO_ROOT/$BIN" ] || die "no arm64 binary at $BIN (run image/cross-arm64.sh)"
LOG=$(shared_dir)/data/gps/avnav/segments/nmea-20130630_L7478-9454_leaving-berth.log
ARGS=(--mark-after 60 --arm)

work=$(mktemp -d "$REPO_ROOT/.build/replay-arm64.XXXXXX"); trap 'rm -rf "$work"' EXIT
cp "$LOG" "$work/capture.nmea"
t0=$(date +%s.%N)
in_root "$ROOT" qemu-aarch64 "/src/$BIN" replay "/src/${work#"$REPO_ROOT"/}/capture.nmea" "${ARGS[@]}" > "$work/arm64.jsonl" ||
    die "arm64 replay exited $?"
t1=$(date +%s.%N)

# The native reference: this machine's debug or release build, whichever exists (built if none).
# The native build of the same tree: built (or found up to date) every time, since a binary
# left from an older commit replays an older watch (it once failed this check so).
(cd "$REPO_ROOT" && nice -n 10 swift build --product anchor-alert >&2) || die "native build failed"
NATIVE=$REPO_ROOT/.build/debug/anchor-alert
"$NATIVE" replay "$work/capture.nmea" "${ARGS[@]}" > "$work/native.jsonl" || die "native replay failed"

rings=$(grep -c '"alarm":"ringing"' "$work/arm64.jsonl" || true)
say "arm64 under qemu: $(wc -l < "$work/arm64.jsonl") lines in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}') s; $(tail -1 "$work/arm64.jsonl")"
[ "$rings" -ge 1 ] || die "the arm64 replay did not ring on a boat leaving its berth"
if ! diff -u "$work/native.jsonl" "$work/arm64.jsonl" >&2; then
    die "the arm64 replay differs from the native one"
fi
say "arm64 replay matches the native replay line for line: rings at $(sed -n 's/.*"first_alarm_t":\([0-9.]*\).*/\1/p' "$work/arm64.jsonl") s"
