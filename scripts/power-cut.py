#!/usr/bin/python3
"""Block-level power cuts (run inside the test VM, as root; scripts/test-powercut.sh starts it).

    power-cut.py BINARY DECISIONS CUTS [SEED]

1. The journal's directory is on ext4 on a dm-log-writes device: the kernel records every write,
   flush and FUA that reaches the "card", in the order the card saw them.
2. The real `anchor-alert run --simulate hold` takes DECISIONS decisions (alert radius, each a
   value of its own, mark and release) over its control socket. Before a decision is sent a mark
   "s<i>" goes into the log; after its receipt (exit 0, "Alert radius: ..." printed) a mark
   "r<i>". Receipts come after the sync, so a decision whose "r" mark precedes a cut was on the
   card when it was cut.
3. The card is rebuilt as it stood at CUTS points of that log: just after a flush (a card that
   drops every unflushed write) and at points between flushes (the writes since the last flush
   reached the card in part). On each image: ext4 mounts it, `anchor-alert recap` must list every
   decision whose receipt was given and none that was never sent, and the box must start on it,
   answer, and have restored the last decision on the image.

Only the box's public surfaces are read (run, radius, mark, release, status --json, recap
--json). Prints one line per failure and "power-cut: N passed, N failed" last.
"""
import ctypes
import json
import os
import random
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback

binary = sys.argv[1]
decisions = int(sys.argv[2])
cuts_wanted = int(sys.argv[3])
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 2026
rng = random.Random(seed)
work = "/tmp/power-cut"
fs_mb = 256   # the box asks for attention below 128 MB free: a card that size
# ext4's data mode (POWER_CUT_EXT4_DATA, scripts/test-powercut.sh --writeback): "ordered", the
# Debian default, commits a new file's directory entry with its data; "writeback" does not, so a
# missing directory sync shows there.
ext4_data = os.environ.get("POWER_CUT_EXT4_DATA", "ordered")
if ext4_data not in ("ordered", "writeback"):
    print(f"power-cut: setup failed: POWER_CUT_EXT4_DATA={ext4_data} (ordered or writeback)")
    print("power-cut: 0 passed, 1 failed")
    sys.exit(1)

passed = failed = 0
failures = []


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        failures.append(what)
        print("power-cut FAILED:", what, flush=True)
    return ok


class SetupError(Exception):
    pass


def sh(*args, check_rc=True, **kw):
    p = subprocess.run(list(args), capture_output=True, text=True, **kw)
    if check_rc and p.returncode != 0:
        if threading.current_thread() is not threading.main_thread():
            raise SetupError(f"{' '.join(args)}: {p.stderr.strip()}")
        print(f"power-cut: setup failed: {' '.join(args)}: {p.stderr.strip()}", flush=True)
        print(f"power-cut: 0 passed, 1 failed")
        sys.exit(1)
    return p


def losetup(path, *extra):
    return sh("losetup", "-f", "--show", *extra, path).stdout.strip()


def sectors(dev):
    return int(sh("blockdev", "--getsz", dev).stdout)


config = os.path.join(work, "anchor-alert.conf")

# A cut mounts and unmounts its card through the system calls themselves, and finds its
# device-mapper node as devtmpfs made it: under emulation the mount, umount and `dmsetup
# mknodes` programs took 0.3 to 1.3 s each a call, mount(2) and umount2(2) 30 to 240 ms.
libc = ctypes.CDLL("libc.so.6", use_errno=True)


def mount_ext4(dev, target):
    """None when mounted, else why not."""
    if libc.mount(dev.encode(), target.encode(), b"ext4", 0, f"data={ext4_data}".encode()) == 0:
        return None
    return f"mount {dev}: {os.strerror(ctypes.get_errno())}"


def umount(target):
    if libc.umount2(target.encode(), 0) != 0:
        raise SetupError(f"umount {target}: {os.strerror(ctypes.get_errno())}")


def dm_node(name):
    # No udev in the VM: /dev is devtmpfs, which makes /dev/dm-N as the kernel adds the device.
    for d in os.listdir("/sys/block"):
        if d.startswith("dm-"):
            try:
                with open(f"/sys/block/{d}/dm/name") as f:
                    if f.read().strip() == name:
                        return f"/dev/{d}"
            except OSError:
                pass   # a device going away meanwhile (the other worker's)
    raise SetupError(f"no device-mapper node for {name}")


def client(runtime, *args, timeout=30):
    try:
        p = subprocess.run([binary, *args, "--runtime-dir", runtime], capture_output=True, text=True,
                           timeout=timeout)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        return 99, ""


def status(runtime):
    # The snapshot file (Docs/commands.md): what `status --json` reads, without a process each time.
    try:
        with open(os.path.join(runtime, "status.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def start_box(journal, runtime):
    return subprocess.Popen([binary, "run", "--config", config, "--simulate", "hold",
                             "--journal-dir", journal, "--runtime-dir", runtime],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_answering(p, runtime, limit=60.0):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        s = status(runtime)
        if s is not None and s["box"]["pid"] == p.pid:
            return s
        if p.poll() is not None:
            return None
        time.sleep(0.05)
    return None


def stop(p, runtime):
    # The image is thrown away after each start: no clean shutdown needed.
    if p.poll() is None:
        p.kill()
    p.wait()
    try:
        os.unlink(os.path.join(runtime, "status.json"))
    except OSError:
        pass


# ------------------------------------------------------------------ record
sh("modprobe", "loop")
sh("modprobe", "ext4")
sh("modprobe", "dm-log-writes")
sh("modprobe", "dm-snapshot")
os.makedirs(work, exist_ok=True)
with open(config, "w") as f:
    f.write("[ring]\nenabled = false\n[siren]\nenabled = false\n"
            "[gpio]\nbuzzer_enabled = false\nbutton_enabled = false\nswitch_enabled = false\n")
base, replay, logimg, cowimg = (os.path.join(work, n) for n in ("base.img", "replay.img", "log.img", "cow0.img"))
for path, mb in ((base, fs_mb), (logimg, 768), (cowimg, fs_mb)):
    with open(path, "wb") as f:
        f.truncate(mb << 20)
sh("mkfs.ext4", "-q", "-F", "-E", "nodiscard", base)
# The card before the box touched it: the log is replayed onto a copy, one per worker, made
# now (the data device itself ends as the card after the last write).
sh("cp", "--sparse=always", base, replay)
replay1 = os.path.join(work, "replay1.img")
sh("cp", "--sparse=always", base, replay1)
data_dev, log_dev = losetup(base), losetup(logimg)
size = sectors(data_dev)
sh("dmsetup", "create", "pclog", "--table", f"0 {size} log-writes {data_dev} {log_dev}")
sh("dmsetup", "mknodes")   # no udev in the VM
card = "/dev/mapper/pclog"
mnt, run_dir = os.path.join(work, "card"), os.path.join(work, "run")
os.makedirs(mnt, exist_ok=True)
sh("mount", "-t", "ext4", "-o", f"data={ext4_data}", card, mnt)
print(f"power-cut: ext4 data={ext4_data}", flush=True)


def mark(name):
    sh("dmsetup", "message", "pclog", "0", "mark", name)


journal = os.path.join(mnt, "journal")
box = start_box(journal, run_dir)
if wait_answering(box, run_dir) is None:
    check(False, "the box did not answer on the logged card")
    stop(box, run_dir)
    print(f"power-cut: {passed} passed, {failed} failed")
    sys.exit(1)

sent = []       # (i, kind, value): "radius" metres, "mark" receipt coordinate text, "release"
receipted = set()
anchored = False
started = time.monotonic()
for i in range(decisions):
    if not anchored and rng.random() < 0.2:
        kind, cmd = "mark", ["mark"]
    elif anchored and rng.random() < 0.15:
        kind, cmd = "release", ["release"]
    else:
        # Each decision a radius of its own, so the recap tells which decision it saw.
        kind, cmd = "radius", ["radius", str(20 + i)]
    mark(f"s{i}")
    rc, out = client(run_dir, *cmd)
    value = str(20 + i) if kind == "radius" else None
    if rc == 0 and kind == "mark":
        value = out.strip().splitlines()[-1].split(" at ")[-1]
        anchored = True
    if rc == 0 and kind == "release":
        anchored = False
    sent.append((i, kind, value))
    if rc == 0:
        # After the receipt: the decision must be on the card from here on.
        mark(f"r{i}")
        receipted.add(i)
    elif kind == "mark":
        time.sleep(0.5)   # too few fresh fixes yet: the box refuses, and says so
check(len(receipted) >= decisions // 2, f"only {len(receipted)} of {decisions} decisions got a receipt")
kill_at = time.monotonic()
box.send_signal(signal.SIGKILL)   # the power goes: no clean shutdown's flush
box.wait()
record_s = time.monotonic() - started
sh("umount", mnt)
sh("dmsetup", "remove", "pclog")

# ------------------------------------------------------------------ the log
SECTOR = 512
FLUSH, FUA, DISCARD, MARK = 1, 2, 4, 8
entries = []   # (flags, sector, nr_sectors, data_offset_in_log or mark name)
with open(logimg, "rb") as log:
    magic, version, nr_entries, sectorsize = struct.unpack("<QQQI", log.read(28))
    if magic != 0x6A736677736872:
        check(False, "dm-log-writes left no log")
        print(f"power-cut: {passed} passed, {failed} failed")
        sys.exit(1)
    pos = sectorsize
    for _ in range(nr_entries):
        log.seek(pos)
        head = log.read(sectorsize)
        sector, nr, flags, datalen = struct.unpack("<QQQQ", head[:32])
        pos += sectorsize
        if flags & MARK:
            entries.append((flags, 0, 0, head[32:32 + datalen].rstrip(b"\0").decode()))
        elif flags & DISCARD:
            entries.append((flags, sector, nr, None))
        else:
            entries.append((flags, sector, nr, pos))
            pos += nr * sectorsize

# Where each mark stands, and the cut points: after every flush or FUA write, and between them.
mark_at = {e[3]: k for k, e in enumerate(entries) if e[0] & MARK}
flushes = [k for k, e in enumerate(entries) if e[0] & (FLUSH | FUA)]
writes = [k for k, e in enumerate(entries) if not e[0] & MARK]
between = []
prev = -1
for f in flushes:
    inside = [k for k in writes if prev < k < f]
    if inside:
        between.append(rng.choice(inside))
    prev = f
candidates = sorted(set(flushes) | set(between))
tail = [k for k in writes if k > prev]
if tail:
    candidates.append(rng.choice(tail))
# More cuts than flush points: the rest fall at random writes; fewer: an even, fixed spread.
if cuts_wanted > len(candidates):
    rest = [k for k in writes if k not in set(candidates)]
    candidates = sorted(set(candidates) | set(rng.sample(rest, min(len(rest), cuts_wanted - len(candidates)))))
if cuts_wanted < len(candidates):
    step = len(candidates) / cuts_wanted
    candidates = [candidates[int(j * step)] for j in range(cuts_wanted)]
print(f"power-cut: {len(entries)} log entries ({len(flushes)} flushes or FUA writes) from {decisions} "
      f"decisions, {len(receipted)} with a receipt, recorded in {record_s:.0f} s", flush=True)
# A log with fewer writes than the cuts asked for cannot give them: a failure, never a smaller
# run that looks like the one asked for (150 decisions left 899 writes for 1,000 cuts).
check(len(candidates) >= cuts_wanted,
      f"only {len(candidates)} cut points in the log for {cuts_wanted} cuts: record more decisions")

# ------------------------------------------------------------------ cut, restart, check
# Two workers, each with its own rebuilt card, snapshot and box, take alternate cuts: the VM has
# two CPUs, and a cut is mostly the box starting under emulation.
lock = threading.Lock()
checked = lost = failed_starts = done = 0
# Where a cut's time goes (summed over both workers), printed at the end.
phase = {"replay": 0.0, "attach": 0.0, "check": 0.0, "detach": 0.0}


def spent(name, since):
    now = time.monotonic()
    with lock:
        phase[name] += now - since
    return now


def says(d):
    i, kind, value = d
    if kind == "radius":
        return f"Alert radius: {value} m"
    if kind == "mark":
        return f"Anchor marked at {value}" if value else "Anchor marked at"
    return "Anchor released"


def worker(w, cuts, replay_img, cow_dev):
    # Any exception ends this worker's remaining cuts: a failure of the run, with its traceback,
    # never a smaller run that passes (the count of cuts judged is compared with those asked for).
    try:
        work_cuts(w, cuts, replay_img, cow_dev)
    except BaseException as e:
        with lock:
            traceback.print_exc()
            check(False, f"worker {w} stopped: {type(e).__name__}: {e}")


def work_cuts(w, cuts, replay_img, cow_dev):
    global checked, lost, failed_starts, done
    rdev = None
    name = f"pccut{w}"
    cut_mnt, runtime = os.path.join(work, f"cut{w}"), os.path.join(work, f"cut-run{w}")
    os.makedirs(cut_mnt, exist_ok=True)
    applied = -1
    with open(logimg, "rb") as log, open(replay_img, "r+b") as img:
        for n, cut in cuts:
            # Test-only sabotage (scripts/test-powercut.sh --sabotage worker-exception): worker 1
            # raises a KeyError from its second cut on, as a status field that went missing would.
            if os.environ.get("POWER_CUT_SABOTAGE") == "worker-exception" and w == 1 and n > 1:
                raise KeyError("sabotage: a missing status field")
            tc = time.monotonic()
            for k in range(applied + 1, cut + 1):
                flags, sector, nr, where = entries[k]
                if flags & MARK or nr == 0:
                    continue
                img.seek(sector * sectorsize)
                if flags & DISCARD:
                    img.write(bytes(nr * sectorsize))
                else:
                    log.seek(where)
                    img.write(log.read(nr * sectorsize))
            applied = cut
            img.flush()
            os.fsync(img.fileno())
            tc = spent("replay", tc)
            if rdev is None:
                with lock:
                    rdev = losetup(replay_img, "-r")
            # No udev in the VM to wait for.
            sh("dmsetup", "create", "--noudevsync", name, "--table", f"0 {size} snapshot {rdev} {cow_dev} N 8")
            where = f"cut {n} at log entry {cut}"
            why = mount_ext4(dm_node(name), cut_mnt)
            if why:
                with lock:
                    check(False, f"{where}: the file system does not mount: {why}")
                    failed_starts += 1
                    done += 1   # judged: a failure
                sh("dmsetup", "remove", "--noudevsync", name)
                continue
            must = [d for d in sent if d[0] in receipted and mark_at[f"r{d[0]}"] < cut]
            could = [d for d in sent if mark_at[f"s{d[0]}"] < cut]
            j = os.path.join(cut_mnt, "journal")
            # The box starts on the card while the recap reads it (safe while the box runs, and
            # the box's start only cuts a torn tail and adds a segment).
            t0 = tc = spent("attach", tc)
            boxp = start_box(j, runtime)
            def recap():
                # Generous: on a loaded host under emulation a recap beside a starting box has
                # taken more than 30 s. One that never answers is its own failure, never "lost".
                rc, out = client(runtime, "recap", "--json", "--since", "100000h", "--journal", j, timeout=180)
                if rc == 1:
                    return rc, []   # no journal the recap can read: it holds no decision
                try:
                    return rc, [x["says"] for x in json.loads(out)["notes"]] if rc == 0 else None
                except (ValueError, KeyError):
                    return rc, None
            rc, notes = recap()
            # Every receipted decision is there.
            unread = notes is None
            notes = notes or []
            seen = [x for x in notes if x.startswith(("Alert radius:", "Anchor marked", "Anchor released"))]
            missing = [d for d in must if not any(x.startswith(says(d)) for x in seen)]
            # Nothing that was never sent (the rebuilt card is the card as it was, not a later one).
            later = [says(d) for d in sent if d not in could and d[1] == "radius"]
            # The box starts on the card and restores the last decision written there.
            s = wait_answering(boxp, runtime)
            tc = spent("check", tc)
            stop(boxp, runtime)
            if os.environ.get("POWER_CUT_TIMES"):
                print(f"cut {n}: start {time.monotonic() - t0:.1f} s, since the cut began {time.monotonic() - tc:.1f} s", flush=True)
            with lock:
                if unread:
                    check(False, f"{where}: recap could not read the card (exit {rc})")
                    done += 1
                    libc.umount2(cut_mnt.encode(), 0)
                    sh("dmsetup", "remove", "--noudevsync", name, check_rc=False)
                    continue
                checked += len(must)
                lost += len(missing)
                if not check(not missing, f"{where}: {len(missing)} of {len(must)} receipted decisions lost, first {missing[:1]}"):
                    # What the card held, to tell a lost decision from a recap that could not read it.
                    listing = sh("ls", "-la", j, check_rc=False).stdout.strip().replace("\n", "; ")
                    print(f"  recap exit {rc}, {len(notes)} notes {notes[-3:]}; journal: {listing}", flush=True)
                check(not any(x in later for x in seen), f"{where}: the card holds a decision sent after the cut")
                if not check(s is not None, f"{where}: the box did not start and answer"):
                    failed_starts += 1
                else:
                    radii = [x for x in seen if x.startswith("Alert radius:")]
                    if radii:
                        check(f"Alert radius: {s['alert_radius_m']:g} m" == radii[-1],
                              f"{where}: restored alert radius {s['alert_radius_m']}, the card's last is {radii[-1]}")
                    anchors = [x for x in seen if x.startswith(("Anchor marked", "Anchor released"))]
                    if anchors:
                        check((s.get("anchor") is not None) == anchors[-1].startswith("Anchor marked"),
                              f"{where}: restored anchor {s.get('anchor')}, the card's last is {anchors[-1]}")
                    bad = [f["says"] for f in s.get("faults", []) if f["kind"] == "journal" and f["says"].startswith("Journal:")]
                    if not check(not bad, f"{where}: the journal was damaged by the cut: {bad}"):
                        failed_starts += 1
                done += 1
                if done % 100 == 0:
                    print(f"power-cut: {done} cuts so far, {lost} decisions lost, {failed_starts} failed starts", flush=True)
            umount(cut_mnt)
            sh("dmsetup", "remove", "--noudevsync", name)
            spent("detach", tc)


workers = []
for w in range(2):
    img = replay if w == 0 else replay1
    cow = os.path.join(work, f"cow{w}.img")
    with open(cow, "wb") as f:
        f.truncate(fs_mb << 20)
    share = [(n, c) for n, c in enumerate(candidates) if n % 2 == w]
    workers.append(threading.Thread(target=worker, args=(w, share, img, losetup(cow))))
for t in workers:
    t.start()
for t in workers:
    t.join()

elapsed = time.monotonic() - started
# Every cut asked for ran and was judged, or the run fails.
check(done == cuts_wanted, f"{done} of {cuts_wanted} cuts asked for ran and were judged")
print(f"power-cut: {done} cuts run of {cuts_wanted} asked for, {checked} receipted decisions checked across them, "
      f"{lost} lost, {failed_starts} failed starts, in {elapsed:.0f} s")
print("power-cut: time per cut: " + ", ".join(f"{k} {v / max(done, 1):.2f} s" for k, v in phase.items())
      + f" (two workers; record {record_s:.0f} s)")
if failures:
    print("power-cut: first failures:", *failures[:5], sep="\n  ")
print(f"power-cut: {passed} passed, {failed} failed")
sys.exit(0 if failed == 0 and passed > 0 and checked > 0 else 1)
