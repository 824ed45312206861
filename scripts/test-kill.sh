#!/usr/bin/env bash
# The kill test: the real anchor-alert on a simulated boat, decisions through its control
# socket, kill -9 at random moments, restarted; every acknowledged decision must survive and a
# ringing alarm must ring again at once. 200 cycles; --full runs 1000.
set -uo pipefail
cd "$(dirname "$0")/.."
cycles=200
[ "${1:-}" = "--full" ] && cycles=1000
swift build --product anchor-alert -q 2>&1 | grep -E "error" && exit 1
exec /usr/bin/python3 scripts/kill-test.py .build/debug/anchor-alert "$cycles" "${KILL_TEST_SEED:-2026}"
