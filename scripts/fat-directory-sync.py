#!/usr/bin/python3
"""What a directory fsync brings to the card on FAT (run in the test VM, as root):

    ../shared/vm/run-in-vm.sh 'python3 scripts/fat-directory-sync.py'

A FAT32 image (mkfs.vfat -F 32 -s 8, as scripts/power-cut.py --fs vfat makes the card) on a loop
device, the kernel's periodic writeback off: after each step it reads the image file itself,
which holds only what the loop device was written, and prints the journal directory's first
slots as they are there ("L" a long-name slot, a short name, "del" a deleted slot, "end" never
used). It shows what Docs/proofs.md says of FAT: a segment deleted and the directory synced is
still on the card, until a file's fdatasync writes the block that holds both entries.
"""
import os
import subprocess


def sh(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


sh("modprobe", "loop")
sh("modprobe", "vfat")
with open("/proc/sys/vm/dirty_writeback_centisecs", "w") as f:
    f.write("0\n")
img, mnt = "/tmp/fat-directory-sync.img", "/tmp/fat-directory-sync"
with open(img, "wb") as f:
    f.truncate(320 << 20)
sh("mkfs.vfat", "-F", "32", "-s", "8", img)
dev = sh("losetup", "-f", "--show", img).strip()
os.makedirs(mnt, exist_ok=True)
sh("mount", "-t", "vfat", dev, mnt)
j = os.path.join(mnt, "journal")
os.mkdir(j)


def sync_directory():
    fd = os.open(j, os.O_RDONLY | os.O_DIRECTORY)
    os.fsync(fd)
    os.close(fd)


def on_card(step):
    with open(img, "rb") as f:
        raw = f.read()
    # The directory's first cluster starts with its "." and ".." entries.
    k = raw.find(b".          \x10")
    while k >= 0 and raw[k + 32:k + 43] != b"..         ":
        k = raw.find(b".          \x10", k + 1)
    if k < 0:
        print(f"{step}: the directory's blocks are not on the card", flush=True)
        return
    slots = []
    for s in range(2, 12):
        e = raw[k + 32 * s:k + 32 * s + 32]
        slots.append("end" if e[0] == 0 else "del" if e[0] == 0xE5 else "L" if e[11] == 0x0F
                     else e[:8].decode(errors="replace").strip())
    print(f"{step}: {' '.join(slots)}", flush=True)


names = [os.path.join(j, f"journal-{n:016x}.log") for n in (1, 2)]
sync_directory()
on_card("mkdir, fsync(journal)")
a = os.open(names[0], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
os.write(a, b"x" * 100)
sync_directory()
on_card("segment 1 created and written, fsync(journal)")
os.fdatasync(a)
on_card("fdatasync(segment 1)")
b = os.open(names[1], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
os.write(b, b"x" * 100)
os.fdatasync(b)
on_card("segment 2 created, fdatasync(segment 2)")
os.close(a)
os.unlink(names[0])
sync_directory()
on_card("segment 1 deleted, fsync(journal)")
os.write(b, b"y")
os.fdatasync(b)
on_card("segment 2 appended, fdatasync(segment 2)")
os.close(b)
sh("umount", mnt)
sh("losetup", "-d", dev)
