#!/usr/bin/env python3
"""What N running boxes cost, from /proc: CPU time since each started (utime + stime over its
age) and memory (PSS, each process's fair share of pages it shares with the others, and RSS).
Usage: box_cost.py PID... ; prints one line, a measurement, never a verdict."""
import os, sys

hz = os.sysconf("SC_CLK_TCK")
uptime = float(open("/proc/uptime").read().split()[0])
cpu = age = pss = rss = 0.0
n = 0
for pid in sys.argv[1:]:
    try:
        stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        rollup = {l.split(":")[0]: float(l.split()[1]) for l in open(f"/proc/{pid}/smaps_rollup") if l.split(":")[0] in ("Pss", "Rss")}
    except OSError:
        continue
    # Fields after the command: state is [0], utime [11], stime [12], starttime [19].
    cpu += (int(stat[11]) + int(stat[12])) / hz
    age += uptime - int(stat[19]) / hz
    pss += rollup.get("Pss", 0)
    rss += rollup.get("Rss", 0)
    n += 1
if n:
    print("  (%d boxes: CPU %.2f ms a second each on average since start, PSS %.1f MB each, RSS %.1f MB each)"
          % (n, 1000 * cpu / age, pss / n / 1024, rss / n / 1024))
else:
    print("  (no box running to measure)")
