#!/usr/bin/env bash
# `config --check` on a configuration that leaves nothing to sound the alarm (buzzer and siren
# both off) warns first, in the status's words, and exits 1; with either one fitted it is clean.
# Prints "test-config-sound: N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${ANCHOR_ALERT_BIN:-.build/debug/anchor-alert}
[ -x "$BIN" ] || swift build >/dev/null || { echo "test-config-sound: build failed"; exit 1; }
D=$(mktemp -d /tmp/aa-config-sound-XXXXXX)
trap 'rm -rf "$D"' EXIT
passed=0; failed=0
check() { local what=$1; shift; if "$@"; then passed=$((passed + 1)); echo "  ok: $what"; else failed=$((failed + 1)); echo "  FAILED: $what"; fi; }

printf '[gpio]\nbuzzer_enabled = false\n[siren]\nenabled = false\n' > "$D/silent.conf"
out=$("$BIN" config --check "$D/silent.conf" 2>&1); rc=$?
check "both off: exit 1 (rc $rc)" test $rc -eq 1
check "both off: first line says it can't ring ($(head -1 <<<"$out"))" \
    test "$(head -1 <<<"$out")" = "Won't ring: nothing can sound the alarm: no buzzer is fitted and no siren is fitted"
check "both off: never 'no problems'" test -z "$(grep 'no problems' <<<"$out")"

printf '[gpio]\nbuzzer_enabled = false\n' > "$D/siren.conf"
out=$("$BIN" config --check "$D/siren.conf" 2>&1); rc=$?
check "siren alone: clean (rc $rc, $out)" test $rc -eq 0 -a "$out" = "Configuration: no problems"
printf '[siren]\nenabled = false\n' > "$D/buzzer.conf"
out=$("$BIN" config --check "$D/buzzer.conf" 2>&1); rc=$?
check "buzzer alone: clean (rc $rc, $out)" test $rc -eq 0 -a "$out" = "Configuration: no problems"

echo "test-config-sound: $passed passed, $failed failed"
[ $failed -eq 0 ]
