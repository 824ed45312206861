#!/usr/bin/env python3
"""What N running boxes cost, from /proc: CPU time (utime + stime) since each started and over
the next SECONDS seconds (the steady cost, without the start), and memory (PSS, each process's
fair share of the pages it shares with the others, and RSS). Usage: box_cost.py SECONDS PID...;
prints one line, a measurement, never a verdict."""
import os, sys, time

hz = os.sysconf("SC_CLK_TCK")


def sample(pids):
    out = {}
    for pid in pids:
        try:
            stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            mem = {l.split(":")[0]: float(l.split()[1]) for l in open(f"/proc/{pid}/smaps_rollup")
                   if l.split(":")[0] in ("Pss", "Rss")}
        except OSError:
            continue
        # After the command: state is [0], utime [11], stime [12], starttime [19].
        out[pid] = ((int(stat[11]) + int(stat[12])) / hz, int(stat[19]) / hz, mem.get("Pss", 0), mem.get("Rss", 0))
    return out


seconds = float(sys.argv[1])
first = sample(sys.argv[2:])
t0 = float(open("/proc/uptime").read().split()[0])
time.sleep(seconds)
t1 = float(open("/proc/uptime").read().split()[0])
second = sample(first.keys())
both = [p for p in first if p in second]
if both:
    n = len(both)
    since = sum(first[p][0] for p in both) / sum(t0 - first[p][1] for p in both)
    steady = sum(second[p][0] - first[p][0] for p in both) / (n * (t1 - t0))
    print("  (%d boxes: CPU %.2f ms a second each since start, %.2f ms a second each over %.0f s; PSS %.1f MB, RSS %.1f MB each)"
          % (n, 1000 * since, 1000 * steady, t1 - t0, sum(second[p][2] for p in both) / n / 1024,
             sum(second[p][3] for p in both) / n / 1024))
else:
    print("  (no box running to measure)")
