#!/usr/bin/python3
"""A box against large MQTT messages on a real mosquitto (Docs/network.md, "What may come in").

usage: mqtt_limits.py BIN WORKDIR

Starts Debian's mosquitto on a free loopback port (its default message_size_limit: about
256 MB) and two boxes, one with accept_commands off and one with it on. Publishes 50 MB on
each box's command topic and reads each box's peak RSS (VmHWM in /proc/PID/status) before
and after. A third box whose runtime directory can't be made (a path under a regular file)
must still publish its status. Prints "  ok: ..." or "  FAILED: ..." a check; exits 1 on any failure.
"""
import os
import re
import socket
import subprocess
import sys
import time

import mqttsub

BIN, WORK = sys.argv[1], sys.argv[2]
LIMIT_KB = 16 * 1024
failed = 0


def check(what, cond):
    global failed
    print("  %s: %s" % ("ok" if cond else "FAILED", what), flush=True)
    failed += 0 if cond else 1


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def peak_kb(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return -1


def replies(port, topic, count, seconds, send):
    """Subscribes to topic, runs send(), returns what arrived (up to count, within seconds)."""
    sub = mqttsub.start(mqttsub.args(port, [topic], count=count), seconds)
    time.sleep(0.5)
    send()
    return mqttsub.finish(sub)


def pub(port, topic, message=None, file=None):
    args = ["mosquitto_pub", "-p", str(port), "-t", topic, "-q", "1"]
    args += ["-f", file] if file else ["-m", message]
    subprocess.run(args, check=True, stderr=subprocess.DEVNULL, timeout=120)


os.makedirs(WORK, exist_ok=True)
port = free_port()
conf = os.path.join(WORK, "mosquitto.conf")
with open(conf, "w") as f:
    f.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n" % port)
broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", conf, "-v"], stdout=open(os.path.join(WORK, "mosquitto.log"), "w"),
                          stderr=subprocess.STDOUT)
boxes = {}
try:
    time.sleep(0.5)
    big = os.path.join(WORK, "50mb.bin")
    with open(big, "wb") as f:
        f.write(b"x" * (50 * 1000 * 1000))
    blocked = os.path.join(WORK, "not-a-directory")
    open(blocked, "w").close()
    for name, commands in (("quiet", "false"), ("crew", "true"), ("norun", "false")):
        c = os.path.join(WORK, name + ".conf")
        with open(c, "w") as f:
            f.write("[gpio]\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n[ring]\nenabled = false\n"
                    "[siren]\nenabled = false\n[mqtt]\nenabled = true\nport = %d\nbox = \"%s\"\naccept_commands = %s\n"
                    % (port, name, commands))
        boxes[name] = subprocess.Popen([BIN, "run", "--simulate", "hold", "--switch", "off", "--config", c,
                                        "--runtime-dir", os.path.join(blocked if name == "norun" else os.path.join(WORK, name), "run"),
                                        "--journal-dir", os.path.join(WORK, name, "journal")],
                                       stdout=open(os.path.join(WORK, name + ".out"), "w"), stderr=subprocess.STDOUT)
    # Both on the broker: each one's retained online.
    for _ in range(100):
        out = mqttsub.subscribe(port, ["anchor-alert/+/online"], 1, verbose=True)
        if out.count(" online") >= 3:
            break
    status = mqttsub.subscribe(port, ["anchor-alert/norun/status"], 5, count=1)
    check("a box whose runtime directory can't be made still publishes its status (%s)" % status.strip()[:60].replace("\n", " "),
          '"verdict"' in status)
    said = open(os.path.join(WORK, "norun.out")).read()
    check("and says why the status file is missing", "Status: can't write in" in said)
    for name in ("quiet", "crew"):
        before = peak_kb(boxes[name].pid)
        pub(port, "anchor-alert/%s/command" % name, file=big)
        time.sleep(2)
        after = peak_kb(boxes[name].pid)
        check("a 50 MB publish on %s's command topic leaves its peak RSS under 16 MB (%.1f MB before, %.1f MB after)"
              % (name, before / 1024, after / 1024), 0 < after < LIMIT_KB)
        check("%s still runs" % name, boxes[name].poll() is None)
    before = peak_kb(boxes["quiet"].pid)
    pub(port, "anchor-alert/quiet/identity", file=big)
    time.sleep(2)
    after = peak_kb(boxes["quiet"].pid)
    check("a 50 MB publish on quiet's identity topic leaves its peak RSS under 16 MB (%.1f MB after)" % (after / 1024),
          0 < after < LIMIT_KB and boxes["quiet"].poll() is None)
    out = replies(port, "anchor-alert/quiet/reply", 1, 3,
                  lambda: pub(port, "anchor-alert/quiet/command", '{"id":"q1","decision":"radius","meters":45}'))
    check("a box with accept_commands off does not listen: no reply (%r)" % out.strip()[:80], out.strip() == "")
    log = open(os.path.join(WORK, "mosquitto.log")).read()
    # mosquitto -v logs each SUBSCRIBE's topics on the lines after it. The quiet box reads
    # only its identity (two boxes of one name, Docs/network.md), a packet of 4 KB at most.
    subs = re.findall(r"Received SUBSCRIBE from (\S+)\n((?:.*\t.*\(QoS.*\n)*)", log)
    quiet = [t for c, ts in subs if c == "anchor-alert-quiet" for t in re.findall(r"\t(\S+) \(QoS", ts)]
    check("the quiet box subscribed to its identity only (%s)" % quiet, quiet == ["anchor-alert/quiet/identity"])
    check("the crew's box subscribed to its command topic", "Received SUBSCRIBE from anchor-alert-crew" in log)
    check("the crew's box speaks MQTT 5 (so its CONNECT can carry a Maximum Packet Size)",
          "as anchor-alert-crew (p5," in log)
    out = replies(port, "anchor-alert/crew/reply", 2, 5, lambda: (
        pub(port, "anchor-alert/crew/command", '{"id":"l1","decision":"release","pad":"%s"}' % ("p" * 2000)),
        pub(port, "anchor-alert/crew/command", '{"id":"c1","decision":"radius","meters":45}')))
    check("a request of 2 KB is answered too_long (%s)" % out.strip().replace("\n", " | ")[:160],
          '"too_long"' in out)
    check("and the next request answered", '"id":"c1"' in out)
finally:
    for p in boxes.values():
        p.terminate()
    broker.terminate()
    for p in list(boxes.values()) + [broker]:
        try:
            p.wait(30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            check("pid %d ended within 30 s of SIGTERM" % p.pid, False)
sys.exit(1 if failed else 0)
