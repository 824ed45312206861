#!/usr/bin/python3
"""A plotter's TCP connection to the box's NMEA port, from a given source address.

    plotter-connect.py ADDRESS PORT SECONDS

The twin has no network but loopback, so a plotter "on the LAN" is an address outside
127.0.0.0/8 added to lo (as the alias lo:27, with the SIOCSIFADDR ioctl: the base root has no
iproute2) and used as both ends of the connection. The unit's IP filter judges the packets
by that address as it would a LAN plotter's. Prints "connected from ADDRESS" or "no connection
from ADDRESS within SECONDS s (why)"; exit 0 when connected, 1 when not, 2 on a usage or
setup error.
"""
import errno
import fcntl
import socket
import struct
import sys

SIOCSIFADDR, SIOCSIFNETMASK = 0x8916, 0x891C


def add_to_lo(address):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.bind((address, 0))          # already there
        return
    except OSError as e:
        if e.errno != errno.EADDRNOTAVAIL:
            raise
    for req, addr in ((SIOCSIFADDR, address), (SIOCSIFNETMASK, "255.255.255.255")):
        ifreq = struct.pack("16sH2s4s8x", b"lo:27", socket.AF_INET, b"\0\0", socket.inet_aton(addr))
        fcntl.ioctl(s.fileno(), req, ifreq)
    s.close()


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2].strip()); return 2
    address, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    try:
        add_to_lo(address)
    except OSError as e:
        print("can't put %s on lo (%s)" % (address, e)); return 2
    c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    c.settimeout(seconds)
    try:
        c.bind((address, 0))
        c.connect((address, port))
    except OSError as e:       # a dropped SYN times out; a closed port is refused
        print("no connection from %s within %g s (%s)" % (address, seconds, e or "timed out")); return 1
    finally:
        c.close()
    print("connected from %s" % address)
    return 0


sys.exit(main())
