#!/usr/bin/python3
"""A simulated USB receiver for the boot test: gpsd reads /dev/gps-sim, a pseudo-terminal whose
other side this program writes, one fix per second in real time.

The fixes are a recorded departure (avnav's leaving-berth capture: RMC at 1 Hz), restamped with
today's date and time so the box's clock check is satisfied. The recording has RMC only; gpsd
would call that a 2D fix, which the watch rightly refuses to judge by, so each epoch also gets
the GGA and GSA a real receiver sends with it (3D fix, 8 satellites, HDOP 0.9).

Phases, chosen by files so the test runner can drive them and a reboot can resume:
  /var/lib/anchor-test/after-reset exists: hold the recording's last fix (where the boat ended)
  /run/anchor-test/go exists:              play the departure from DEPART on, then hold the end
  otherwise:                               moored: play the fixes before DEPART back and forth
"""
import os
import sys
import time

DEPART = 420        # seconds into the recording: the boat leaves about 120 s after this
MOORED_FROM = 300   # the moored stretch replayed while waiting for the test to mark and arm
LINK = "/dev/gps-sim"


def checksum(body):
    c = 0
    for ch in body.encode():
        c ^= ch
    return "%02X" % c


def sentence(body):
    return "$%s*%s\r\n" % (body, checksum(body))


def epochs(path):
    """(lat, latH, lon, lonH, sog, cog) of each RMC with a valid fix, in order."""
    out = []
    with open(path) as f:
        for line in f:
            if not line.startswith("$GPRMC"):
                continue
            p = line.split("*")[0].split(",")
            if len(p) >= 10 and p[2] == "A":
                out.append((p[3], p[4], p[5], p[6], p[7] or "0.0", p[8] or "0.0"))
    return out


def render(e, now):
    lat, lath, lon, lonh, sog, cog = e
    t = time.gmtime(now)
    hms = time.strftime("%H%M%S", t) + ".00"
    date = time.strftime("%d%m%y", t)
    return "".join([
        sentence("GPGGA,%s,%s,%s,%s,%s,1,08,0.9,2.0,M,40.0,M,," % (hms, lat, lath, lon, lonh)),
        sentence("GPGSA,A,3,02,05,07,09,13,16,20,30,,,,,1.6,0.9,1.3"),
        sentence("GPRMC,%s,A,%s,%s,%s,%s,%s,%s,%s,,,A" % (hms, lat, lath, lon, lonh, sog, cog, date)),
    ])


def main():
    fixes = epochs(sys.argv[1])
    if len(fixes) <= DEPART:
        sys.exit("gps-feeder: recording too short")
    master, slave = os.openpty()
    # The slave stays open here too, so gpsd closing and reopening it never hangs the line up.
    name = os.ttyname(slave)
    os.chmod(name, 0o660)
    try:
        os.unlink(LINK)
    except FileNotFoundError:
        pass
    os.symlink(name, LINK)
    os.set_blocking(master, False)
    print("gps-feeder: %d fixes on %s -> %s" % (len(fixes), LINK, name), flush=True)

    moored = list(range(MOORED_FROM, DEPART)) + list(range(DEPART - 1, MOORED_FROM, -1))
    i_moored, i_depart = 0, DEPART
    phase = None
    next_t = time.monotonic()
    while True:
        if os.path.exists("/var/lib/anchor-test/after-reset"):
            now_phase, e = "hold", fixes[-1]
        elif os.path.exists("/run/anchor-test/go"):
            now_phase = "depart" if i_depart < len(fixes) else "hold"
            e = fixes[min(i_depart, len(fixes) - 1)]
            i_depart += 1
        else:
            now_phase, e = "moored", fixes[moored[i_moored % len(moored)]]
            i_moored += 1
        if now_phase != phase:
            print("gps-feeder: %s" % now_phase, flush=True)
            phase = now_phase
        try:
            os.write(master, render(e, time.time()).encode())
        except BlockingIOError:
            pass  # nobody reading (gpsd not started yet): drop the epoch, as a receiver would
        next_t += 1.0
        time.sleep(max(0.0, next_t - time.monotonic()))


main()
