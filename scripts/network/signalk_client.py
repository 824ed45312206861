#!/usr/bin/python3
"""A Signal K server's side of the box's `[signalk]` output, for scripts/test-network.sh.

usage: signalk_client.py BIN WORKDIR

Connects as a Signal K server's "Signal K" data connection of type TCP does (a TCP client
that splits the stream into lines and parses each as JSON; signalk-server's
packages/streams/src/simple.ts, liner.ts, from_json.ts) to two boxes: one on a simulated
boat that is marked, armed, drags, rings and is snoozed; one whose gpsd is not there (the GPS
fault). Every delta is checked:

- against the fields the Signal K specification documents (DOCUMENTED below, from
  schemas/delta.json, schemas/definitions.json, schemas/groups/notifications.json and
  schemas/groups/navigation.json of the specification), always;
- against the specification's JSON schemas themselves (python3-jsonschema), when
  SIGNALK_SCHEMAS names a directory holding the specification's `schemas/` folder: the delta
  by delta.json, and the full model each delta makes by signalk.json. The schemas are not
  shipped with this project, and nothing fetches them: without SIGNALK_SCHEMAS that part is
  said not to have run;
- through the specification's own delta parser, FullSignalK (signalk_fullsignalk.js, with
  node and Debian's node-lodash and node-debug), when that directory also holds the
  specification's `src/`: every delta applied in order, each value then the model's.

Prints "  ok:"/"  FAILED:" lines; exits 1 on any failure.
"""
import json, os, re, signal, socket, subprocess, sys, time
from boxlog import said_port

BIN, WORK = sys.argv[1], sys.argv[2]
failed = 0

# From the specification: alarmState and alarmMethodEnum (definitions.json), the timestamp's
# pattern (RFC 3339, UTC, ending in Z), the notification's required fields.
STATES = {"nominal", "normal", "alert", "warn", "alarm", "emergency"}
METHODS = {"visual", "sound"}
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
PATHS = {"navigation.anchor.position", "navigation.anchor.maxRadius", "navigation.anchor.currentRadius",
         "notifications.navigation.anchor", "notifications.navigation.gnss"}


def check(what, cond):
    global failed
    print("  %s: %s" % ("ok" if cond else "FAILED", what), flush=True)
    failed += 0 if cond else 1


def documented(delta):
    """What is wrong with one delta by the documented fields; empty when nothing."""
    bad = []
    if not isinstance(delta.get("context", ""), str):
        bad.append("context not a string")
    updates = delta.get("updates")
    if not isinstance(updates, list) or not updates:
        return bad + ["no updates"]
    for u in updates:
        if ("source" in u) == ("$source" in u):
            bad.append("an update needs source or $source, not both")
        if "source" in u and not isinstance(u["source"].get("label"), str):
            bad.append("source without a label")
        if not TIMESTAMP.match(u.get("timestamp", "")):
            bad.append("timestamp %r" % u.get("timestamp"))
        if set(u) - {"source", "$source", "timestamp", "values", "meta"}:
            bad.append("extra keys %s" % sorted(set(u) - {"source", "$source", "timestamp", "values"}))
        for v in u.get("values", []):
            path, value = v.get("path"), v.get("value", "<missing>")
            if path not in PATHS:
                bad.append("path %r" % path)
            elif value is None:
                if path.startswith("notifications."):
                    bad.append("%s null" % path)
            elif path.startswith("notifications."):
                if not (isinstance(value, dict) and value.get("state") in STATES and isinstance(value.get("method"), list)
                        and set(value["method"]) <= METHODS and isinstance(value.get("message"), str)):
                    bad.append("%s %r" % (path, value))
            elif path == "navigation.anchor.position":
                if not (isinstance(value.get("latitude"), float) and -90 <= value["latitude"] <= 90
                        and isinstance(value.get("longitude"), float) and -180 <= value["longitude"] <= 180):
                    bad.append("position %r" % value)
            elif not (isinstance(value, (int, float)) and value >= 0):
                bad.append("%s %r (meters)" % (path, value))
    return bad


SPEC = os.environ.get("SIGNALK_SCHEMAS")
validators = None
if SPEC:
    import jsonschema

    store = {}
    for root, _, files in os.walk(SPEC):
        for name in files:
            if name.endswith(".json"):
                s = json.load(open(os.path.join(root, name)))
                if "id" in s:
                    store[s["id"].rstrip("#")] = s

    def validator(name):
        schema = json.load(open(os.path.join(SPEC, "schemas", name)))
        resolver = jsonschema.RefResolver(schema["id"], schema, store=store)
        return jsonschema.Draft4Validator(schema, resolver=resolver)

    validators = (validator("delta.json"), validator("signalk.json"))


def full_model(delta):
    """The full Signal K model a delta makes (its non-null values), as the specification
    defines it: each value under its path with its timestamp and $source."""
    uuid = "urn:mrn:signalk:uuid:c0d79334-4e25-4245-8892-54e8ccc8021d"
    vessel = {"uuid": uuid}  # a vessel needs one of mmsi, url, uuid (vessel.json)
    for u in delta["updates"]:
        for v in u["values"]:
            if v["value"] is None:
                continue
            node = vessel
            parts = v["path"].split(".")
            for p in parts[:-1]:
                node = node.setdefault(p, {})
            node[parts[-1]] = {"value": v["value"], "timestamp": u["timestamp"], "$source": "anchor-alert.signalk"}
    return {"version": "1.5.1", "self": "vessels." + uuid, "vessels": {uuid: vessel},
            "sources": {"anchor-alert": {"label": "anchor-alert", "type": "signalk"}}}


schema_errors = []
problems = []
raw_lines = []  # every delta line read, in order, for the specification's parser


def through_fullsignalk():
    """Every delta read, in order, through the specification's FullSignalK (node, with
    Debian's node-lodash and node-debug): what signalk_fullsignalk.js says, or None when
    SIGNALK_SCHEMAS holds no src/fullsignalk.js or node is missing."""
    if not SPEC or not os.path.exists(os.path.join(SPEC, "src", "fullsignalk.js")) or not os.path.exists("/usr/bin/node"):
        return None
    here = os.path.dirname(os.path.abspath(__file__))
    r = subprocess.run(["/usr/bin/node", os.path.join(here, "signalk_fullsignalk.js"), SPEC], input=b"\n".join(raw_lines) + b"\n",
                       capture_output=True, env=dict(os.environ, NODE_PATH="/usr/share/nodejs"))
    try:
        return json.loads(r.stdout.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"applied": 0, "problems": ["node exited %d: %s" % (r.returncode, r.stderr.decode()[-300:])]}


def against_spec(delta):
    if not validators:
        return
    for v, doc in ((validators[0], delta), (validators[1], full_model(delta))):
        for e in v.iter_errors(doc):
            schema_errors.append("%s: %s" % (list(e.absolute_path), e.message[:200]))


class Server:
    """The server's side: lines from the box's port, each parsed as JSON."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=3)
        self.buf, self.deltas = b"", []

    def pump(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.sock.settimeout(max(0.01, end - time.monotonic()))
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                break
            if not data:
                break
            self.buf += data
            while b"\n" in self.buf:
                raw, self.buf = self.buf.split(b"\n", 1)
                if len(raw) > 2048:
                    problems.append("a line of %d bytes (the server's liner drops lines over 2048)" % len(raw))
                try:
                    d = json.loads(raw)
                except ValueError as e:
                    problems.append("not JSON: %s" % e)
                    continue
                problems.extend(documented(d))
                against_spec(d)
                raw_lines.append(raw)
                self.deltas.append((time.monotonic(), d))

    def wait_for(self, pred, seconds):
        end = time.monotonic() + seconds
        seen = 0
        while time.monotonic() < end:
            self.pump(0.3)
            for t, d in self.deltas[seen:]:
                if pred(d):
                    return d
            seen = len(self.deltas)
        return None


def values(d):
    return {v["path"]: v["value"] for u in d["updates"] for v in u["values"]}


def notification(path, state, method=None):
    def pred(d):
        v = values(d).get(path)
        return isinstance(v, dict) and v.get("state") == state and (method is None or v.get("method") == method)
    return pred


def start_box(name, extra, simulate):
    c = os.path.join(WORK, name + ".conf")
    with open(c, "w") as f:
        f.write("[gpio]\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n[ring]\nenabled = false\n"
                "[siren]\nenabled = false\n[runtime]\nstatus_interval = 2\n%s[signalk]\nenabled = true\nlisten = \"127.0.0.1\"\n"
                "port = 0\n" % extra)
    out = os.path.join(WORK, name + ".out")
    args = [BIN, "run", "--switch", "off", "--config", c, "--runtime-dir", os.path.join(WORK, name, "run"),
            "--journal-dir", os.path.join(WORK, name, "journal")] + simulate
    p = subprocess.Popen(args, stdout=open(out, "w"), stderr=subprocess.STDOUT)
    port = said_port(out, "Signal K")
    return p, c, os.path.join(WORK, name, "run"), port


def cli(*args):
    return subprocess.run([BIN] + list(args), capture_output=True, text=True)


os.makedirs(WORK, exist_ok=True)
boxes = []
try:
    box, conf, run, port = start_box("boat", "[watch]\nwindow = 4\nconfirmation = 2\nfastest = 2\nsnooze = 60\n",
                                     ["--simulate", "drag", "--speed", "10"])
    boxes.append(box)
    check("the box says where Signal K goes (port %s)" % port, port is not None)
    if port is None:
        sys.exit(1)
    s = Server(port)
    first = s.wait_for(lambda d: True, 10)
    v = values(first) if first else {}
    check("a server that connects is told the present at once: no anchor, the alarm normal (%s)"
          % v.get("notifications.navigation.anchor"),
          first is not None and v.get("navigation.anchor.position", 0) is None
          and (v.get("notifications.navigation.anchor") or {}).get("state") == "normal")
    check("the context is the server's own vessel (%s)" % (first or {}).get("context"),
          first is not None and first.get("context") == "vessels.self")
    for _ in range(40):
        if cli("mark", "--runtime-dir", run, "--config", conf).returncode == 0:
            break
        time.sleep(0.5)
    d = s.wait_for(lambda d: isinstance(values(d).get("navigation.anchor.position"), dict), 10)
    st = json.loads(cli("status", "--json", "--runtime-dir", run, "--config", conf).stdout)["status"]
    v = values(d) if d else {}
    pos = v.get("navigation.anchor.position") or {}
    check("marked: navigation.anchor.position is the box's anchor (%s, box %s)" % (pos, st.get("anchor")),
          st.get("anchor") is not None and abs(pos.get("latitude", 0) - st["anchor"]["lat"]) < 1e-6
          and abs(pos.get("longitude", 0) - st["anchor"]["lon"]) < 1e-6)
    check("marked: maxRadius is the alert radius (%s m, box %s m)" % (v.get("navigation.anchor.maxRadius"), st.get("alert_radius_m")),
          v.get("navigation.anchor.maxRadius") == st.get("alert_radius_m"))
    t0 = len(s.deltas)
    s.pump(4)
    radii = [(t, values(d)["navigation.anchor.currentRadius"]) for t, d in s.deltas[t0:]
             if "navigation.anchor.currentRadius" in values(d)]
    gaps = [b[0] - a[0] for a, b in zip(radii, radii[1:])]
    check("currentRadius follows the boat, at most once a second (%d in 4 s, shortest gap %.2f s)"
          % (len(radii), min(gaps) if gaps else -1),
          len(radii) >= 2 and all(isinstance(r, (int, float)) for _, r in radii) and min(gaps) > 0.8)
    os.kill(box.pid, signal.SIGUSR1)
    d = s.wait_for(notification("notifications.navigation.anchor", "alarm", ["visual", "sound"]), 90)
    check("ringing: notifications.navigation.anchor is an alarm with sound (%s)"
          % (values(d).get("notifications.navigation.anchor") if d else None), d is not None)
    t0 = len(s.deltas)
    s.pump(4)
    # The simulated boat gives 10 readings a second here (--speed 10), each a few decimeters on.
    check("while ringing and dragging, about one delta a second (%d in 4 s)" % (len(s.deltas) - t0),
          1 <= len(s.deltas) - t0 <= 6)
    r = cli("snooze", "--runtime-dir", run, "--config", conf)
    d = s.wait_for(notification("notifications.navigation.anchor", "alarm", ["visual"]), 15)
    check("snoozed: still an alarm, shown, without sound (%s; snooze exit %d)"
          % (values(d).get("notifications.navigation.anchor") if d else None, r.returncode), d is not None)
    noisy = socket.create_connection(("127.0.0.1", port), timeout=3)
    try:
        noisy.sendall(b"x" * 100000)
    except OSError:
        pass
    closed = False
    end = time.monotonic() + 5
    while time.monotonic() < end and not closed:
        try:
            closed = noisy.recv(65536) == b""
        except socket.timeout:
            break
        except OSError:
            closed = True
    noisy.close()
    s.pump(1.5)
    check("a client that sends 100 KB is dropped, and the server's connection goes on (%s)" % ("dropped" if closed else "kept"),
          closed and box.poll() is None and len(s.deltas) > 0)
    s.sock.close()
    box.terminate()
    box.wait()

    # No gpsd at the configured port: the GPS fault.
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    nogpsd = probe.getsockname()[1]
    probe.close()
    box, conf, run, port = start_box("nogps", "[gps]\nhost = \"127.0.0.1\"\nport = %d\n" % nogpsd, [])
    boxes.append(box)
    s = Server(port) if port else None
    d = s.wait_for(notification("notifications.navigation.gnss", "warn"), 30) if s else None
    check("no gpsd: notifications.navigation.gnss is a warning in the box's words (%s)"
          % (values(d).get("notifications.navigation.gnss") if d else None), d is not None)
    check("every delta has the documented fields (%d problems%s)" % (len(problems), ": " + "; ".join(problems[:3]) if problems else ""),
          not problems)
    if validators:
        check("every delta and the model it makes validate against the specification's schemas (%d errors%s)"
              % (len(schema_errors), ": " + "; ".join(schema_errors[:3]) if schema_errors else ""), not schema_errors)
    else:
        print("  (SIGNALK_SCHEMAS not set: checked against the documented fields only, not the specification's schemas)")
    parsed = through_fullsignalk()
    if parsed is not None:
        check("every delta through the specification's own parser (FullSignalK): %d of %d applied, each value in the model "
              "at its path with its timestamp and source (%d problems%s); the model ends with gnss %s"
              % (parsed["applied"], len(raw_lines), len(parsed["problems"]),
                 ": " + "; ".join(parsed["problems"][:3]) if parsed["problems"] else "", (parsed.get("gnss") or {}).get("state")),
              parsed["applied"] == len(raw_lines) > 0 and not parsed["problems"]
              and "anchor-alert" in parsed.get("sources", []) and (parsed.get("gnss") or {}).get("state") == "warn")
    elif SPEC:
        print("  (no src/fullsignalk.js in SIGNALK_SCHEMAS, or no node: the deltas did not go through the specification's parser)")
finally:
    for p in boxes:
        if p.poll() is None:
            p.terminate()
            p.wait()
sys.exit(1 if failed else 0)
