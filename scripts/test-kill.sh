#!/usr/bin/env bash
# The kill test: the real anchor-alert on a simulated boat, decisions through its control
# socket, kill -9 at random moments, restarted; every acknowledged decision must survive and a
# ringing alarm must ring again at once. 200 cycles; --full runs 1000.
set -uo pipefail
cd "$(dirname "$0")/.."
cycles=200
[ "${1:-}" = "--full" ] && cycles=1000
log=$(mktemp)
if ! swift build --product anchor-alert -q >"$log" 2>&1; then
    # The build's own status decides, not a grep of its words.
    tail -20 "$log"; rm -f "$log"
    echo "kill-test: anchor-alert does not build"
    echo "kill-test: 0 passed, 1 failed (0 cycles)"
    exit 1
fi
rm -f "$log"
exec /usr/bin/python3 scripts/kill-test.py .build/debug/anchor-alert "$cycles" "${KILL_TEST_SEED:-2026}"
