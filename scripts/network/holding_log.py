#!/usr/bin/env python3
"""A holding boat as gpsd JSON (TPV), one report every STEP seconds for HOURS hours, starting
now (the first 12 a second apart): the fleet test's light boxes replay it with `anchor-alert run --simulate FILE`. The boat
swings a few meters about 54.3413 N 13.5065 E (the simulated boats' anchorage), with a fixed
seed, so every box holds. Usage: holding_log.py [STEP] [HOURS] > hold.jsonl"""
import datetime, json, math, random, sys

step = float(sys.argv[1]) if len(sys.argv) > 1 else 5
hours = float(sys.argv[2]) if len(sys.argv) > 2 else 2
rng = random.Random(16)
lat0, lon0 = 54.3413, 13.5065
start = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
# The first 12 readings a second apart, so a box can mark at once (a mark needs 3 readings
# within 10 s); then one every STEP seconds (the watch holds on 3 in its 20 s window).
times = [float(i) for i in range(12)] + [12 + i * step for i in range(int(hours * 3600 / step))]
for t in times:
    swing = 6 * math.sin(2 * math.pi * t / 600)          # meters east, a slow swing
    north, east = rng.gauss(0, 1.5), swing + rng.gauss(0, 1.5)
    lat = lat0 + north / 111_320
    lon = lon0 + east / (111_320 * math.cos(math.radians(lat0)))
    when = (start + datetime.timedelta(seconds=t)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    print(json.dumps({"class": "TPV", "mode": 3, "time": when, "lat": round(lat, 7), "lon": round(lon, 7),
                      "epx": 3.0, "epy": 3.0, "eph": 5.0, "speed": 0.1, "track": 0.0}))
