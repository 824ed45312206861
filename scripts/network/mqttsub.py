"""mosquitto_sub for the network checks, with a deadline of its own.

Debian 12's mosquitto_sub (2.0.11) can deadlock when its -W timeout fires: the SIGALRM handler
calls mosquitto_disconnect_v5, which takes a library mutex the interrupted code may hold, and
the process then never exits (eclipse-mosquitto/mosquitto#3175, fixed in 2.0.21). SIGTERM runs
the same handler. So each run here gets -W and is killed with SIGKILL GRACE seconds after it;
mosquitto_sub flushes stdout after each message it prints, so what it printed is kept. A run
that had to be killed says so on stderr.

As a command (`msub` in scripts/test-network.sh): mqttsub.py SECONDS MOSQUITTO_SUB_ARGS...
prints what it printed and exits with its status, 137 when it was killed.
"""
import subprocess
import sys

GRACE = 5


def args(port, topics, count=None, verbose=False):
    """mosquitto_sub's arguments for 127.0.0.1:port, `topics`, ending after `count` messages."""
    a = ["-p", str(port)]
    for t in topics:
        a += ["-t", t]
    if verbose:
        a.append("-v")
    if count is not None:
        a += ["-C", str(count)]
    return a


def start(arguments, seconds):
    """mosquitto_sub with `arguments` and -W `seconds`, running."""
    p = subprocess.Popen(["mosquitto_sub", *arguments, "-W", str(seconds)],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
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


def subscribe(port, topics, seconds, count=None, verbose=False):
    return finish(start(args(port, topics, count=count, verbose=verbose), seconds))


if __name__ == "__main__":
    run = start(sys.argv[2:], int(sys.argv[1]))
    sys.stdout.write(finish(run))
    # A death by signal N exits 128 + N, as the shell says it: 137 for the kill above.
    sys.exit(128 - run.returncode if run.returncode < 0 else run.returncode)
