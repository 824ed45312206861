#!/usr/bin/env bash
# The kill test: the real anchor-alert on a simulated boat, decisions through its control
# socket, kill -9 at random moments, restarted; every acknowledged decision must survive and a
# ringing alarm must ring again at once. 200 cycles; --full runs 1000.
# The box under test is the release build the package ships (-c release --static-swift-stdlib,
# image/build-deb.sh's flags and build directory, so in scripts/test.sh test-image has built it
# already): it starts and answers `status` about twice as fast as the debug build (measured on a
# loaded 2-core machine: a start to its first status file 0.11 to 0.36 s against 0.21 to 0.54 s,
# one `status --json` 0.10 to 0.14 s against 0.15 to 0.30 s), and most of a cycle is that.
set -uo pipefail
cd "$(dirname "$0")/.."
. image/lib.sh
cycles=200
[ "${1:-}" = "--full" ] && cycles=1000
log=$(mktemp)
if ! swift build -c release --static-swift-stdlib "${RELEASE_LINK_FLAGS[@]}" --product anchor-alert \
        --scratch-path .build/release-static -q >"$log" 2>&1; then
    # The build's own status decides, not a grep of its words.
    tail -20 "$log"; rm -f "$log"
    echo "kill-test: anchor-alert does not build"
    echo "kill-test: 0 passed, 1 failed (0 cycles)"
    exit 1
fi
rm -f "$log"
exec /usr/bin/python3 scripts/kill-test.py .build/release-static/release/anchor-alert "$cycles" "${KILL_TEST_SEED:-2026}"
