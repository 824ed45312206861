#!/usr/bin/python3
"""A chartplotter's NMEA 0183 TCP server, for scripts/test-network.sh: serves the $GP sentences
of a recorded log to every client, one every 0.2 s, over and over, as a plotter or a WiFi
multiplexer serves its GPS on port 10110. Prints the port it listens on.

Usage: plotter_feed.py LOG
"""
import socket, sys, threading, time

lines = [l.strip() + "\r\n" for l in open(sys.argv[1], errors="replace") if l.startswith("$GP")]
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(4)
print(srv.getsockname()[1], flush=True)


def serve(conn):
    try:
        i = 0
        while True:
            conn.sendall(lines[i % len(lines)].encode())
            i += 1
            time.sleep(0.2)
    except OSError:
        conn.close()


while True:
    c, _ = srv.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
