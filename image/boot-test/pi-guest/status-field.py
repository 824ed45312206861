#!/usr/bin/python3
"""Prints fields of `anchor-alert status --json` (read on stdin) for the Pi boot test's runner:
verdict, alarm state, alert radius, faults, one a line as NAME VALUE."""
import json
import sys

try:
    s = json.load(sys.stdin)
except ValueError as e:
    print("error not-json %s" % e)
    sys.exit(1)


def find(o, key):
    if isinstance(o, dict):
        if key in o:
            return o[key]
        for v in o.values():
            r = find(v, key)
            if r is not None:
                return r
    elif isinstance(o, list):
        for v in o:
            r = find(v, key)
            if r is not None:
                return r
    return None


alarm = s.get("alarm")
print("verdict %s" % find(s, "verdict"))
print("alarm %s" % (alarm.get("state") if isinstance(alarm, dict) else alarm))
print("radius %s" % s.get("alert_radius_m"))
print("faults %s" % "; ".join(f.get("says", "?") for f in s.get("faults") or []))
