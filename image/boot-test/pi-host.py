#!/usr/bin/python3
"""The host side of the Pi boot test (pi-boot-test.sh): runs beside qemu-system-aarch64 -M raspi3b.

    pi-host.py RUN_DIR TIMEOUT_SECONDS

- Feeds NMEA (GGA, GSA, RMC once a second, stamped with the host's UTC) into the Pi's mini UART,
  the header's GPIO14/15, through QEMU's second serial port (RUN_DIR/gps.sock): a moored boat
  swinging a meter or two, then, once the runner says "DRAG-NOW", a boat dragging at 0.8 m/s
  (1.6 kn) to the north-east; after the reset it stays where the drag took it.
- Follows the guest console (RUN_DIR/console.log) for the runner's "PI-TEST" lines and prints
  them as they come.
- "PI-TEST LISTEN NAME SECONDS alarm|silent": reads the buzzer's GPIO17 level through QEMU
  (HMP "xp" of the BCM2835 GPIO block's GPLEV0 register at 0x3f200034, RUN_DIR/mon-gpio.sock)
  for SECONDS and says whether it played the alarm's rhythm (0.2 s on, 0.2 s off; three cycles
  of on under 0.4 s and off under 1 s, as buzzer-listen.py hears it on the twins).
- "PI-TEST RESET-NOW": system_reset on RUN_DIR/mon-ctl.sock (no shutdown).
Ends at the runner's "END" or at TIMEOUT; prints "host: N passed, M failed".
"""
import math
import os
import re
import socket
import sys
import threading
import time

run, timeout = sys.argv[1], float(sys.argv[2])
T0 = time.monotonic()
passed = failed = 0
phase = "moored"
drag_t0 = None
lock = threading.Lock()


def out(s):
    print("[+%ds] %s" % (time.monotonic() - T0, s), flush=True)


def result(good, what):
    global passed, failed
    with lock:
        if good:
            passed += 1
        else:
            failed += 1
    out(("PASS " if good else "FAIL ") + what)


# ------------------------------------------------------------------ the GPS on the UART
LAT0, LON0 = 54.50833, 10.22000       # the anchorage (degrees)


def nmea(body):
    c = 0
    for ch in body.encode():
        c ^= ch
    return "$%s*%02X\r\n" % (body, c)


def ddmm(v, lat):
    d = int(abs(v)); m = (abs(v) - d) * 60
    return ("%02d%07.4f" if lat else "%03d%07.4f") % (d, m), ("N" if v >= 0 else "S") if lat else ("E" if v >= 0 else "W")


def position(n):
    """(lat, lon, speed m/s, course) of the boat at epoch n."""
    if phase == "moored" or drag_t0 is None:
        north, east, sog = 1.5 * math.sin(n / 40.0), 1.0 * math.cos(n / 55.0), 0.05
    else:
        d = 0.8 * min(time.monotonic() - drag_t0, 400.0)
        north, east = d * math.cos(math.radians(45)), d * math.sin(math.radians(45))
        sog = 0.8 if time.monotonic() - drag_t0 < 400 else 0.05
    lat = LAT0 + north / 111320.0
    lon = LON0 + east / (111320.0 * math.cos(math.radians(LAT0)))
    return lat, lon, sog, 45.0


def drain(s):
    """Reads what the guest writes to the GPS (gpsd's probes): QEMU writes the UART's output to
    the socket and waits while it is full, and with it the whole machine (seen: 213,504 bytes
    unread, both monitors and the guest stalled)."""
    total = 0
    while True:
        try:
            b = s.recv(65536)
        except OSError:
            return
        if not b:
            return
        if total == 0:
            out("feeder: the guest wrote to the GPS: %r" % b[:80])
        total += len(b)


def feeder():
    for _ in range(600):
        try:
            s = socket.socket(socket.AF_UNIX); s.connect(os.path.join(run, "gps.sock")); break
        except OSError:
            time.sleep(0.5)
    else:
        out("feeder: no UART socket"); return
    threading.Thread(target=drain, args=(s,), daemon=True).start()
    n = 0
    while True:
        t = time.gmtime()
        hms, dmy = time.strftime("%H%M%S.00", t), time.strftime("%d%m%y", t)
        lat, lon, sog, cog = position(n)
        la, lah = ddmm(lat, True); lo, loh = ddmm(lon, False)
        b = nmea("GPGGA,%s,%s,%s,%s,%s,1,08,0.9,2.0,M,40.0,M,," % (hms, la, lah, lo, loh))
        b += nmea("GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.5,0.9,1.2")
        b += nmea("GPRMC,%s,A,%s,%s,%s,%s,%.1f,%.1f,%s,,,A" % (hms, la, lah, lo, loh, sog * 1.943844, cog, dmy))
        try:
            s.sendall(b.encode())
        except OSError as e:
            out("feeder: the UART closed after %d seconds (%s)" % (n, e)); return
        n += 1
        time.sleep(max(0.0, 1.0 - (time.time() % 1.0)))


# ------------------------------------------------------------------ QEMU's monitors
class Monitor:
    def __init__(self, name):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.connect(os.path.join(run, name))
        self.s.settimeout(10)
        self.buf = b""
        self.read_prompt()

    def read_prompt(self):
        while b"(qemu) " not in self.buf:
            self.buf += self.s.recv(4096)
        text, self.buf = self.buf.split(b"(qemu) ", 1)
        return text.decode(errors="replace")

    def cmd(self, c):
        self.s.sendall(c.encode() + b"\n")
        return self.read_prompt()


GPLEV0 = 0x3f200034
LEVEL = re.compile(r"3f200034:\s*0x([0-9a-f]+)")


def listen(mon, seconds, want):
    """Hears the buzzer's GPIO17 through QEMU; True when it heard what was wanted."""
    start = time.monotonic(); end = start + seconds
    last = since = None
    cycles = faults = long_on = edges = samples = 0
    highs = 0
    ons, offs = [], []
    heard_at = None
    while time.monotonic() < end:
        now = time.monotonic()
        m = LEVEL.search(mon.cmd("xp /1wx 0x%x" % GPLEV0))
        if not m:
            out("listen: the monitor said no level"); return False
        v = (int(m.group(1), 16) >> 17) & 1
        samples += 1; highs += v
        if last is not None and v != last:
            edges += 1
            if since is not None:
                held = now - since
                if last == 1:
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
        if cycles >= 3 and heard_at is None:
            heard_at = now - start
            if want == "alarm":
                break
        time.sleep(0.005)
    rate = samples / max(0.001, time.monotonic() - start)
    med = lambda xs: "%d ms" % (sorted(xs)[len(xs) // 2] * 1000) if xs else "none"
    what = ("alarm after %.1f s" % heard_at) if heard_at is not None else \
        ("the fault pattern (%d long beeps)" % faults if faults else "no alarm")
    out("  GPIO17 through QEMU: %s; %d samples (%.0f a second), %d edges, high %d%%, on median %s, off median %s"
        % (what, samples, rate, edges, 100 * highs // max(1, samples), med(ons), med(offs)))
    if rate < 10:
        out("  listen: under 10 samples a second, too slow to hear a 0.2 s beep")
        return False
    return (heard_at is not None) == (want == "alarm")


# ------------------------------------------------------------------ the console
def console_lines():
    path = os.path.join(run, "console.log")
    while not os.path.exists(path):
        time.sleep(0.5)
    f = open(path, "rb")
    buf = b""
    while True:
        chunk = f.read()
        if not chunk:
            yield None
            continue
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            yield re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", line.decode(errors="replace")).replace("\r", "")


threading.Thread(target=feeder, daemon=True).start()
gpio = None
seen_welcome = 0
for line in console_lines():
    if time.monotonic() - T0 > timeout:
        out("TIMEOUT after %d s" % timeout); result(False, "the run did not finish in %d s" % timeout); break
    if line is None:
        time.sleep(0.5); continue
    if "Welcome to Debian" in line:
        seen_welcome += 1
        out("console: systemd started (boot %d)" % seen_welcome)
    i = line.find("PI-TEST ")
    if i < 0:
        if re.search(r"(Dependency failed|Failed to start|Timed out waiting)", line):
            out("console: " + line.strip())
        continue
    msg = line[i + 8:].strip()
    out(msg)
    words = msg.split()
    if msg == "DRAG-NOW":
        phase, drag_t0 = "drag", time.monotonic()
    elif words[0] == "LISTEN" and len(words) == 4:
        try:
            gpio = gpio or Monitor("mon-gpio.sock")
            good = listen(gpio, float(words[2]), words[3])
        except OSError as e:
            out("listen: monitor: %s" % e); good = False
        result(good, "%s: the buzzer's GPIO17 %s (read through QEMU)" % (words[1],
               "plays the alarm" if words[3] == "alarm" else "does not play the alarm"))
    elif msg == "RESET-NOW":
        out("system_reset (no shutdown)")
        Monitor("mon-ctl.sock").cmd("system_reset")
    elif msg == "END":
        break
print("host: %d passed, %d failed" % (passed, failed), flush=True)
