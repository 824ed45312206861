#!/usr/bin/python3
"""Block-level power cuts (run inside the test VM, as root; scripts/test-powercut.sh starts it).

    power-cut.py BINARY DECISIONS CUTS [SEED]

1. The journal's directory is on ext4 (or XFS, F2FS or FAT32: POWER_CUT_FS) on a dm-log-writes device:
   the kernel records every write, flush and FUA that reaches the "card", in the order the card
   saw them.
2. Two starts of the real `anchor-alert run --simulate hold` on that card are recorded: a first
   night of DECISIONS/2 decisions on an empty card, a torn record left at the end of its newest
   segment, then a restart (recovery's truncation and sync, a new segment) and the rest of the
   decisions. Decisions go over the control socket in a fixed cycle of alert radii (each a value
   of its own), marks and releases. Before a decision is sent a mark "s<i>" goes into the log;
   after its receipt (exit 0, the receipt printed) a mark "r<i>". The box's segments are
   POWER_CUT_SEGMENT_BYTES (512) small, so they rotate and the oldest are deleted meanwhile:
   the first night goes on (at most 24 decisions more) until a segment has filled and rotated,
   the second until an old segment has been deleted, and the run fails if either never came.
3. The card is rebuilt as it stood at CUTS points of that log: just after a flush (a card that
   drops every unflushed write) and at points between flushes (the writes since the last flush
   reached the card in part). On each image the file system mounts it, `anchor-alert recap`
   lists the card's decisions, which must be the box's own decisions one by one in the order it
   took them (by identity, not text), holding every one whose receipt was given before the cut
   and none sent after it; and the box must start on it, answer, and restore the last decision
   on the image. One cut in every POWER_CUT_AGAIN_EVERY (4) is cut again during the start on it:
   that start's writes are logged too, and the card at the first cut plus part of them is
   checked the same way. Cuts inside the first rotation and the first deletion are always among
   the CUTS; a run with no cut inside a rotation or a deletion fails.

Only the box's public surfaces are read (run, radius, mark, release, status, recap --json).
Every cut asked for must run and be judged. Prints one line per failure and "power-cut: N
passed, N failed" last.
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
# The card's file system (POWER_CUT_FS, scripts/test-powercut.sh --fs): ext4, as the Pi image
# ships the journal's partition (image/build-pi-image.sh, image/system/fstab.append), or XFS,
# F2FS or vfat (FAT32, as the Pi's boot partition), where a missing sync may show differently.
# On FAT a file's fsync writes its data, the one 512-byte directory block holding its own entry,
# and the FAT; a directory's fsync writes the directory's blocks and its own entry in its parent.
# So the journal directory's entry in the card's root reaches the card by the journal's
# directory sync (or the kernel's periodic writeback), never by a segment's fdatasync.
fs = os.environ.get("POWER_CUT_FS", "ext4")
# ext4-nojournal: ext4 made without its journal (mkfs.ext4 -O ^has_journal), as some Pi users
# tune a card to write less.
if fs not in ("ext4", "ext4-nojournal", "xfs", "f2fs", "vfat"):
    print(f"power-cut: setup failed: POWER_CUT_FS={fs} (ext4, ext4-nojournal, xfs, f2fs or vfat)")
    print("power-cut: 0 passed, 1 failed")
    sys.exit(1)
# The box asks for attention below 128 MB free: a card that size (XFS makes none under 300 MB;
# FAT32 of 4 KiB clusters none under about 260 MB).
fs_mb = 320 if fs in ("xfs", "vfat") else 256
# ext4's data mode (POWER_CUT_EXT4_DATA, scripts/test-powercut.sh --writeback): "ordered", the
# Debian default, commits a new file's directory entry with its data; "writeback" does not, so a
# missing directory sync shows there.
ext4_data = os.environ.get("POWER_CUT_EXT4_DATA", "ordered")
if ext4_data not in ("ordered", "writeback"):
    print(f"power-cut: setup failed: POWER_CUT_EXT4_DATA={ext4_data} (ordered or writeback)")
    print("power-cut: 0 passed, 1 failed")
    sys.exit(1)

# The box's segments are this small (the box's test-only ANCHOR_ALERT_TEST_SEGMENT_BYTES,
# Sources/Appliance/Runtime/Wiring.swift), so within a few dozen decisions segments fill, rotate
# and the oldest are deleted (compaction) while the log records: those writes are cut too.
segment_bytes = os.environ.get("POWER_CUT_SEGMENT_BYTES", "512")
# POWER_CUT_WRITEBACK=off (scripts/test-powercut.sh --no-writeback): the kernel's periodic
# writeback is off while the log records, so the card gets only what a sync (or the final
# unmount) forces. A power cut can come before any periodic writeback: without it, a write the
# box left to the kernel (a directory it did not sync) would reach the card within about 30 s
# and hide in most cuts.
writeback = os.environ.get("POWER_CUT_WRITEBACK", "on")
if writeback not in ("on", "off"):
    print(f"power-cut: setup failed: POWER_CUT_WRITEBACK={writeback} (on or off)")
    print("power-cut: 0 passed, 1 failed")
    sys.exit(1)
os.environ["ANCHOR_ALERT_TEST_SEGMENT_BYTES"] = segment_bytes
sabotage = os.environ.get("POWER_CUT_SABOTAGE", "")

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


# Mount options: ext4's data mode; XFS refuses a second file system with the same UUID (the
# two workers' cards are copies of one) unless told.
mount_opts = {"ext4": f"data={ext4_data}", "ext4-nojournal": "", "xfs": "nouuid", "f2fs": "", "vfat": ""}[fs]
fs_type = "ext4" if fs == "ext4-nojournal" else fs
fs_name = {"ext4": f"ext4 data={ext4_data}", "vfat": "vfat (FAT32, 4 KiB clusters)"}.get(fs, fs)


def mount_card(dev, target):
    """None when mounted, else why not."""
    if libc.mount(dev.encode(), target.encode(), fs_type.encode(), 0, mount_opts.encode() or None) == 0:
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


def start_box(journal, runtime, test_segments=True):
    env = dict(os.environ)
    if not test_segments:
        env.pop("ANCHOR_ALERT_TEST_SEGMENT_BYTES", None)
    return subprocess.Popen([binary, "run", "--config", config, "--simulate", "hold",
                             "--journal-dir", journal, "--runtime-dir", runtime],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)


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
sh("modprobe", fs_type)
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
# FAT32 as mkfs.vfat makes the Pi's boot partition, but 4 KiB clusters (its default at this
# size is 512 bytes): a segment then never grows past its first cluster, where the kernel's
# FAT code writes a file's new size before the cluster chain that holds it.
sh(*{"ext4": ["mkfs.ext4", "-q", "-F", "-E", "nodiscard"], "xfs": ["mkfs.xfs", "-q", "-f", "-K"],
      "f2fs": ["mkfs.f2fs", "-q", "-f", "-t", "0"], "vfat": ["mkfs.vfat", "-F", "32", "-s", "8"],
      "ext4-nojournal": ["mkfs.ext4", "-q", "-F", "-O", "^has_journal", "-E", "nodiscard"]}[fs], base)
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
sh("mount", "-t", fs_type, *(["-o", mount_opts] if mount_opts else []), card, mnt)
if writeback == "off":
    with open("/proc/sys/vm/dirty_writeback_centisecs", "w") as f:
        f.write("0\n")
print(f"power-cut: {fs_name}" + (", periodic writeback off while the log records" if writeback == "off" else ""),
      flush=True)


def mark(name):
    sh("dmsetup", "message", "pclog", "0", "mark", name)


journal = os.path.join(mnt, "journal")
sent = []       # (i, kind, value, rc): "radius" metres, "mark" receipt coordinate text, "release"
receipted = set()
anchored = False
started = time.monotonic()
# A fixed cycle, so marks and releases repeat (a lost second "Anchor released" must show): a
# radius, a mark, a radius while anchored, a release. Each radius a value of its own. A release
# every fourth decision, so any eight in a row hold two: a card holding one 512-byte segment of
# decisions holds two releases, whichever cut it is.
CYCLE = ("radius", "mark", "radius", "release")


def segments():
    """The sequences of the segments the logged card's journal directory holds now."""
    try:
        return {int(n[8:-4], 16) for n in os.listdir(journal) if n.startswith("journal-") and n.endswith(".log")}
    except FileNotFoundError:
        return set()


# Where the segments changed while the log recorded, each between two marks of the log (the
# directory listed just after the first mark was written and just before the second: what
# changed in between was created or deleted after the first mark, and the box synced it before
# its answer, which came before the second): (first mark, second mark, what happened, segments).
# A rotation: a decision's commit found the newest segment full and started a new one. A
# deletion: a commit (a decision's, or the restart's new segment) deleted an old segment.
rotations, deletions = [], []
# Each night goes on past its share of the decisions until what it is there to show has
# happened (the first a rotation, the second a deletion), at most EXTRA decisions more: how
# many bytes a night writes depends on how fast it records (a slow one writes more track), so
# a count alone cut no rotation on a fast machine.
EXTRA = 24


def night(first, count, tag, until=lambda: True):
    """One box start on the logged card and `count` decisions from `first`, then more (at most
    EXTRA) until `until()`; then the power goes. Returns the next decision's number."""
    global anchored
    before = segments()
    box = start_box(journal, run_dir)
    if wait_answering(box, run_dir) is None:
        check(False, f"the box did not answer on the logged card ({tag})")
        stop(box, run_dir)
        print(f"power-cut: {passed} passed, {failed} failed")
        sys.exit(1)
    after = segments()
    mark(f"up{first}")
    if before and before - after:
        deletions.append(("torn", f"up{first}", "the restart", sorted(before - after)))
    i = first
    while i < first + count or (not until() and i < first + count + EXTRA):
        kind = CYCLE[i % len(CYCLE)]
        if kind == "mark" and anchored or kind == "release" and not anchored:
            kind = "radius"
        cmd = ["radius", str(20 + i)] if kind == "radius" else [kind]
        mark(f"s{i}")
        before = segments()
        rc, out = client(run_dir, *cmd)
        value = str(20 + i) if kind == "radius" else None
        if rc == 0 and kind == "mark":
            # "Anchor marked at LAT,LON" (", alarm on" follows when a switch arms the box).
            value = out.strip().splitlines()[-1].split(" at ")[-1].split(", ")[0]
            anchored = True
        if rc == 0 and kind == "release":
            anchored = False
        sent.append((i, kind, value, rc))
        if rc == 0:
            after = segments()
            # After the receipt: the decision must be on the card from here on.
            mark(f"r{i}")
            receipted.add(i)
            if before and max(after) > max(before):
                rotations.append((f"s{i}", f"r{i}", f"decision {i}", sorted(after - before)))
            if before - after:
                deletions.append((f"s{i}", f"r{i}", f"decision {i}", sorted(before - after)))
        elif kind == "mark":
            time.sleep(0.5)   # too few fresh fixes yet: the box refuses, and says so
        i += 1
    box.send_signal(signal.SIGKILL)   # the power goes: no clean shutdown's flush
    box.wait()
    return i


def tear_tail():
    """The newest segment gets a torn record at its end, as a cut in the middle of a write leaves
    one: the next start's recovery cuts it and syncs (writes that are cut in their turn)."""
    names = sorted(n for n in os.listdir(journal) if n.startswith("journal-") and n.endswith(".log"))
    if not names:
        check(False, "the first night left no segment to tear")
        return
    # 32 bytes that start like a record's header but can never be a whole record.
    torn = bytes([0x5a, 0xa5, 0x10, 0x00, 0x06, 0x01]) + bytes(range(1, 27))
    with open(os.path.join(journal, names[-1]), "ab") as f:
        f.write(torn)
        f.flush()
        os.fsync(f.fileno())


# The first night goes on until a segment has filled and rotated; the second until an old
# segment has been deleted (with 512-byte segments and the journal two of them: a fast
# recording, few track fixes, about 13 decisions a night).
nxt = night(0, decisions // 2, "the first start, on an empty card", until=lambda: bool(rotations))
tear_tail()
mark("torn")
# A restart on a card that already holds a night (and a torn tail): its recovery's truncation
# and sync, its new segment and its compaction are recorded and cut like any other write.
nxt = night(nxt, decisions - decisions // 2, "the restart on the card holding a night",
            until=lambda: bool(rotations) and bool(deletions))
decisions = len(sent)
check(len(receipted) >= decisions // 2, f"only {len(receipted)} of {decisions} decisions got a receipt")
record_s = time.monotonic() - started
# Rotation and compaction happened while the log recorded: the segments the card holds at the end.
held = sorted(n for n in os.listdir(journal) if n.startswith("journal-"))
print(f"power-cut: the card holds {len(held)} segments, {held[0][8:-4].lstrip('0')} to {held[-1][8:-4].lstrip('0')} "
      f"(segments of {segment_bytes} bytes, the journal two of them: older ones are deleted)" if held else
      "power-cut: the card holds no segment", flush=True)
sh("umount", mnt)
sh("dmsetup", "remove", "pclog")

# ------------------------------------------------------------------ the log
SECTOR = 512
FLUSH, FUA, DISCARD, MARK = 1, 2, 4, 8


def read_log(path):
    """dm-log-writes' log: [(flags, sector, nr_sectors, data offset in the log or mark name)]
    and the sector size, or None when the device left none."""
    entries_ = []
    with open(path, "rb") as log:
        magic, version, nr_entries, sectorsize_ = struct.unpack("<QQQI", log.read(28))
        if magic != 0x6A736677736872:
            return None
        pos = sectorsize_
        for _ in range(nr_entries):
            log.seek(pos)
            head = log.read(sectorsize_)
            sector, nr, flags, datalen = struct.unpack("<QQQQ", head[:32])
            pos += sectorsize_
            if flags & MARK:
                entries_.append((flags, 0, 0, head[32:32 + datalen].rstrip(b"\0").decode()))
            elif flags & DISCARD:
                entries_.append((flags, sector, nr, None))
            else:
                entries_.append((flags, sector, nr, pos))
                pos += nr * sectorsize_
    return entries_, sectorsize_


got = read_log(logimg)
if got is None:
    check(False, "dm-log-writes left no log")
    print(f"power-cut: {passed} passed, {failed} failed")
    sys.exit(1)
entries, sectorsize = got

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
# More cuts than flush points: the rest fall at random writes; fewer: an even, fixed spread,
# except that the cuts inside the first rotation and the first deletion are always among them.
if cuts_wanted > len(candidates):
    rest = [k for k in writes if k not in set(candidates)]
    candidates = sorted(set(candidates) | set(rng.sample(rest, min(len(rest), cuts_wanted - len(candidates)))))


def inside(window, points):
    a, b = mark_at[window[0]], mark_at[window[1]]
    return [k for k in points if a < k < b]


def spread(points, n):
    """n of the points, the first and the last among them, evenly between."""
    if len(points) <= n:
        return list(points)
    return [points[round(j * (len(points) - 1) / (n - 1))] for j in range(n)] if n > 1 else points[:1]


# The rotation shown: a decision's that deleted nothing, when there is one (the deletion is shown
# on its own), else the first.
shown = [w for w in rotations if not any(w[:2] == d[:2] for d in deletions)][:1] or rotations[:1]
forced = set()
for w in shown:
    forced |= set(spread(inside(w, candidates), 2))
for w in deletions[:1]:
    forced |= set(spread(inside(w, candidates), 3))
if cuts_wanted < len(candidates):
    forced = set(sorted(forced)[:cuts_wanted])
    others = [k for k in candidates if k not in forced]
    want = cuts_wanted - len(forced)
    step = len(others) / want if want else 1
    candidates = sorted(forced | {others[int(j * step)] for j in range(want)})
# One cut in every AGAIN is cut a second time, during the start on it (POWER_CUT_AGAIN_EVERY),
# alternately an odd and an even one, so both workers share them.
every = int(os.environ.get("POWER_CUT_AGAIN_EVERY", "4"))
cut_again = {n for n in range(len(candidates)) if every > 1 and n % every == every - 1 - (n // every) % 2}
print(f"power-cut: {len(entries)} log entries ({len(flushes)} flushes or FUA writes) from {decisions} "
      f"decisions, {len(receipted)} with a receipt, recorded in {record_s:.0f} s", flush=True)
# A log with fewer writes than the cuts asked for cannot give them: a failure, never a smaller
# run that looks like the one asked for (150 decisions left 899 writes for 1,000 cuts).
check(len(candidates) >= cuts_wanted,
      f"only {len(candidates)} cut points in the log for {cuts_wanted} cuts: record more decisions")
# Rotation and compaction must be under the cuts, whatever the machine's speed: a recording with
# no rotation or no deletion of an old segment, or cuts none of which falls inside them, fails.
def cuts_in(windows):
    within = set()
    for w in windows:
        within |= set(inside(w, candidates))
    return [n for n, k in enumerate(candidates) if k in within]


def names(ws, what):
    # The first five (--full rotates dozens of times).
    more = f"; and {len(ws) - 5} more" if len(ws) > 5 else ""
    return "; ".join(f"{w[2]} (segment {', '.join(map(str, w[3]))} {what})" for w in ws[:5]) + more


def listed(ns):
    return ", ".join(map(str, ns[:12])) + (f" and {len(ns) - 12} more" if len(ns) > 12 else "") or "none"


rot_cuts, del_cuts = cuts_in(rotations), cuts_in(deletions)
print(f"power-cut: rotations (a full segment, a new one started) during {names(rotations, 'started') or 'nothing'}; "
      f"old segments deleted during {names(deletions, 'deleted') or 'nothing'}", flush=True)
print(f"power-cut: cut points inside them: {len(rot_cuts)} inside a rotation (cuts {listed(rot_cuts)}), "
      f"{len(del_cuts)} inside a deletion (cuts {listed(del_cuts)})", flush=True)
ok = check(bool(rotations), f"the recording holds no rotation: no segment filled and a new one started during a decision "
           f"in {decisions} decisions (segments of {segment_bytes} bytes)")
ok &= check(bool(deletions), f"the recording holds no deletion of an old segment in {decisions} decisions "
            f"(segments of {segment_bytes} bytes)")
if rotations:
    ok &= check(bool(rot_cuts), "no cut point falls inside a rotation")
if deletions:
    ok &= check(bool(del_cuts), "no cut point falls inside a deletion of an old segment")
if not ok:
    print("power-cut: first failures:", *failures[:5], sep="\n  ")
    print(f"power-cut: {passed} passed, {failed} failed")
    sys.exit(1)
# The cuts inside the rotation and the deletion shown say what the card held there.
shown_rot, shown_del = cuts_in(shown), cuts_in(deletions[:1])
inside_cut = {n: "rotation and deletion" if n in shown_rot and n in shown_del else "rotation" if n in shown_rot else "deletion"
              for n in shown_rot + shown_del}

# ------------------------------------------------------------------ cut, restart, check
# Two workers, each with its own rebuilt card, snapshot and box, take alternate cuts: the VM has
# two CPUs, and a cut is mostly the box starting under emulation.
lock = threading.Lock()
checked = lost = failed_starts = done = done_again = 0
sabotaged = 0   # cards the lost-release sabotage dropped a release from
# Where a cut's time goes (summed over both workers), printed at the end.
phase = {"replay": 0.0, "attach": 0.0, "check": 0.0, "detach": 0.0}


def spent(name, since):
    now = time.monotonic()
    with lock:
        phase[name] += now - since
    return now


def says(d):
    i, kind, value, rc = d
    if kind == "radius":
        return f"Alert radius: {value} m"
    if kind == "mark":
        return f"Anchor marked at {value}" if value else "Anchor marked at"
    return "Anchor released"


def is_note(x, d):
    return x.startswith(says(d)) if d[1] == "mark" else x == says(d)


def judge(seen, cut, first_segment_there):
    """Matches the card's decision notes to the box's decisions by identity: the k-th decision on
    the card is one decision the box took, in the order it took them, never a look-alike of
    another (a lost second "Anchor released" is not hidden by the first). Returns (problems,
    checked, missing, expected state) for the cut."""
    # What could be on the card: every decision the box accepted (a receipt) or may have (no
    # answer in time), sent before the cut. A refused mark wrote nothing.
    cands = [d for d in sent if d[3] in (0, 99) and mark_at[f"s{d[0]}"] < cut]
    must = [d for d in sent if d[0] in receipted and mark_at[f"r{d[0]}"] < cut]
    matched = []
    if seen:
        # The card holds a run of them with nothing left out but those that got no answer; the
        # run starts later than the first only where compaction deleted the oldest segments.
        best = (-1, None, None)   # the longest partial run, where it broke, what came next
        for a in range(len(cands)):
            k, run = a, []
            for x in seen:
                while k < len(cands) and cands[k][3] == 99 and not is_note(x, cands[k]):
                    k += 1
                if k < len(cands) and is_note(x, cands[k]):
                    run.append(cands[k])
                    k += 1
                else:
                    if len(run) > best[0]:
                        best = (len(run), x, says(cands[k]) if k < len(cands) else "nothing")
                    run = None
                    break
            if run:
                matched = run
                break
        else:
            # Not the box's decisions in order: one is lost between others, or repeated, or
            # was never taken. A failure of its own; the count of lost ones can't be told.
            return ([f"the card's {len(seen)} decisions are not the box's decisions one by one in "
                     f"order: after {best[0]} of them the card has '{best[1]}', the box's next was "
                     f"'{best[2]}'"], len(must), [], None)
    present = {d[0] for d in matched}
    lo = matched[0][0] if matched else None
    # Before the run: deleted by compaction, unless the box's first segment is still there.
    compacted = [d for d in must if d[0] not in present and lo is not None and d[0] < lo and not first_segment_there]
    missing = [d for d in must if d[0] not in present and d not in compacted]
    # The state the box must restore: that after the last decision on the card, by identity.
    last = matched[-1][0] if matched else -1
    radius, anchor = None, False
    for d in cands:
        if d[0] > last:
            break
        if d[3] == 99 and d[0] not in present:
            continue
        if d[1] == "radius":
            radius = d[2]
        else:
            anchor = d[1] == "mark"
    return [], len(must) - len(compacted), missing, (radius, anchor, matched[-1] if matched else None)


def worker(w, *args):
    # Any exception ends this worker's remaining cuts: a failure of the run, with its traceback,
    # never a smaller run that passes (the count of cuts judged is compared with those asked for).
    try:
        work_cuts(w, *args)
    except BaseException as e:
        with lock:
            traceback.print_exc()
            check(False, f"worker {w} stopped: {type(e).__name__}: {e}")


def examine(w, dev, where, cut, runtime, cut_mnt, inside_note=None):
    """One cut card: it mounts, the recap holds every receipted decision by its identity and
    nothing sent after the cut, and the box starts on it and restores the last decision there.
    The box runs on `dev` (its start's own writes go there). Returns True when judged."""
    global checked, lost, failed_starts, sabotaged
    why = None
    if fs == "ext4-nojournal":
        # Without a journal nothing puts the card's metadata right at a mount: the boot's check
        # does (e2fsck -p, as Debian checks a file system at boot). What it cannot repair unasked
        # is a failed start.
        p = subprocess.run(["e2fsck", "-f", "-p", dev], capture_output=True, text=True)
        if p.returncode >= 4:
            why = f"e2fsck -f -p exit {p.returncode}: {(p.stdout + p.stderr).strip()[-300:]}"
    why = why or mount_card(dev, cut_mnt)
    if why:
        with lock:
            check(False, f"{where}: the file system does not mount: {why}")
            failed_starts += 1
        return True
    j = os.path.join(cut_mnt, "journal")
    first_segment_there = os.path.exists(os.path.join(j, "journal-0000000000000001.log"))
    if inside_note:
        # What a cut inside a rotation or a deletion left: the segments on the card.
        try:
            held_ = sorted(int(n[8:-4], 16) for n in os.listdir(j) if n.startswith("journal-") and n.endswith(".log"))
        except OSError:
            held_ = []
        print(f"power-cut: {where}, inside a {inside_note}: the card holds segments "
              f"{', '.join(map(str, held_)) or 'none'}", flush=True)
    # The box starts on the card while the recap reads it. It starts with the box's own segment
    # size, so its start cuts a torn tail and adds a segment, never deletes one the recap is
    # about to read.
    tc = time.monotonic()
    boxp = start_box(j, runtime, test_segments=False)

    def recap():
        # Generous: on a loaded host under emulation a recap beside a starting box has taken
        # more than 30 s. One that never answers is its own failure, never "lost".
        rc, out = client(runtime, "recap", "--json", "--since", "100000h", "--journal", j, timeout=180)
        if rc == 1:
            return rc, []   # no journal the recap can read: it holds no decision
        try:
            return rc, [x["says"] for x in json.loads(out)["notes"]] if rc == 0 else None
        except (ValueError, KeyError):
            return rc, None
    rc, notes = recap()
    unread = notes is None
    seen = [x for x in notes or [] if x.startswith(("Alert radius:", "Anchor marked", "Anchor released"))]
    if sabotage == "lost-release":
        # Test-only (scripts/test-powercut.sh --sabotage lost-release): the card lost its last
        # "Anchor released" where an earlier one is still there.
        rel = [k for k, x in enumerate(seen) if x == "Anchor released"]
        if len(rel) >= 2:
            del seen[rel[-1]]
            with lock:
                sabotaged += 1
    # Every receipted decision is there, each by its own identity, and nothing that was never
    # sent (the rebuilt card is the card as it was, not a later one).
    problems, judged, missing, expect = judge(seen, cut, first_segment_there)
    s = wait_answering(boxp, runtime)
    tc = spent("check", tc)
    stop(boxp, runtime)
    with lock:
        if unread:
            check(False, f"{where}: recap could not read the card (exit {rc})")
        else:
            checked += judged
            lost += len(missing)
            for p in problems:
                check(False, f"{where}: {p}")
            if not check(not missing, f"{where}: {len(missing)} of {judged} receipted decisions lost, first {missing[:1]}"):
                # What the card held, to tell a lost decision from a recap that could not read it.
                listing = sh("ls", "-la", j, check_rc=False).stdout.strip().replace("\n", "; ")
                print(f"  recap exit {rc}, {len(seen)} decisions, last {seen[-3:]}; journal: {listing}", flush=True)
            if not check(s is not None, f"{where}: the box did not start and answer"):
                failed_starts += 1
            else:
                if expect is not None and expect[0] is not None:
                    check(f"{s['alert_radius_m']:g}" == expect[0],
                          f"{where}: restored alert radius {s['alert_radius_m']}, the last decision on the card is {expect[2]}")
                if expect is not None and expect[1] is not None:
                    check((s.get("anchor") is not None) == expect[1],
                          f"{where}: restored anchor {s.get('anchor')}, the last decision on the card is {expect[2]}")
                bad = [f["says"] for f in s.get("faults", []) if f["kind"] == "journal" and f["says"].startswith("Journal:")]
                if not check(not bad, f"{where}: the journal was damaged by the cut: {bad}"):
                    failed_starts += 1
    if unread:
        libc.umount2(cut_mnt.encode(), 0)
    else:
        umount(cut_mnt)
    spent("detach", tc)
    return True


def apply_log(dst, entries_, log_path, upto):
    """Writes log entries 0..upto onto the open device or image `dst`."""
    with open(log_path, "rb") as log:
        for k in range(upto + 1):
            flags, sector, nr, where = entries_[k]
            if flags & MARK or nr == 0:
                continue
            dst.seek(sector * sectorsize)
            if flags & DISCARD:
                dst.write(bytes(nr * sectorsize))
            else:
                log.seek(where)
                dst.write(log.read(nr * sectorsize))


def work_cuts(w, cuts, replay_img, cow_dev, rec_log, rec_dev):
    global done, done_again
    rdev = None
    name, rec = f"pccut{w}", f"pcrec{w}"
    cut_mnt, runtime = os.path.join(work, f"cut{w}"), os.path.join(work, f"cut-run{w}")
    os.makedirs(cut_mnt, exist_ok=True)
    applied = -1
    with open(logimg, "rb") as log, open(replay_img, "r+b") as img:
        for n, cut in cuts:
            # Test-only sabotage (scripts/test-powercut.sh --sabotage worker-exception): worker 1
            # raises a KeyError from its second cut on, as a status field that went missing would.
            if sabotage == "worker-exception" and w == 1 and n > 1:
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
            again = n in cut_again
            dev = dm_node(name)
            if again:
                # The box's start on this card (the mount's journal replay, recovery's
                # truncation and sync, its new segment) is itself logged, to be cut in its turn.
                sh("dmsetup", "create", "--noudevsync", rec, "--table", f"0 {size} log-writes {dev} {rec_dev}")
                dev = dm_node(rec)
            spent("attach", tc)
            examine(w, dev, f"cut {n} at log entry {cut}", cut, runtime, cut_mnt, inside_cut.get(n))
            with lock:
                done += 1
                if done % 100 == 0:
                    print(f"power-cut: {done} cuts so far, {lost} decisions lost, {failed_starts} failed starts", flush=True)
            if again:
                sh("dmsetup", "remove", "--noudevsync", rec)
            sh("dmsetup", "remove", "--noudevsync", name)
            if not again:
                continue
            # A second cut during the recovery of the first: the card as it was at the first cut,
            # plus the writes of the start on it up to a point among them.
            tc = time.monotonic()
            got = read_log(rec_log)
            if got is None:
                with lock:
                    check(False, f"cut {n}: the start on it left no log to cut again")
                    done_again += 1
                continue
            rentries, _ = got
            rwrites = [k for k, e in enumerate(rentries) if not e[0] & MARK]
            if not rwrites:
                with lock:
                    check(False, f"cut {n}: the start on it wrote nothing to cut")
                    done_again += 1
                continue
            p = random.Random(seed * 1000 + n).choice(rwrites)
            sh("dmsetup", "create", "--noudevsync", name, "--table", f"0 {size} snapshot {rdev} {cow_dev} N 8")
            dev = dm_node(name)
            with open(dev, "r+b") as d:
                apply_log(d, rentries, rec_log, p)
                d.flush()
                os.fsync(d.fileno())
            spent("attach", tc)
            examine(w, dev, f"cut {n} cut again at write {rwrites.index(p) + 1} of its start's {len(rwrites)}",
                    cut, runtime, cut_mnt)
            with lock:
                done_again += 1
            sh("dmsetup", "remove", "--noudevsync", name)


workers = []
for w in range(2):
    img = replay if w == 0 else replay1
    cow = os.path.join(work, f"cow{w}.img")
    with open(cow, "wb") as f:
        f.truncate(fs_mb << 20)
    share = [(n, c) for n, c in enumerate(candidates) if n % 2 == w]
    rec_log = os.path.join(work, f"reclog{w}.img")
    with open(rec_log, "wb") as f:
        f.truncate(128 << 20)
    workers.append(threading.Thread(target=worker, args=(w, share, img, losetup(cow), rec_log, losetup(rec_log))))
for t in workers:
    t.start()
for t in workers:
    t.join()

elapsed = time.monotonic() - started
# Every cut asked for ran and was judged, or the run fails.
check(done == cuts_wanted, f"{done} of {cuts_wanted} cuts asked for ran and were judged")
check(done_again == len(cut_again), f"{done_again} of {len(cut_again)} second cuts asked for ran and were judged")
print(f"power-cut: {done} cuts run of {cuts_wanted} asked for, {done_again} of them cut again during the start "
      f"on them, {checked} receipted decisions checked across them, {lost} lost, {failed_starts} failed starts, "
      f"in {elapsed:.0f} s")
print("power-cut: time per cut: " + ", ".join(f"{k} {v / max(done, 1):.2f} s" for k, v in phase.items())
      + f" (two workers; record {record_s:.0f} s)")
if sabotage == "lost-release":
    # A sabotage that touched no card proves nothing: scripts/test-powercut.sh reads this line.
    print(f"power-cut: sabotage lost-release dropped a release on {sabotaged} cards", flush=True)
if failures:
    print("power-cut: first failures:", *failures[:5], sep="\n  ")
print(f"power-cut: {passed} passed, {failed} failed")
sys.exit(0 if failed == 0 and passed > 0 and checked > 0 else 1)
