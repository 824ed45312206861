"""Home Assistant's own MQTT discovery schemas over the box's configs (run by ha_discovery.py
with the Python given in HA_PYTHON, one that has the homeassistant package).

usage: ha_schema.py CONFIGS_JSON

Each config is validated as Home Assistant's MQTT discovery does, with the platform's
PLATFORM_SCHEMA_MODERN (which refuses unknown keys, where DISCOVERY_SCHEMA drops them), and
its origin with MQTT_ORIGIN_INFO_SCHEMA. Prints "  ok:"/"  FAILED:" a config.
"""
import asyncio, importlib, json, sys, tempfile
import voluptuous as vol
from homeassistant.const import __version__
from homeassistant.core import HomeAssistant
from homeassistant.helpers import frame
from homeassistant.components.mqtt.schemas import MQTT_ORIGIN_INFO_SCHEMA


async def main():
    # A template in a schema asks for the running instance: give it one, as discovery has.
    hass = HomeAssistant(tempfile.mkdtemp())
    frame.async_setup(hass)
    validate(json.load(open(sys.argv[1])))
    await hass.async_stop(force=True)


def validate(configs):
    for topic, cfg in sorted(configs.items()):
        platform = topic.split("/")[1]
        schema = importlib.import_module("homeassistant.components.mqtt." + platform).PLATFORM_SCHEMA_MODERN
        cfg = dict(cfg)
        origin = cfg.pop("origin", None)
        try:
            schema(cfg)
            if origin is not None:
                MQTT_ORIGIN_INFO_SCHEMA(origin)
            print("  ok: Home Assistant %s's %s schema takes %s" % (__version__, platform, topic))
        except vol.Invalid as e:
            print("  FAILED: Home Assistant %s's %s schema refuses %s: %s" % (__version__, platform, topic, e))


asyncio.run(main())
