#!/usr/bin/python3
"""Prints fields of `anchor-alert status --json` (read on stdin) for the Pi boot test's runner:
whether the box answers, verdict, alarm state, alert radius, faults, one a line as NAME VALUE."""
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


# `status --json` is {"box": ..., "last_heard": ..., "status": {...}}; the status is null
# while the box is not answering.
st = s.get("status") if isinstance(s, dict) else None
st = st if isinstance(st, dict) else {}
alarm = st.get("alarm")
print("box %s" % s.get("box"))
print("verdict %s" % find(st, "verdict"))
print("alarm %s" % (alarm.get("state") if isinstance(alarm, dict) else alarm))
print("radius %s" % st.get("alert_radius_m"))
print("faults %s" % "; ".join(f.get("says", "?") if isinstance(f, dict) else str(f) for f in st.get("faults") or []))
