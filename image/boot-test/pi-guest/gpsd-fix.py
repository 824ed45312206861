#!/usr/bin/python3
"""Asks the card's gpsd (127.0.0.1:2947) which devices it reads and for a fix: prints
"device PATH DRIVER" per device and "fix MODE LAT LON" at the first TPV with a 2D or 3D fix.
Exit 0 once a fix came from a device, 1 after SECONDS without one."""
import json
import socket
import sys
import time

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60
end = time.monotonic() + seconds
s = socket.create_connection(("127.0.0.1", 2947), timeout=10)
s.sendall(b'?WATCH={"enable":true,"json":true};\n')
buf = b""
seen = set()
while time.monotonic() < end:
    try:
        chunk = s.recv(4096)
    except socket.timeout:
        continue
    if not chunk:
        break
    buf += chunk
    while b"\n" in buf:
        line, buf = buf.split(b"\n", 1)
        try:
            m = json.loads(line)
        except ValueError:
            continue
        devs = m.get("devices", []) if m.get("class") == "DEVICES" else [m] if m.get("class") == "DEVICE" else []
        for d in devs:
            key = (d.get("path"), d.get("driver"))
            if key not in seen:
                seen.add(key)
                print("device %s %s" % key, flush=True)
        if m.get("class") == "TPV" and m.get("mode", 0) >= 2 and "lat" in m:
            print("fix %d %.5f %.5f %s" % (m["mode"], m["lat"], m["lon"], m.get("device")), flush=True)
            sys.exit(0)
sys.exit(1)
