"""What the network checks read from a running box's log (its stdout and stderr in one file)."""
import re
import time


def said_ports(log_path, names, tries=100, pause=0.1):
    """The TCP port each output in `names` ("NMEA", "Signal K") says it listens on in the box's
    log ("NMEA: Yes: TCP port 10110, ..."), waiting up to `tries` x `pause` seconds for all of
    them; a name the box has not said by then is absent from the answer."""
    ports = {}
    for _ in range(tries):
        text = open(log_path).read()
        for name in names:
            m = re.search(r"^%s: Yes: TCP port (\d+)" % re.escape(name), text, re.M)
            if m:
                ports[name] = int(m.group(1))
        if len(ports) == len(names):
            break
        time.sleep(pause)
    return ports


def said_port(log_path, name, **waits):
    """`said_ports` for one output: its port, or None."""
    return said_ports(log_path, [name], **waits).get(name)
