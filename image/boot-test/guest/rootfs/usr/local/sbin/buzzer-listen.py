#!/usr/bin/python3
"""Listens to the buzzer line (a gpio-sim value file) and says whether it plays the alarm.

    buzzer-listen.py VALUE_FILE SECONDS

The alarm is 0.2 s on, 0.2 s off (Sources/LightsAndSounds/SoundDesign.swift); the fault pattern is
0.5 s on, 2 s off; a chirp is one to three short pulses. Three alarm cycles in a row (on under
0.4 s, off under 1 s) are the alarm; the fault pattern never passes. The line is read every
2 ms: a shell loop that forks `date` and `sleep` for each sample reads it every few hundred ms
under emulation, slower than the alarm's own edges, and hears its rhythm wrong.
Exit 0 once the alarm is heard (printing "alarm after N s"), 1 when SECONDS pass without it
(printing what the line did play), 2 when the file can't be read.
"""
import os
import sys
import time

path, seconds = sys.argv[1], float(sys.argv[2])
start = time.monotonic()
end = start + seconds
last = since = None
cycles = faults = long_on = edges = 0
ons, offs = [], []


def level():
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.pread(fd, 1, 0)
    finally:
        os.close(fd)


while True:
    now = time.monotonic()
    if now >= end:
        break
    try:
        v = level()
    except OSError as e:
        print(f"can't read {path}: {e}")
        sys.exit(2)
    if last is not None and v != last:
        edges += 1
        if since is not None:
            held = now - since
            if last == b"1":
                ons.append(held)
                if held >= 0.4:
                    cycles, long_on = 0, int(held < 1.0)
            else:
                offs.append(held)
                if held >= 1.0:
                    cycles, faults, long_on = 0, faults + long_on, 0
                else:
                    cycles, long_on = cycles + 1, 0
        since = now
    last = v
    if cycles >= 3:
        print(f"alarm after {now - start:.1f} s")
        sys.exit(0)
    time.sleep(0.002)


def spread(xs):
    if not xs:
        return "none"
    xs = sorted(xs)
    return f"{len(xs)}, {xs[0] * 1000:.0f} to {xs[-1] * 1000:.0f} ms (median {xs[len(xs) // 2] * 1000:.0f})"


what = f"the fault pattern ({faults} long beeps)" if faults else "no alarm"
print(f"{what} in {seconds:.0f} s: {edges} edges, line now {last.decode() if last else '?'}; "
      f"on {spread(ons)}; off {spread(offs)}")
sys.exit(1)
