#!/usr/bin/env python3
"""The NMEA TCP port against clients that don't read (Docs/network.md, "Clients"): idle
connections can't lock a new plotter out, a client that leaves what it was sent untaken is
dropped by time (not only once its buffers fill), and the kernel's backlog is above 8.
Prints "  ok: ..." / "  FAILED: ..." lines; exits 1 on any failure.
Usage: nmea_slots.py BIN DIR"""
import json, os, re, socket, subprocess, sys, time

import pynmea2
from boxlog import said_port

BIN, DIR = sys.argv[1], sys.argv[2]
os.makedirs(DIR, exist_ok=True)
failed = 0


def check(what, cond):
    global failed
    print(("  ok: " if cond else "  FAILED: ") + what)
    failed += 0 if cond else 1


class ALC(pynmea2.TalkerSentence):
    fields = (("Total sentences", "total"), ("Sentence number", "number"), ("Message id", "message"), ("Entries", "entries"))


conf = os.path.join(DIR, "slots.conf")
with open(conf, "w") as f:
    f.write('[gpio]\nbuzzer_enabled = false\n[runtime]\nstatus_interval = 1\n'
            '[nmea]\nenabled = true\nlisten = "127.0.0.1"\nport = 0\nmax_clients = 2\nrepeat_interval = 2\n')
out = open(os.path.join(DIR, "slots.out"), "w")
box = subprocess.Popen([BIN, "run", "--simulate", "hold", "--switch", "off", "--config", conf, "--runtime-dir", DIR + "/run",
                        "--journal-dir", DIR + "/journal"], stdout=out, stderr=subprocess.STDOUT)


def listening():
    s = subprocess.run([BIN, "status", "--json", "--runtime-dir", DIR + "/run"], capture_output=True, text=True).stdout
    try:
        row = [r["answer"] for r in json.loads(s)["status"]["checks"] if r["component"] == "nmea_out"][0]
    except (ValueError, KeyError, IndexError):
        return None
    m = re.search(r"(\d+) listening", row)
    return int(m.group(1)) if m else None


try:
    port = said_port(os.path.join(DIR, "slots.out"), "NMEA")
    check("the box listens (port %s)" % port, port is not None)
    if port is None:
        sys.exit(1)

    ss = subprocess.run(["ss", "-ltnH", "sport = :%d" % port], capture_output=True, text=True).stdout.split()
    backlog = int(ss[2]) if len(ss) > 2 else 0
    check("the listening socket's backlog is above 8 (%d, ss -ltn)" % backlog, backlog > 8)

    # Two connections that never read fill max_clients = 2; a plotter connecting then is let in.
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
    time.sleep(0.5)
    plotter = socket.create_connection(("127.0.0.1", port), timeout=3)
    got, buf, end = None, b"", time.monotonic() + 3
    while got is None and time.monotonic() < end:
        try:
            data = plotter.recv(4096)
        except socket.timeout:
            break
        if not data:
            break
        buf += data
        for line in buf.split(b"\r\n")[:-1]:
            try:
                msg = pynmea2.parse(line.decode("ascii"), check=True)
            except pynmea2.ParseError:
                continue
            if isinstance(msg, ALC):
                got = msg
    check("with max_clients = 2 held by idle connections, a new plotter is let in and reads ALC (%s)" % got, got is not None)

    # A client that asks (1200 ACN, each refused with ARC) and never reads: once its kernel
    # buffers are full the rest waits in the box, and the box drops it by time.
    stuck = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    stuck.connect(("127.0.0.1", port))
    body = b"ECACN,,,10002,1,O,C"
    line = b"$%s*%02X\r\n" % (body, pynmea2.NMEASentence.checksum(body.decode()))
    stuck.sendall(line * 1100)  # about what its kernel buffers and the box's hold
    time.sleep(1)
    stuck.sendall(line * 100)  # these replies wait in the box (a few kilobytes)
    t0 = time.monotonic()
    n = listening()
    while time.monotonic() < t0 + 20:
        n = listening()
        if n is not None and n < 2:
            break
        time.sleep(0.5)
    took = time.monotonic() - t0
    # Not at once (that would be its bytes), but within the 10 s limit and the poll's slack.
    check("a client that leaves its replies untaken is dropped by time, after 5 to 20 s (%.1f s; %s listening after)" % (took, n),
          n == 1 and 5 <= took < 20)
    plotter.settimeout(3)
    try:
        alive = len(plotter.recv(4096)) > 0
    except OSError:
        alive = False
    check("the plotter that reads stays connected", alive)
finally:
    box.terminate()
    box.wait()
sys.exit(1 if failed else 0)
