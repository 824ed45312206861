"""mosquitto_sub for the network checks, with a deadline of its own.

Debian 12's mosquitto_sub (2.0.11) can deadlock when its -W timeout fires: the SIGALRM handler
calls mosquitto_disconnect_v5, which takes a library mutex the interrupted code may hold, and
the process then never exits (eclipse-mosquitto/mosquitto#3175, fixed in 2.0.21). SIGTERM runs
the same handler. So each run here gets -W and is killed with SIGKILL GRACE seconds after it;
mosquitto_sub flushes stdout after each message it prints, so what it printed is kept. A run
that had to be killed says so on stderr.
"""
import subprocess
import sys

GRACE = 5


def start(port, topics, seconds, count=None, verbose=False, qos=None):
    """mosquitto_sub on 127.0.0.1:port for `topics`, ending after `seconds` or `count` messages."""
    args = ["mosquitto_sub", "-p", str(port)]
    for t in topics:
        args += ["-t", t]
    if verbose:
        args.append("-v")
    if qos is not None:
        args += ["-q", str(qos)]
    if count is not None:
        args += ["-C", str(count)]
    args += ["-W", str(seconds)]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    p.seconds = seconds
    return p


def finish(p):
    """What a run from start() printed, once it has ended or been killed past its deadline."""
    try:
        out, _ = p.communicate(timeout=p.seconds + GRACE)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        print("  (mosquitto_sub outlived its -W %s s by %s s and was killed: mosquitto#3175)" % (p.seconds, GRACE),
              file=sys.stderr, flush=True)
    return out


def subscribe(port, topics, seconds, count=None, verbose=False, qos=None):
    return finish(start(port, topics, seconds, count=count, verbose=verbose, qos=qos))
