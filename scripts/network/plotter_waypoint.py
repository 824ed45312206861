#!/usr/bin/python3
"""A plotter that reads no alert sentence, for scripts/test-network.sh: the anchor as WPL.

pynmea2 (Debian's python3-nmea2) parses each line with its own WPL class, checksum required.
Connects to a box whose anchor is marked, and checks that a new client is sent the mark as a
waypoint named ANCHOR at once, at the position `status --json` gives (within 0.5 m), and
again with each alert list (ALC) while it stays connected. Prints "  ok:"/"  FAILED:" lines;
exits 1 on any failure.

Usage: plotter_waypoint.py BIN RUNTIME_DIR CONFIG TCP_PORT REPEAT_SECONDS
"""
import json, math, socket, subprocess, sys, time
import pynmea2

BIN, RUN, CONF, PORT, REPEAT = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
failed = 0


def check(what, cond):
    global failed
    print(("  ok: " if cond else "  FAILED: ") + what)
    failed += 0 if cond else 1


def degrees(value, hemisphere, digits):
    d = float(value[:digits]) + float(value[digits:]) / 60
    return -d if hemisphere in ("S", "W") else d


def meters(a, b):
    dlat = math.radians(b[0] - a[0])
    dlon = math.radians(b[1] - a[1]) * math.cos(math.radians(a[0]))
    return 6371008.8 * math.hypot(dlat, dlon)


st = json.loads(subprocess.run([BIN, "status", "--json", "--runtime-dir", RUN, "--config", CONF],
                               capture_output=True, text=True).stdout)["status"]
anchor = st.get("anchor")
check("the box has an anchor marked (%s)" % anchor, anchor is not None)
sock = socket.create_connection(("127.0.0.1", PORT), timeout=3)
lines, buf, bad = [], b"", []
end = time.monotonic() + REPEAT * 2.5
while time.monotonic() < end:
    sock.settimeout(max(0.01, end - time.monotonic()))
    try:
        data = sock.recv(4096)
    except socket.timeout:
        break
    if not data:
        break
    buf += data
    while b"\r\n" in buf:
        raw, buf = buf.split(b"\r\n", 1)
        line = raw.decode("ascii")
        try:
            lines.append((time.monotonic(), line[3:6], pynmea2.parse(line, check=True)))
        except pynmea2.SentenceTypeError:
            # The alert sentences: pynmea2 has no class for them (this plotter reads none).
            if pynmea2.NMEASentence.checksum(line[1:-3]) == int(line[-2:], 16):
                lines.append((time.monotonic(), line[3:6], None))
            else:
                bad.append(line)
        except pynmea2.ParseError as e:
            bad.append(str(e))
sock.close()
check("every line parses with its checksum (%d bad)" % len(bad), not bad)
wpls = [(t, m) for t, _, m in lines if isinstance(m, pynmea2.types.talker.WPL)]
check("a new client is sent the mark as a waypoint named ANCHOR at once",
      bool(wpls) and wpls[0][0] - lines[0][0] < 0.5 and all(m.waypoint_id == "ANCHOR" for _, m in wpls))
if wpls and anchor:
    _, m = wpls[0]
    p = (degrees(m.lat, m.lat_dir, 2), degrees(m.lon, m.lon_dir, 3))
    off = meters((anchor["lat"], anchor["lon"]), p)
    check("the waypoint is where the box has the anchor (%.2f m off)" % off, off < 0.5)
alc = [t for t, kind, _ in lines if kind == "ALC"]
check("the waypoint goes out again with the alert lists (%d WPL, %d lists in %.1f s)" % (len(wpls), len(alc), REPEAT * 2.5),
      len(alc) >= 2 and len(wpls) >= len(alc) - 1)
sys.exit(1 if failed else 0)
