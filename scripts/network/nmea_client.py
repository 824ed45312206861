#!/usr/bin/python3
"""A chartplotter's side of the box's NMEA 0183 output, for scripts/test-network.sh.

pynmea2 (Debian's python3-nmea2) does the framing, the checksum and the field split; it has
no alert sentences, so they are declared here with its own extension mechanism (a
TalkerSentence subclass per formatter), field names as Docs/network.md lays them out. It
prints one "ok:" or "FAILED:" line per check and exits 1 on any failure.

Usage: nmea_client.py BIN RUNTIME_DIR CONFIG BOX_PID TCP_PORT UDP_PORT
"""
import json, socket, subprocess, sys, time
import pynmea2
from pynmea2 import TalkerSentence


class ALF(TalkerSentence):
    fields = (("Total", "total"), ("Number", "sentence_num"), ("Message", "message"), ("Time", "time"),
              ("Category", "category"), ("Priority", "priority"), ("State", "state"),
              ("Manufacturer", "mnemonic"), ("Identifier", "alert_id"), ("Instance", "instance"),
              ("Revision", "revision"), ("Escalation", "escalation"), ("Text", "text"))


class ALC(TalkerSentence):
    fields = (("Total", "total"), ("Number", "sentence_num"), ("Message", "message"), ("Entries", "entries"))


class ALR(TalkerSentence):
    fields = (("Time", "time"), ("Number", "alarm_num"), ("Condition", "condition"),
              ("Acknowledged", "ack_state"), ("Text", "text"))


class HBT(TalkerSentence):
    fields = (("Interval", "interval"), ("Status", "status"), ("Sequence", "sequence"))


class ARC(TalkerSentence):
    fields = (("Time", "time"), ("Manufacturer", "mnemonic"), ("Identifier", "alert_id"),
              ("Instance", "instance"), ("Command", "command"))


BIN, RUN, CONF, PID, PORT, UDP = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
failed = 0


def check(what, cond):
    global failed
    print(("  ok: " if cond else "  FAILED: ") + what)
    if not cond:
        failed += 1


def status():
    out = subprocess.run([BIN, "status", "--json", "--runtime-dir", RUN, "--config", CONF], capture_output=True, text=True)
    return json.loads(out.stdout)["status"] if out.stdout else {}


class Stream:
    """Lines from the TCP port, each parsed by pynmea2 with the checksum required."""

    def __init__(self, sock):
        self.sock, self.buf, self.lines, self.bad = sock, b"", [], []

    def pump(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.sock.settimeout(max(0.01, end - time.monotonic()))
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                break
            if not data:
                break
            self.buf += data
            while b"\r\n" in self.buf:
                raw, self.buf = self.buf.split(b"\r\n", 1)
                line = raw.decode("ascii")
                try:
                    msg = pynmea2.parse(line, check=True)
                except pynmea2.ParseError as e:
                    self.bad.append((line, str(e)))
                    continue
                if len(line) + 2 > 82:
                    self.bad.append((line, "longer than 82 characters"))
                self.lines.append((time.monotonic(), msg))

    def wait_for(self, pred, seconds):
        end = time.monotonic() + seconds
        seen = len(self.lines)
        while time.monotonic() < end:
            self.pump(0.2)
            for t, m in self.lines[seen:]:
                if pred(m):
                    return t, m
            seen = len(self.lines)
        return None, None


def nmea(body):
    return ("$%s*%02X\r\n" % (body, pynmea2.NMEASentence.checksum(body))).encode()


tcp = socket.create_connection(("127.0.0.1", PORT), timeout=3)
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
udp.bind(("127.0.0.1", UDP))
udp.settimeout(0.1)
s = Stream(tcp)

s.pump(0.5)
check("a new client hears the alert list at once (%d lines)" % len(s.lines),
      any(isinstance(m, ALC) for _, m in s.lines))

# Mark, arm: the simulated boat drags after 12 s.
for _ in range(40):
    if subprocess.run([BIN, "mark", "--runtime-dir", RUN, "--config", CONF], capture_output=True).returncode == 0:
        break
    time.sleep(0.5)
import os, signal
os.kill(PID, signal.SIGUSR1)
t_ring, alf = s.wait_for(lambda m: isinstance(m, ALF) and m.sentence_num == "1" and m.alert_id == "10001" and m.state == "V", 60)
check("the anchor alarm arrives as ALF, alarm priority, unacknowledged", alf is not None and alf.priority == "A")
if alf is None:
    print("  (box status: %s)" % status().get("alarm"))
    sys.exit(1)
episode = int(alf.instance)
st = status()
check("the ALF's instance is the ringing episode (%d, box says %s)" % (episode, st.get("alarm", {}).get("episode")),
      st.get("alarm", {}).get("episode") == episode)
after = [m for _, m in s.lines if _ >= t_ring]
s.pump(0.3)
after = [m for t, m in s.lines if t >= t_ring]
kinds = [type(m).__name__ for m in after[:4]]
check("ALF title and description, then ALR, then ALC (%s)" % kinds, kinds == ["ALF", "ALF", "ALR", "ALC"])
alr = next((m for m in after if isinstance(m, ALR)), None)
check("legacy ALR: alarm 001, threshold exceeded, not acknowledged",
      alr is not None and (alr.alarm_num, alr.condition, alr.ack_state) == ("001", "A", "V"))

# Repetition: with repeat_interval = 2 s, the same alert (same revision) every 2 s.
s.pump(6.5)
reps = [(t, m) for t, m in s.lines if t > t_ring + 0.5 and isinstance(m, ALF) and m.sentence_num == "1" and m.alert_id == "10001"]
gaps = [round(b[0] - a[0], 2) for a, b in zip(reps, reps[1:])]
check("ALF repeated while active: %d in 6.5 s, gaps %s s" % (len(reps), gaps),
      len(reps) >= 3 and all(1.5 <= g <= 2.6 for g in gaps))
# The drag goes on, so the description's distance grows: a repetition keeps the revision while
# its text is the same and takes the next one when the text changed (IEC 61162-1).
texts = [(m.revision, m.text) for t, m in s.lines if t > t_ring + 0.5 and isinstance(m, ALF) and m.sentence_num == "2"
         and m.alert_id == "10001"]
pairs = list(zip(texts, texts[1:]))
check("the revision changes exactly when the text does (%s)" % texts[:4],
      len(pairs) >= 2 and all((a[0] == b[0]) == (a[1] == b[1]) for a, b in pairs) and any(a[1] != b[1] for a, b in pairs))
beats = [t for t, m in s.lines if t > t_ring and isinstance(m, HBT)]
gaps = [round(b - a, 2) for a, b in zip(beats, beats[1:])]
check("HBT heartbeat every repetition (%d, gaps %s s)" % (len(beats), gaps), len(beats) >= 3 and all(1.5 <= g <= 2.6 for g in gaps))
lists = [m for t, m in s.lines if t > t_ring and isinstance(m, ALC)]
check("ALC lists the alert (%d lists)" % len(lists), len(lists) >= 3 and all(",10001,%d," % episode in str(m) for m in lists))

# UDP broadcast on the loopback interface carries the same sentences.
got = []
end = time.monotonic() + 3
while time.monotonic() < end and len(got) < 4:
    try:
        got.append(pynmea2.parse(udp.recv(2048).decode().strip(), check=True))
    except socket.timeout:
        pass
check("UDP datagrams parse with valid checksums (%d)" % len(got), len(got) >= 4)

# Noise and a wrong checksum change nothing.
tcp.sendall(b"hello\r\n" + b"$IIACN,,,10001,%d,A,C*00\r\n" % episode + b"x" * 500 + b"\r\n")
s.pump(1)
check("garbage and a bad checksum do not snooze", status().get("alarm", {}).get("state") == "ringing")

# ACN Q (request/repeat) for an alert that is not active: refused with ARC.
tcp.sendall(nmea("ECACN,,,10003,1,Q,C"))
_, arc = s.wait_for(lambda m: isinstance(m, ARC) and m.command == "Q", 3)
check("ACN Q for an inactive alert is refused with ARC (%s)" % arc, arc is not None and arc.alert_id == "10003")

# An ACN without its status flag C is not a command (IEC 61162-1): it must not snooze.
tcp.sendall(nmea("ECACN,,,10001,%d,A," % episode))
s.pump(1)
check("an ACN acknowledge without the status flag C does not snooze", status().get("alarm", {}).get("state") == "ringing")

# Forty commands in one write: every one answered (ACN O is refused with ARC), none lost.
t_flood = time.monotonic()
tcp.sendall(b"".join(nmea("ECACN,,,10001,%d,O,C" % episode) for _ in range(40)))
s.pump(2)
arcs = [m for t, m in s.lines if t >= t_flood and isinstance(m, ARC) and m.command == "O"]
check("40 ACN in one write get 40 ARC (%d)" % len(arcs), len(arcs) == 40)

# Operator acknowledges on the plotter: ACN acknowledge of this alert's instance.
last_rev = [m.revision for _, m in s.lines if isinstance(m, ALF) and m.sentence_num == "1" and m.alert_id == "10001"][-1]
tcp.sendall(nmea("ECACN,%s,,10001,%d,A,C" % (time.strftime("%H%M%S.00", time.gmtime()), episode)))
_, sil = s.wait_for(lambda m: isinstance(m, ALF) and m.sentence_num == "1" and m.alert_id == "10001" and m.state == "S", 5)
check("ACN acknowledge: the ALF says silenced, with a new revision",
      sil is not None and int(sil.revision) == int(last_rev) % 99 + 1)
st = status()
check("the box snoozed episode %d (alarm %s)" % (episode, st.get("alarm", {}).get("state")),
      st.get("alarm", {}).get("state") == "snoozed" and st.get("alarm", {}).get("episode") == episode)
tcp.sendall(nmea("ECACN,,,10001,%d,A,C" % episode))
_, arc = s.wait_for(lambda m: isinstance(m, ARC), 5)
check("a second acknowledgement of the same episode is refused with ARC",
      arc is not None and (arc.alert_id, arc.instance, arc.command) == ("10001", str(episode), "A"))

# The snooze (10 s here) ends with the boat still outside: a new episode; the legacy ACK
# (no episode of its own) answers the one the last ALR announced.
_, alf2 = s.wait_for(lambda m: isinstance(m, ALF) and m.sentence_num == "1" and m.alert_id == "10001" and m.state == "V"
                     and int(m.instance) != episode, 30)
check("after the snooze a new episode rings as a new instance", alf2 is not None)
if alf2 is not None:
    tcp.sendall(nmea("ECACK,001"))
    _, sil2 = s.wait_for(lambda m: isinstance(m, ALR) and m.alarm_num == "001" and m.ack_state == "A", 5)
    st = status()
    check("ACK 001 snoozes the new episode %s (alarm %s %s)" % (alf2.instance, st.get("alarm", {}).get("state"),
          st.get("alarm", {}).get("episode")),
          sil2 is not None and st.get("alarm", {}).get("state") == "snoozed"
          and st.get("alarm", {}).get("episode") == int(alf2.instance))

if alf2 is not None:
    between = [m for t, m in s.lines if isinstance(m, ALR) and m.alarm_num == "001"]
    conds = [(m.condition, m.ack_state) for m in between]
    check("as the snooze ends in a new episode, ALR 001 never reads V (normal) between (%s)" % conds[-6:],
          ("V", "A") not in conds)
titles = {m.text for _, m in s.lines if isinstance(m, ALF) and m.sentence_num == "1"}
check("ALF titles fit 16 characters (%s)" % sorted(titles), titles and all(len(x) <= 16 for x in titles))
texts = [m.text for _, m in s.lines if isinstance(m, (ALF, ALR))]
check("no text carries an escaped comma ^2C", all("^2C" not in x for x in texts))
check("every line parsed with a valid checksum (%d lines, bad: %s)" % (len(s.lines), s.bad[:2]), not s.bad)
rows = [r for r in status().get("checks", []) if r.get("component") == "nmea_out"]
check("the Systems Check shows the NMEA output (%s)" % (rows[0]["answer"] if rows else None),
      bool(rows) and rows[0]["status"] == "ok" and rows[0]["answer"].startswith("Yes: TCP port %d" % PORT))
sys.exit(1 if failed else 0)
