#!/usr/bin/python3
"""Home Assistant's side of the box's MQTT discovery, for scripts/test-network.sh.

usage: ha_discovery.py BIN WORKDIR

Starts Debian's mosquitto on a free loopback port and one box (`run --simulate drag`, commands
on, a short evidence rule) and reads the retained topics as Home Assistant would find them:
before a mark (no anchor), after a radius set through the discovered number entity, while
ringing, and after a snooze pressed on the discovered button while the boat still drags. Each
entity's templates are rendered the way Home Assistant's MQTT integration renders them
(Jinja2, `value_json` the parsed payload; an undefined name is an error here, where Home
Assistant logs a template warning). The configs are checked against the discovery fields
Home Assistant documents for each platform (DOCUMENTED below). With HA_PYTHON set to a Python
that has Home Assistant (and paho-mqtt, its MQTT integration's library), they are also
validated by Home Assistant's own schemas (ha_schema.py), and a real Home Assistant runs on the
same broker (ha_live.py): its entities' states are read at each step, the number and the
button are worked through its own services, and what it logged is checked for warnings.
Prints "  ok:"/"  FAILED:" lines; exits 1 on any failure.
"""
import json, os, select, signal, socket, subprocess, sys, time
import jinja2
import mqttsub

BIN, WORK = sys.argv[1], sys.argv[2]
BOX = "ha-test"
BASE = "anchor-alert/" + BOX
failed = 0

# The keys Home Assistant's MQTT documentation lists for each platform that the box uses
# (integrations/sensor.mqtt, binary_sensor.mqtt, device_tracker.mqtt, button.mqtt,
# number.mqtt), with the ones every entity shares; required ones first.
COMMON = {"name", "unique_id", "availability_topic", "payload_available", "payload_not_available",
          "device", "origin", "json_attributes_topic", "json_attributes_template", "icon", "qos",
          "entity_category", "enabled_by_default", "object_id", "value_template"}
DOCUMENTED = {
    "sensor": ({"state_topic"}, {"device_class", "unit_of_measurement", "state_class", "suggested_display_precision",
                                 "expire_after", "force_update"}),
    "binary_sensor": ({"state_topic"}, {"device_class", "payload_on", "payload_off", "expire_after", "off_delay"}),
    "device_tracker": (set(), {"state_topic", "source_type", "payload_home", "payload_not_home", "payload_reset"}),
    "button": ({"command_topic"}, {"payload_press", "device_class", "retain"}),
    "number": ({"command_topic"}, {"command_template", "state_topic", "min", "max", "step", "mode",
                                   "unit_of_measurement", "device_class", "retain", "payload_reset"}),
}


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


def retained(port):
    """Every retained message under the box's topics and discovery, as a dict."""
    out = mqttsub.subscribe(port, [BASE + "/#", "homeassistant/#"], 2, verbose=True)
    got = {}
    for line in out.splitlines():
        topic, _, payload = line.partition(" ")
        got[topic] = payload
    return got


def pub(port, topic, message):
    subprocess.run(["mosquitto_pub", "-p", str(port), "-t", topic, "-q", "1", "-m", message], check=True, timeout=30)


env = jinja2.Environment(undefined=jinja2.StrictUndefined)


def render(template, payload):
    """As Home Assistant's MQTT value templates: `value` the text, `value_json` its JSON."""
    try:
        value_json = json.loads(payload)
    except ValueError:
        value_json = None
    return env.from_string(template).render(value=payload, value_json=value_json).strip()


def state(topics, config):
    """What the entity's state renders to from the retained payload of its state topic."""
    payload = topics.get(config["state_topic"])
    if payload is None:
        return "<no payload>"
    try:
        return render(config.get("value_template", "{{ value }}"), payload)
    except jinja2.UndefinedError as e:
        return "<template warning: %s>" % e


def wait(port, pred, seconds):
    end = time.monotonic() + seconds
    topics = {}
    while time.monotonic() < end:
        topics = retained(port)
        try:
            if pred(topics):
                return topics
        except (KeyError, ValueError, TypeError):
            pass
        time.sleep(0.5)
    return topics


def attrs(topics):
    return json.loads(topics[BASE + "/attributes"])


class LiveHA:
    """A real Home Assistant on the broker (ha_live.py under HA_PYTHON)."""

    def __init__(self, python, port):
        self.p = subprocess.Popen([python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ha_live.py"),
                                   os.path.join(WORK, "ha-config"), str(port)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=open(os.path.join(WORK, "ha-live.err"), "w"), text=True)
        self.log = []

    def ask(self, line):
        # A Home Assistant that died, or gives no answer within 60 s, answers nothing: its checks
        # fail, and the end says why.
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
            if not select.select([self.p.stdout], [], [], 60)[0]:
                return ""
            return self.p.stdout.readline()
        except (BrokenPipeError, ValueError):
            return ""

    def states(self):
        out = json.loads(self.ask("dump") or "{}")
        self.log += out.get("log", [])
        return out.get("states", {})

    def wait(self, entity, pred, seconds):
        end = time.monotonic() + seconds
        s = {}
        while time.monotonic() < end and self.p.poll() is None:
            s = self.states()
            if entity in s and pred(s[entity]):
                return s
            time.sleep(0.5)
        return s

    def close(self):
        try:
            self.ask("quit")
        except (BrokenPipeError, ValueError):
            pass
        self.p.wait(30)


os.makedirs(WORK, exist_ok=True)
port = free_port()
conf = os.path.join(WORK, "mosquitto.conf")
with open(conf, "w") as f:
    f.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n" % port)
broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
box = None
live = None
try:
    time.sleep(0.5)
    if os.environ.get("HA_PYTHON"):
        live = LiveHA(os.environ["HA_PYTHON"], port)
    c = os.path.join(WORK, "box.conf")
    with open(c, "w") as f:
        f.write("[gpio]\nbuzzer_enabled = false\nswitch_enabled = false\nbutton_enabled = false\n[ring]\nenabled = false\n"
                "[siren]\nenabled = false\n[runtime]\nstatus_interval = 2\n[watch]\nwindow = 4\nconfirmation = 2\nfastest = 2\n"
                "snooze = 60\n[mqtt]\nenabled = true\nport = %d\nbox = \"%s\"\naccept_commands = true\n" % (port, BOX))
    run = os.path.join(WORK, "run")
    box = subprocess.Popen([BIN, "run", "--simulate", "drag", "--speed", "10", "--switch", "off", "--config", c,
                            "--runtime-dir", run, "--journal-dir", os.path.join(WORK, "journal")],
                           stdout=open(os.path.join(WORK, "box.out"), "w"), stderr=subprocess.STDOUT)
    version = subprocess.run([BIN, "--version"], capture_output=True, text=True, timeout=30).stdout.split()[-1]

    # No anchor marked yet.
    topics = wait(port, lambda t: BASE + "/position" in t and "latitude" in attrs(t), 30)
    configs = {k: json.loads(v) for k, v in topics.items() if k.startswith("homeassistant/") and v}
    with open(os.path.join(WORK, "configs.json"), "w") as f:
        json.dump(configs, f)
    by_object = {k.split("/")[3]: (k.split("/")[1], v) for k, v in configs.items()}
    check("discovery: position, alarm, distance, faults, boat tracker, snooze button, radius number (%s)"
          % sorted(by_object), sorted(by_object) == ["alarm", "boat", "distance", "faults", "position", "radius", "snooze"])
    for obj, (platform, cfg) in sorted(by_object.items()):
        required, optional = DOCUMENTED[platform]
        unknown = set(cfg) - required - optional - COMMON
        missing = required - set(cfg)
        check("%s %s: only documented fields (unknown %s, missing %s)" % (platform, obj, sorted(unknown), sorted(missing)),
              not unknown and not missing)
        check("%s %s: sw_version %s and origin in discovery" % (platform, obj, cfg["device"].get("sw_version")),
              cfg["device"].get("sw_version") == version and cfg.get("origin", {}).get("name") == "anchor-alert"
              and cfg["origin"].get("sw_version") == version)
    distance = by_object["distance"][1]
    check("distance: state_class measurement, shown to %s decimals" % distance.get("suggested_display_precision"),
          distance.get("state_class") == "measurement" and distance.get("suggested_display_precision") == 0)
    check("no anchor: the distance reads unknown without a template warning (%s)" % state(topics, distance),
          state(topics, distance) == "None")
    alarm = by_object["alarm"][1]
    check("no anchor: the alarm reads safe (%s)" % state(topics, alarm), state(topics, alarm) == "OFF")
    a = attrs(topics)
    check("the boat tracker's attributes carry latitude, longitude and gps_accuracy (%s)"
          % {k: a.get(k) for k in ("latitude", "longitude", "gps_accuracy")},
          isinstance(a.get("latitude"), float) and isinstance(a.get("longitude"), float)
          and isinstance(a.get("gps_accuracy"), (int, float)))
    check("the attributes carry accuracy and age (%s m, %s s)" % (a.get("accuracy_m"), a.get("reading_age_s")),
          "accuracy_m" in a and "reading_age_s" in a)
    for obj in ("position", "faults"):
        cfg = by_object[obj][1]
        check("%s renders without a template warning (%s)" % (obj, state(topics, cfg)), not state(topics, cfg).startswith("<"))
    E = {"distance": "sensor.anchor_alert_ha_test_distance_to_anchor", "alarm": "binary_sensor.anchor_alert_ha_test_alarm",
         "boat": "device_tracker.anchor_alert_ha_test_boat", "position": "sensor.anchor_alert_ha_test_position",
         "faults": "binary_sensor.anchor_alert_ha_test_faults", "snooze": "button.anchor_alert_ha_test_snooze",
         "radius": "number.anchor_alert_ha_test_alert_radius"}
    if live:
        s = live.wait(E["boat"], lambda e: "latitude" in e["attributes"], 120)
        check("Home Assistant: every entity is there (%s)" % sorted(s), all(e in s for e in E.values()))
        check("Home Assistant: no anchor, the distance reads %s" % s.get(E["distance"], {}).get("state"),
              s.get(E["distance"], {}).get("state") == "unknown")
        check("Home Assistant: no anchor, the alarm reads %s" % s.get(E["alarm"], {}).get("state"),
              s.get(E["alarm"], {}).get("state") == "off")
        b = s.get(E["boat"], {}).get("attributes", {})
        check("Home Assistant: the boat on the map at %s, %s (accuracy %s m)" % (b.get("latitude"), b.get("longitude"), b.get("gps_accuracy")),
              isinstance(b.get("latitude"), float) and isinstance(b.get("longitude"), float) and b.get("source_type") == "gps")

    # The alert radius from the number entity, as Home Assistant sends it.
    for _ in range(30):
        if subprocess.run([BIN, "mark", "--runtime-dir", run, "--config", c], capture_output=True, timeout=30).returncode == 0:
            break
        time.sleep(0.5)
    number = by_object["radius"][1]
    if live:
        live.ask("set %s 45" % E["radius"])
    else:
        pub(port, number["command_topic"], env.from_string(number["command_template"]).render(value=45))
    topics = wait(port, lambda t: state(t, number) == "45", 20)
    check("the radius number sets the alert radius (reads %s)" % state(topics, number), state(topics, number) == "45")
    check("marked: the distance is a number (%s)" % state(topics, distance),
          state(topics, distance).replace(".", "", 1).isdigit())

    # Armed; the simulated boat drags and the alarm rings.
    os.kill(box.pid, signal.SIGUSR1)
    topics = wait(port, lambda t: attrs(t)["alarm"] == "ringing", 90)
    a = attrs(topics)
    check("ringing: the alarm reads unsafe (%s, episode %s)" % (state(topics, alarm), a.get("episode")),
          state(topics, alarm) == "ON" and isinstance(a.get("episode"), int))
    if live:
        s = live.wait(E["alarm"], lambda e: e["state"] == "on", 20)
        check("Home Assistant: ringing, the alarm reads %s" % s.get(E["alarm"], {}).get("state"), s.get(E["alarm"], {}).get("state") == "on")
        d = s.get(E["distance"], {})
        check("Home Assistant: the distance %s %s, state_class %s" % (d.get("state"), d.get("attributes", {}).get("unit_of_measurement"),
                                                                      d.get("attributes", {}).get("state_class")),
              d.get("state", "x").replace(".", "", 1).isdigit() and d.get("attributes", {}).get("state_class") == "measurement")
        r = s.get(E["radius"], {})
        check("Home Assistant: the radius number reads %s" % r.get("state"), r.get("state", "").replace(".0", "") == "45")

    # The snooze button, pressed while the boat drags: silenced, and still unsafe.
    button = by_object["snooze"][1]
    if live:
        live.ask("press %s" % E["snooze"])
    else:
        pub(port, button["command_topic"], button["payload_press"])
    topics = wait(port, lambda t: attrs(t)["alarm"] == "snoozed", 20)
    a = attrs(topics)
    check("the snooze button snoozes the ringing episode (alarm %s, episode %s)" % (a.get("alarm"), a.get("episode")),
          a.get("alarm") == "snoozed")
    check("snoozed while %s: the alarm still reads unsafe (%s)" % (a.get("verdict"), state(topics, alarm)),
          a.get("verdict") != "holding" and state(topics, alarm) == "ON")
    check("the attributes give the snooze's time left (%s s)" % a.get("snooze_left_s"),
          isinstance(a.get("snooze_left_s"), (int, float)) and 0 < a["snooze_left_s"] <= 60)
    st = json.loads(subprocess.run([BIN, "status", "--json", "--runtime-dir", run, "--config", c],
                                   capture_output=True, text=True, timeout=30).stdout)["status"]
    check("the box agrees: snoozed (%s)" % st["alarm"]["state"], st["alarm"]["state"] == "snoozed")
    if live:
        s = live.wait(E["alarm"], lambda e: e["attributes"].get("alarm") == "snoozed", 20)
        al = s.get(E["alarm"], {})
        check("Home Assistant: snoozed while %s, the alarm reads %s (snooze left %s s)"
              % (al.get("attributes", {}).get("verdict"), al.get("state"), al.get("attributes", {}).get("snooze_left_s")),
              al.get("state") == "on" and al.get("attributes", {}).get("alarm") == "snoozed")
    pub(port, button["command_topic"], button["payload_press"])
    time.sleep(1)
    st = json.loads(subprocess.run([BIN, "status", "--json", "--runtime-dir", run, "--config", c],
                                   capture_output=True, text=True, timeout=30).stdout)["status"]
    check("a second press changes nothing (still snoozed, episode %s)" % st["alarm"].get("episode"),
          st["alarm"]["state"] == "snoozed" and st["alarm"].get("episode") == a.get("episode"))

    if live:
        live.states()
        err = open(os.path.join(WORK, "ha-live.err")).read().strip().splitlines()
        check("Home Assistant ran to the end (%s)" % ("exit %s: %s" % (live.p.poll(), err[-1][:300] if err else "")
                                                   if live.p.poll() is not None else "running"),
              live.p.poll() is None)
        bad = [l for l in live.log if ("anchor" in l.lower() or "mqtt" in l.lower() or "template" in l.lower())]
        check("Home Assistant logged no warning about the box's entities or templates (%d%s)"
              % (len(bad), ": " + "; ".join(bad[:3]) if bad else ""), not bad)
    ha = os.environ.get("HA_PYTHON")
    if ha:
        out = subprocess.run([ha, os.path.join(os.path.dirname(__file__), "ha_schema.py"), os.path.join(WORK, "configs.json")],
                             capture_output=True, text=True, timeout=300)
        print(out.stdout, end="")
        check("Home Assistant's own schemas ran (exit %d%s)" % (out.returncode, ", " + out.stderr.strip()[-300:] if out.returncode else ""),
              out.returncode == 0 or "  FAILED:" in out.stdout)
        failed += out.stdout.count("  FAILED:")
    else:
        print("  (HA_PYTHON not set: the configs are checked against the documented fields only, not Home Assistant's schemas)")
finally:
    if live:
        live.close()
    for p in (box, broker):
        if p:
            p.terminate()
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                check("%s ended within 30 s of SIGTERM" % ("the box" if p is box else "mosquitto"), False)
sys.exit(1 if failed else 0)
