#!/usr/bin/env bash
# Installs what is missing, builds the box, and runs it on a simulated boat in the terminal.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
swift build -c release --product anchor-alert 2>&1 | tail -1
exec .build/release/anchor-alert demo "$@"
