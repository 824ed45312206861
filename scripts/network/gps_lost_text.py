#!/usr/bin/python3
"""The GPS-lost text as the network's clients read it, for scripts/test-network.sh.

usage: gps_lost_text.py BIN WORKDIR

One box with NMEA 0183 (TCP) and Signal K on: a recorded log of 10 s of fixes, then only
no-fix reports. The box is marked and armed while the fixes last; five seconds (gps_grace)
after them the GPS fault is raised. A plotter (pynmea2 on the TCP port, the alert sentences
declared with its TalkerSentence as nmea_client.py does) and a Signal K server's TCP data
connection (one JSON delta a line) read what follows for about 12 s. Checked: the text's
m:ss grows with the time since the last fix (the time the client saw, less the text's, stays
put within 2.5 s), past the grace; in NMEA each new text is a new ALF revision; in Signal K
the message's time moves at most every 5 s.

Prints "  ok:"/"  FAILED:" lines; exits 1 on any failure.
"""
import json, os, re, select, signal, socket, subprocess, sys, time
import pynmea2
from pynmea2 import TalkerSentence
from boxlog import said_ports

BIN, WORK = sys.argv[1], sys.argv[2]
failed = 0
# Killed by the calling script's cleanup: still stop the box (the finally below).
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))


class ALF(TalkerSentence):
    fields = (("Total", "total"), ("Number", "sentence_num"), ("Message", "message"), ("Time", "time"),
              ("Category", "category"), ("Priority", "priority"), ("State", "state"),
              ("Manufacturer", "mnemonic"), ("Identifier", "alert_id"), ("Instance", "instance"),
              ("Revision", "revision"), ("Escalation", "escalation"), ("Text", "text"))


class ALR(TalkerSentence):
    fields = (("Time", "time"), ("Number", "alarm_num"), ("Condition", "condition"),
              ("Acknowledged", "ack_state"), ("Text", "text"))


def check(what, cond):
    global failed
    print("  %s: %s" % ("ok" if cond else "FAILED", what), flush=True)
    failed += 0 if cond else 1


MSS = re.compile(r" for (\d+):(\d\d)\b")


def seconds(text):
    m = MSS.search(text or "")
    return int(m.group(1)) * 60 + int(m.group(2)) if m else None


def steady(samples):
    """(client time, seconds the text says): the client time less the text's, spread."""
    offsets = [t - s for t, s in samples]
    return max(offsets) - min(offsets) if offsets else None


os.makedirs(WORK, exist_ok=True)
log = os.path.join(WORK, "lost.json")
with open(log, "w") as f:
    t0 = 1_700_000_000
    for i in range(60):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(t0 + i))
        if i < 10:
            f.write('{"class":"TPV","mode":3,"time":"%s","lat":54.3413,"lon":13.5065,"eph":4.0}\n' % stamp)
        else:
            f.write('{"class":"TPV","mode":1,"time":"%s"}\n' % stamp)
conf = os.path.join(WORK, "lost.conf")
with open(conf, "w") as f:
    f.write("[gpio]\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n[ring]\nenabled = false\n"
            "[siren]\nenabled = false\n[runtime]\nstatus_interval = 2\n[watch]\ngps_grace = 5\n"
            "[nmea]\nenabled = true\nlisten = \"127.0.0.1\"\nport = 0\nrepeat_interval = 2\n"
            "[signalk]\nenabled = true\nlisten = \"127.0.0.1\"\nport = 0\n")
run = os.path.join(WORK, "run")
out = os.path.join(WORK, "lost.out")
box = subprocess.Popen([BIN, "run", "--simulate", log, "--switch", "off", "--config", conf, "--runtime-dir", run,
                        "--journal-dir", os.path.join(WORK, "journal")], stdout=open(out, "w"), stderr=subprocess.STDOUT)
try:
    ports = said_ports(out, ("NMEA", "Signal K"))
    check("the box says where NMEA and Signal K go (%s)" % ports, len(ports) == 2)
    if len(ports) < 2:
        sys.exit(1)
    nmea = socket.create_connection(("127.0.0.1", ports["NMEA"]), timeout=5)
    sk = socket.create_connection(("127.0.0.1", ports["Signal K"]), timeout=5)
    marked = False
    for _ in range(30):
        r = subprocess.run([BIN, "mark", "--runtime-dir", run, "--config", conf], capture_output=True, text=True)
        if r.returncode == 0:
            marked = True
            break
        time.sleep(0.3)
    os.kill(box.pid, signal.SIGUSR1)
    check("marked and armed while the fixes last", marked)
    buffers = {nmea: b"", sk: b""}
    alf, alr, gnss = [], [], []  # (client time, revision or None, text)
    fields = []  # per ALF 2 and ALR read: its fields beyond the layout's (a comma in a text adds one)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        ready, _, _ = select.select([nmea, sk], [], [], 0.5)
        now = time.monotonic()
        for s in ready:
            chunk = s.recv(65536)
            if not chunk:
                end = 0
                continue
            buffers[s] += chunk
            while b"\n" in buffers[s]:
                line, buffers[s] = buffers[s].split(b"\n", 1)
                if s is nmea:
                    try:
                        msg = pynmea2.parse(line.decode("ascii").strip(), check=True)
                    except pynmea2.ParseError:
                        continue
                    if isinstance(msg, ALF) and msg.alert_id == "10002" and msg.instance == "1" and msg.sentence_num == "2":
                        alf.append((now, int(msg.revision), msg.text))
                        fields.append(len(msg.data) - len(ALF.fields))
                    elif isinstance(msg, ALR) and msg.alarm_num == "002" and msg.condition == "A":
                        alr.append((now, None, msg.text))
                        fields.append(len(msg.data) - len(ALR.fields))
                else:
                    for u in json.loads(line).get("updates", []):
                        for v in u.get("values", []):
                            if v.get("path") == "notifications.navigation.gnss" and (v.get("value") or {}).get("state") == "warn":
                                gnss.append((now, None, v["value"]["message"]))
        # Enough once the fault has been up about 12 s.
        if gnss and now - gnss[0][0] > 12:
            break
    nmea.close()
    sk.close()

    def report(name, rows):
        changes = [(t, seconds(x)) for i, (t, _, x) in enumerate(rows) if seconds(x) is not None and (i == 0 or x != rows[i - 1][2])]
        said = [s for _, s in changes]
        spread = steady(changes)
        check("%s: the GPS-lost text's time grows with the time since the last fix (%s; client time less text's within %s s)"
              % (name, ", ".join("%d:%02d" % divmod(s, 60) for s in said),
                 "%.1f" % spread if spread is not None else "?"),
              len(said) >= 3 and said == sorted(said) and len(set(said)) == len(said) and said[-1] >= 5 + 8
              and spread is not None and spread <= 2.5)
        return changes

    report("NMEA ALF", alf)
    revisions = [r for _, r, _ in alf]
    texts = [x for _, _, x in alf]
    check("NMEA ALF: each new text is a new revision (%s)" % revisions,
          all((texts[i] != texts[i - 1]) == (revisions[i] != revisions[i - 1]) for i in range(1, len(alf))) and len(alf) >= 3)
    report("NMEA ALR", alr)
    # The NMEA texts are the box's words (Signal K carries them whole, comma and all): no comma
    # in a text (it would be one field more, and a plotter's text would end there), and a text
    # too long for its sentence cut at a word, before a space or the semicolon a comma becomes,
    # never inside a word. Times differ between the two, so they are compared as T.
    def words(x):
        return re.sub(r"\d+:\d\d", "T", x.replace(",", ";"))
    whole = [words(m) for _, _, m in gnss]
    nmea_texts = [x for _, _, x in alf + alr]
    def fits(x):
        w = words(x)
        return any(f.startswith(w) and (len(w) == len(f) or f[len(w)] in " ;") for f in whole)
    bad = [x for x in nmea_texts if not fits(x)]
    cut = [x for x in nmea_texts if words(x) not in whole]
    check("NMEA ALF and ALR: the GPS-lost texts are the box's words with no comma, cut only at a word "
          "(%d texts, %d cut, e.g. %r of %r; bad %r; fields beyond the layout %s)"
          % (len(nmea_texts), len(cut), (cut or nmea_texts or [""])[-1], (gnss or [(0, 0, "")])[-1][2], bad[:1],
             sorted(set(fields))),
          nmea_texts and not bad and cut and set(fields) == {0} and any("," in m for _, _, m in gnss))
    changes = report("Signal K notifications.navigation.gnss", gnss)
    gaps = [b[0] - a[0] for a, b in zip(changes, changes[1:])]
    check("Signal K: the message's time moves at most every 5 s (gaps %s s)" % ", ".join("%.1f" % g for g in gaps),
          gaps and min(gaps) >= 4.5)
finally:
    box.terminate()
    box.wait()
sys.exit(1 if failed else 0)
