#!/usr/bin/env bash
# A Python with a real Home Assistant, for scripts/network/ha_discovery.py (HA_PYTHON): a venv
# of Python 3.13 with Home Assistant 2025.4.4, paho-mqtt 2.1.0 (its MQTT integration's one
# requirement) and home-assistant-frontend 20250411.0 (without the frontend its bootstrap falls
# into recovery mode and sets up no MQTT), every other package pinned by
# scripts/network/ha-constraints.txt, in
# $HA_CACHE (default /var/cache/anchor-alert-ha). Reuses the venv when it already imports the
# pinned versions; makes it otherwise (a few minutes: the packages come from PyPI).
# Prints the venv's python path and nothing else on stdout. Exits non-zero, saying which step
# failed, when Python 3.13 is missing, the cache can't be written or the install fails.
# PYTHON313: a python3.13 to use instead of searching for one.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
HA_VERSION=2025.4.4
PAHO_VERSION=2.1.0
FRONTEND_VERSION=20250411.0
CONSTRAINTS=$HERE/ha-constraints.txt
CACHE=${HA_CACHE:-/var/cache/anchor-alert-ha}
fail() { echo "ha-python: FAILED at $1" >&2; exit 1; }
say() { echo "ha-python: $*" >&2; }

[ -r "$CONSTRAINTS" ] || fail "step 0 (the pins): can't read $CONSTRAINTS"
# The venv's name carries the pins, so changing them makes a new one instead of trusting an old.
tag=$(cat "$CONSTRAINTS" <(echo "homeassistant==$HA_VERSION paho-mqtt==$PAHO_VERSION home-assistant-frontend==$FRONTEND_VERSION") | sha256sum | cut -c1-12)
VENV=$CACHE/py313-ha$HA_VERSION-$tag
works() {  # venv python: imports the pinned Home Assistant, its MQTT integration and paho-mqtt
    "$1" - "$HA_VERSION" "$PAHO_VERSION" "$FRONTEND_VERSION" >/dev/null 2>&1 <<'PY'
import sys
from importlib.metadata import version
from homeassistant.const import __version__
import homeassistant.components.mqtt, paho.mqtt.client, hass_frontend
sys.exit(0 if (__version__, version("paho-mqtt"), version("home-assistant-frontend")) == tuple(sys.argv[1:4]) else 1)
PY
}
if [ -x "$VENV/bin/python" ] && works "$VENV/bin/python"; then
    say "reusing $VENV (Home Assistant $HA_VERSION)"
    echo "$VENV/bin/python"
    exit 0
fi

# Step 1: Python 3.13. Given, on PATH, or under pyenv's root (pyenv's shim on PATH fails when
# 3.13 is not its selected version, so each candidate is run, not just found).
is313() { [ -n "$1" ] && "$1" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info[:2] != (3, 13))' 2>/dev/null; }
PY313=
cands=("${PYTHON313:-}" "$(command -v python3.13 2>/dev/null)")
roots=()
command -v pyenv >/dev/null && roots+=("$(pyenv root 2>/dev/null)")
roots+=("${PYENV_ROOT:-}" "$HOME/.pyenv" /root/.pyenv /opt/pyenv /usr/local/pyenv)
for r in "${roots[@]}"; do
    [ -n "$r" ] || continue
    for p in $(ls -d "$r"/versions/3.13*/bin/python3.13 2>/dev/null | sort -V -r); do cands+=("$p"); done
done
cands+=(/usr/local/bin/python3.13 /usr/bin/python3.13)
for c in "${cands[@]}"; do is313 "$c" && { PY313=$c; break; }; done
[ -n "$PY313" ] || fail "step 1 (Python 3.13): none found with venv and ensurepip (tried PYTHON313, python3.13 on PATH, pyenv's versions/3.13*, /usr/local/bin, /usr/bin); Home Assistant $HA_VERSION needs 3.13"
say "step 1: Python $("$PY313" -c 'import platform; print(platform.python_version())') at $PY313"

# Step 2: the cache directory, and a fresh venv in it.
mkdir -p "$CACHE" 2>/dev/null && [ -w "$CACHE" ] || fail "step 2 (the cache): can't write $CACHE (set HA_CACHE)"
if [ -e "$VENV" ]; then   # a venv of ours that does not work (an install cut short): make it anew
    [ -f "$VENV/pyvenv.cfg" ] || fail "step 2 (the cache): $VENV is there and is not a venv; move it away"
    rm -rf "$VENV"
fi
"$PY313" -m venv "$VENV" || fail "step 2 (the venv): $PY313 -m venv $VENV"

# Step 3: the pinned packages.
say "step 3: installing Home Assistant $HA_VERSION, paho-mqtt $PAHO_VERSION and its frontend $FRONTEND_VERSION into $VENV (minutes)"
t0=$SECONDS
"$VENV/bin/python" -m pip install --no-cache-dir --disable-pip-version-check -q -c "$CONSTRAINTS" \
    "homeassistant==$HA_VERSION" "paho-mqtt==$PAHO_VERSION" "home-assistant-frontend==$FRONTEND_VERSION" >&2 \
    || fail "step 3 (pip install homeassistant==$HA_VERSION paho-mqtt==$PAHO_VERSION home-assistant-frontend==$FRONTEND_VERSION -c $CONSTRAINTS into $VENV)"
say "step 3: installed in $((SECONDS - t0)) s"

# Step 4: it imports what the tests use.
works "$VENV/bin/python" || fail "step 4 (the check): $VENV/bin/python does not import Home Assistant $HA_VERSION's MQTT integration, paho-mqtt $PAHO_VERSION and frontend $FRONTEND_VERSION"
echo "$VENV/bin/python"
