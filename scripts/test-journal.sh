#!/usr/bin/env bash
# The journal's checks beyond `swift test`: every libFuzzer target in scripts/fuzz.sh (seven: the
# journal reader, Journal.open on damaged segments, the NMEA and gpsd JSON replay readers, the
# configuration parser, the control socket's protocol, the gpsd stream reader) for a fixed time each.
#   scripts/test-journal.sh          20 s per target (CI)
#   scripts/test-journal.sh --full   300 s per target
# Exits non-zero if a target crashes, hangs or fails to build; ends with "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=20
[ "${1:-}" = "--full" ] && seconds=300

if ! command -v swiftc >/dev/null; then
    echo "test-journal: FAILED: swiftc not found"
    echo "test-journal: 0 passed, 1 failed"
    exit 1
fi

out=$(mktemp)
scripts/fuzz.sh "$seconds" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
passed=$(grep -c "no crash, no hang" "$out")
failed=$(grep -E "^  [a-z0-9-]+: FAILED" "$out" | wc -l)
rm -f "$out"
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
# Every target must have run: a target dropped from fuzz.sh (or one that ends without a verdict)
# is a failure, not a smaller pass.
expected=7
if [ $((passed + failed)) -ne "$expected" ]; then
    echo "test-journal: FAILED: $((passed + failed)) of $expected fuzz targets gave a verdict"
    failed=$((failed + expected - passed - failed))
    [ "$failed" -gt 0 ] || failed=1
fi
echo "test-journal: fuzzing ${seconds}s per target"
echo "test-journal: $passed passed, $failed failed"
exit $((rc != 0 || failed != 0))
