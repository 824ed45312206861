#!/usr/bin/env bash
# At a glance, as a person sees it: a running box (simulated GPS), a late mark, then
# `anchor-alert watch` in a real terminal (tmux) at 100 and 40 columns, read back with
# capture-pane: the ring and the status are drawn, nothing is wider than the terminal except
# a lone unbreakable word, the screen follows a change (a new alert radius), colour is there on
# a colour terminal and gone with NO_COLOR or TERM=dumb; --version answers.
# Prints "test-glance: N passed, N failed"; exits non-zero on any failure. About 20 s.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${ANCHOR_ALERT_BIN:-.build/debug/anchor-alert}
[ -x "$BIN" ] || swift build >/dev/null || { echo "test-glance: build failed"; exit 1; }
command -v tmux >/dev/null || { echo "test-glance: tmux is not installed (scripts/packages/glance.txt)"; exit 1; }
D=$(mktemp -d /tmp/aa-glance-XXXXXX)
S=aa-glance-$$
passed=0; failed=0
ok() { passed=$((passed + 1)); echo "  ok: $1"; }
bad() { failed=$((failed + 1)); echo "  FAILED: $1"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
BOX=
cleanup() { tmux kill-session -t "$S" 2>/dev/null; [ -n "$BOX" ] && kill "$BOX" 2>/dev/null; wait 2>/dev/null; rm -rf "$D"; }
trap cleanup EXIT

printf '[runtime]\nstatus_interval = 2\n' > "$D/box.conf"
"$BIN" run --simulate swing --speed 5 --switch off --config "$D/box.conf" \
    --runtime-dir "$D/run" --journal-dir "$D/journal" >"$D/box.out" 2>&1 &
BOX=$!
aa() { "$BIN" "$@" --runtime-dir "$D/run" --config "$D/box.conf"; }
for _ in $(seq 200); do aa status >/dev/null 2>&1 && break; sleep 0.1; done
for _ in $(seq 20); do aa mark >/dev/null 2>&1 && break; sleep 0.5; done

check "--version names the release" test "$("$BIN" --version)" = "anchor-alert $(sed -n 's/.*static let number = "\(.*\)".*/\1/p' Sources/Appliance/Version.swift)"

# shows WIDTH ENV...: start the live view in a WIDTH x 45 terminal, wait for it to draw.
shows() {
    local width=$1; shift
    tmux kill-session -t "$S" 2>/dev/null
    tmux new-session -d -s "$S" -x "$width" -y 45 \
        "env $* $BIN watch --runtime-dir $D/run --config $D/box.conf"
    for _ in $(seq 100); do tmux capture-pane -p -t "$S" | grep -q "As of" && break; sleep 0.2; done
}
plain() { tmux capture-pane -p -t "$S"; }
coloured() { tmux capture-pane -p -e -t "$S"; }
# No line wider than $1 characters (not bytes: the ring's dots and the degree sign are
# several) unless it is one lone word. -J joins what the terminal itself wrapped, so a line the
# view let run over the edge shows whole here and fails.
fits() { tmux capture-pane -p -J -t "$S" | python3 -c 'import sys; w = int(sys.argv[1]); sys.exit(any(len(l.rstrip("\n")) > w and len(l.split()) > 1 for l in sys.stdin))' "$1"; }

shows 100 TERM=xterm-256color
check "100 columns: the ring is drawn" grep -q "●" <(plain)
check "100 columns: the verdict and the distance to the anchor" grep -q "Distance to anchor: .* from the boat" <(plain)
check "100 columns: the boat in degrees and minutes" grep -Eq "Boat: [0-9]{2}°[0-9]{2}\.[0-9]{3}'[NS] [0-9]{3}°" <(plain)
check "100 columns: nothing wider than the terminal" fits 100
check "100 columns: the ring and the verdict in colour" grep -q $'\e\\[38;2;' <(coloured)
aa radius 44 >/dev/null
for _ in $(seq 100); do plain | grep -q "alert radius 44 m" && break; sleep 0.2; done
check "the screen follows a change (alert radius 44 m)" grep -q "alert radius 44 m" <(plain)

shows 40 TERM=xterm-256color
check "40 columns: the words go under the ring" grep -q "^Holding\|^Checking\|^Dragging\|^Can't judge" <(plain)
check "40 columns: lines break between words, none wider than 40" fits 40

shows 100 TERM=xterm-256color NO_COLOR=1
check "NO_COLOR: no colour" bash -c "! tmux capture-pane -p -e -t $S | grep -q $'\e\\\\[3[0-9;]*m\|\e\\\\[9[0-9]m'"
shows 100 TERM=dumb
check "TERM=dumb: no escape codes, each change below the last" bash -c "! tmux capture-pane -p -e -t $S | grep -q $'\e\\\\[[0-9;]*[mHJ]'"

echo "test-glance: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
