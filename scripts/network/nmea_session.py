#!/usr/bin/python3
"""What a plotter on the NMEA port is sent through a drag: prints each line with what pynmea2's
own sentence classes make of it (the class, or the error), as Docs/network.md shows.

    scripts/network/nmea_session.py BIN WORKDIR [SECONDS]

Runs `BIN run --simulate drag --speed 10` with [nmea] on loopback (repeat 5 s, a short
evidence rule), marks and arms it, connects as a plotter and reads for SECONDS (30). A
listing for the documentation, not a test: nothing is asserted (nmea_client.py and
plotter_waypoint.py are the tests).
"""
import os
import signal
import socket
import subprocess
import sys
import time

import pynmea2
from boxlog import said_port

BIN, WORK = sys.argv[1], sys.argv[2]
SECONDS = float(sys.argv[3]) if len(sys.argv) > 3 else 30
os.makedirs(WORK, exist_ok=True)
conf = os.path.join(WORK, "box.conf")
with open(conf, "w") as f:
    f.write("[runtime]\nstatus_interval = 2\n[gpio]\nbuzzer_enabled = false\n"
            "[watch]\nwindow = 4\nconfirmation = 2\nfastest = 2\n"
            "[nmea]\nenabled = true\nlisten = \"127.0.0.1\"\nport = 0\nrepeat_interval = 5\n")
run = os.path.join(WORK, "run")
out = open(os.path.join(WORK, "box.out"), "w")
box = subprocess.Popen([BIN, "run", "--simulate", "drag", "--speed", "10", "--switch", "off", "--config", conf,
                        "--runtime-dir", run, "--journal-dir", os.path.join(WORK, "journal")], stdout=out, stderr=out)
try:
    port = said_port(os.path.join(WORK, "box.out"), "NMEA")
    if port is None:
        sys.exit("nmea_session: the box never said its NMEA port")
    for _ in range(60):
        if subprocess.run([BIN, "mark", "--runtime-dir", run], capture_output=True).returncode == 0:
            break
        time.sleep(0.5)
    box.send_signal(signal.SIGUSR1)          # the simulated switch to ARM
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(0.5)
    data, end = b"", time.time() + SECONDS
    while time.time() < end:
        try:
            d = s.recv(4096)
        except socket.timeout:
            continue
        if not d:
            break
        data += d
    print("pynmea2 %s: the class its parse() gives each line, or its error" % getattr(pynmea2, "__version__", "?"))
    for line in data.decode("ascii", "replace").splitlines():
        try:
            verdict = type(pynmea2.parse(line, check=True)).__name__
        except pynmea2.ParseError as e:
            verdict = "%s (%s)" % (type(e).__name__, str(e.args[0]).rstrip(","))
        print("%-82s %s" % (line, verdict))
finally:
    box.terminate()
    box.wait()
