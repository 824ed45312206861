#!/usr/bin/env python3
"""Stands in for systemd's notification socket, for the benches and tests that run the box
outside systemd (scripts/bench-loop.sh, scripts/test-slow-sync.sh).

    notify-sink.py PATH

Binds a datagram socket at PATH (give it to the box as NOTIFY_SOCKET, with WATCHDOG_USEC, so
sd_watchdog_enabled(3) says the box is watched) and prints one line per notification as it
arrives: CLOCK_MONOTONIC seconds, then the message's fields joined by spaces, e.g.
"1234.567890 WATCHDOG=1". Runs until killed. It only records; whoever reads its output judges.
"""
import os
import socket
import sys
import time

path = sys.argv[1]
try:
    os.unlink(path)
except FileNotFoundError:
    pass
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
while True:
    data = s.recv(4096)
    fields = data.decode("utf-8", "replace").split("\n")
    print(f"{time.monotonic():.6f} " + " ".join(f for f in fields if f), flush=True)
