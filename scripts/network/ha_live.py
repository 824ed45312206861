"""A real Home Assistant, in this process, with its real MQTT integration on a broker: run by
ha_discovery.py with the Python in HA_PYTHON (one that has the homeassistant package and
paho-mqtt). Not part of the box.

usage: ha_live.py CONFIG_DIR BROKER_PORT

Writes a minimal configuration (no default_config: the core, the logger and the MQTT config
entry for the broker) and starts Home Assistant through its own bootstrap (pip off, nothing
is installed). Then, for each line "dump" on standard input, prints one JSON line: every
entity of the Anchor Alert device with its state and attributes, and the warnings and errors
Home Assistant logged since the last dump. "press ENTITY" presses a button and "set ENTITY
VALUE" sets a number, through Home Assistant's own services (as its dashboard does), and
print "done". "quit" stops it.
"""
import asyncio, json, logging, os, sys, time

from homeassistant import bootstrap, runner

CONFIG, PORT = sys.argv[1], int(sys.argv[2])
os.makedirs(os.path.join(CONFIG, ".storage"), exist_ok=True)
with open(os.path.join(CONFIG, "configuration.yaml"), "w") as f:
    f.write("homeassistant:\n  name: Test\n  latitude: 54.34\n  longitude: 13.5\n  elevation: 0\n"
            "  unit_system: metric\n  time_zone: UTC\n  country: DE\n  currency: EUR\nlogger:\n  default: warning\n")
now = "2026-01-01T00:00:00+00:00"
with open(os.path.join(CONFIG, ".storage", "core.config_entries"), "w") as f:
    json.dump({"version": 1, "minor_version": 5, "key": "core.config_entries", "data": {"entries": [{
        "entry_id": "0123456789abcdef0123456789abcdef", "version": 1, "minor_version": 2, "domain": "mqtt",
        "title": "127.0.0.1", "data": {"broker": "127.0.0.1", "port": PORT, "discovery": True},
        "options": {}, "pref_disable_new_entities": False, "pref_disable_polling": False, "source": "user",
        "unique_id": None, "disabled_by": None, "discovery_keys": {}, "created_at": now, "modified_at": now,
        "subentries": []}]}}, f)


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append("%s %s: %s" % (record.levelname, record.name, record.getMessage()[:400]))


collect = Collect()


async def main():
    hass = await bootstrap.async_setup_hass(runner.RuntimeConfig(config_dir=CONFIG, skip_pip=True))
    if hass is None:
        print(json.dumps({"error": "Home Assistant did not set up"}), flush=True)
        return
    logging.getLogger().addHandler(collect)
    await hass.async_start()
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        words = line.split()
        if not words or words[0] == "quit":
            break
        if words[0] == "press":
            await hass.services.async_call("button", "press", {"entity_id": words[1]}, blocking=True)
            print("done", flush=True)
            continue
        if words[0] == "set":
            await hass.services.async_call("number", "set_value", {"entity_id": words[1], "value": float(words[2])},
                                           blocking=True)
            print("done", flush=True)
            continue
        await hass.async_block_till_done()
        states = {s.entity_id: {"state": s.state, "attributes": dict(s.attributes)}
                  for s in hass.states.async_all() if "anchor_alert" in s.entity_id}
        print(json.dumps({"states": states, "log": collect.records}, default=str), flush=True)
        collect.records = []
    await hass.async_stop()


asyncio.run(main())
