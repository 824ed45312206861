#!/usr/bin/env bash
# Block-level power cuts (Docs/journal-format.md, "What the power-cut test proves"): in the test
# VM the journal is on ext4 on a dm-log-writes device; the real `anchor-alert run` takes decisions
# over its control socket; the card is rebuilt as it stood at flush points and between them, and
# on each image every receipted decision must be there, by its identity, and the box must start.
#   scripts/test-powercut.sh          16 decisions, 16 cuts (4 cut again) of the debug build
#   scripts/test-powercut.sh --full   200 decisions, 1000 cuts of the release build, the one the
#                                     package ships (-c release --static-swift-stdlib, as
#                                     image/build-deb.sh builds it, sharing its build directory),
#                                     then the sabotage table (--matrix)
# POWER_CUT_BINARY=path tests another build (the broken-build demonstration in the doc).
# POWER_CUT_DECISIONS=N records at least N decisions instead of 16 (200 with --full): half in
# each night, and each night goes on (at most 24 more) until a segment has filled and rotated
# (the first) and an old segment has been deleted (the second), since how many bytes a decision
# writes depends on how fast the machine records (a slow recording writes more track). The run
# FAILS when the recording holds no rotation or no deletion, or no cut point falls inside them;
# cuts inside the first rotation and the first deletion are always among those run.
# Ends with "test-powercut: N passed, M failed"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
decisions=16 cuts=16 limit=5400 full=0 again=4
# Under emulation most of a cut is the box starting and the recap reading the card: the release
# build does both two to three times faster than the debug one (measured in the VM: a start to
# its status file 1.4 to 2.2 s against 2.7 to 9 s, a recap 0.5 to 1.6 s against 1.5 to 6 s).
# About six writes reach the card per decision: 150 decisions left 899 cut points, so 1,000
# cuts need 200.
# Each run records two box starts on one card: a first night on an empty card, a torn tail
# left at its end, then a restart on that card (its recovery's truncation and sync, a new
# segment) and a second night. The box's segments are 512 bytes there (its test-only
# ANCHOR_ALERT_TEST_SEGMENT_BYTES; POWER_CUT_SEGMENT_BYTES=N for another size), so segments fill,
# rotate and the oldest are deleted while the log records (POWER_CUT_DECISIONS above).
# --writeback: ext4 with data=writeback. --fs xfs|f2fs|vfat|ext4-nojournal: the card on XFS,
# F2FS, FAT32 or ext4 made without its journal, checked by e2fsck -f -p before each mount
# (xfsprogs, f2fs-tools, dosfstools). --no-writeback: the kernel's periodic writeback off while
# the log records (the card gets only what a sync forces).
# --sabotage NAME: a proof that the cuts catch NAME (Docs/proofs.md, "Sabotage");
# the run must then fail, and this script says whether it did. worker-exception and
# lost-release break the harness (scripts/power-cut.py reads POWER_CUT_SABOTAGE); the others
# break the journal in a copy of the sources built under $SABOTAGE_DIR: nothing the box ships
# reads a sabotage switch.
# --matrix: the sabotage table (Docs/proofs.md): the box as it is on each file system, and each
# sabotage on the file systems listed for it, each a run of this script; `--full` runs it after
# its 1,000 cuts. It fails when the box as it is fails anywhere, or a sabotage is caught on none
# of its file systems, except no-directory-sync: none of these four file systems loses a new
# file's directory entry that the file's own fdatasync reached the card after, so the
# table prints that it is caught nowhere and leaves its proof to the unit tests on the simulated
# file system (JournalTests), which forget a creation no directory sync followed. FAT (--fs vfat)
# loses it, but the box as it is loses receipted decisions on FAT and on ext4 without its
# journal (--fs ext4-nojournal) too: they are not in the table (Docs/proofs.md).
sabotage="" ext4_data=ordered fs=ext4 matrix=0 writeback=on
while [ $# -gt 0 ]; do
    case "$1" in
        --full) decisions=200 cuts=1000 limit=18000 full=1 matrix=1 again=10 ;;
        --matrix) matrix=2 ;;
        --writeback) ext4_data=writeback ;;
        --no-writeback) writeback=off ;;
        --fs) fs=${2:-}; shift ;;
        --sabotage) sabotage=${2:-}; shift ;;
        *) echo "test-powercut: unknown option $1"; exit 2 ;;
    esac
    shift
done
decisions=${POWER_CUT_DECISIONS:-$decisions}
# A sabotage in the table is cut at every flush point and more (POWER_CUT_CUTS): with 16 an
# even spread, whether a cut falls just after a rotation's unsynced commit or where the card
# still holds two releases depends on how far the recording got, and a sabotage went uncaught.
cuts=${POWER_CUT_CUTS:-$cuts}
case "$cuts" in ''|*[!0-9]*) echo "test-powercut: POWER_CUT_CUTS=$cuts is not a number"; exit 2 ;; esac
case "$decisions" in ''|*[!0-9]*) echo "test-powercut: POWER_CUT_DECISIONS=$decisions is not a number"; exit 2 ;; esac
case "$fs" in
    ext4) ;;
    ext4-nojournal) [ "$ext4_data" = ordered ] || { echo "test-powercut: --writeback needs ext4's journal"; exit 2; } ;;
    xfs|f2fs|vfat) [ "$ext4_data" = ordered ] || { echo "test-powercut: --writeback is ext4's"; exit 2; }
              command -v "mkfs.$fs" >/dev/null || { echo "test-powercut: FAILED: no mkfs.$fs (apt-get install xfsprogs / f2fs-tools / dosfstools)"; echo "test-powercut: 0 passed, 1 failed"; exit 1; } ;;
    *) echo "test-powercut: unknown file system '$fs' (ext4, ext4-nojournal, xfs, f2fs, vfat)"; exit 2 ;;
esac
# A sabotage of the journal: the file, the line as it is, the line as the sabotage has it.
mutant=()
case "$sabotage" in
    ""|worker-exception|lost-release) ;;
    no-data-sync) mutant=(Sources/Journal/PosixFileSystem.swift
        '    func syncData() throws { try translating(.sync, path) { try fd.syncData() } }'
        '    func syncData() throws {}') ;;
    no-directory-sync) mutant=(Sources/Journal/PosixFileSystem.swift
        '        try translating(.syncDirectory, path) { try Files.syncDirectory(path) }'
        '        _ = path') ;;
    no-rotation-sync) mutant=(Sources/Journal/Journal.swift
        '        try active!.file.syncData()'
        '        if !started { try active!.file.syncData() }') ;;
    recovery-truncates-wrongly) mutant=(Sources/Journal/Journal+Open.swift
        '                    try file.truncate(to: summary.validEnd)'
        '                    try file.truncate(to: max(0, summary.validEnd - 1))') ;;
    *) echo "test-powercut: unknown sabotage '$sabotage' (worker-exception, lost-release, no-data-sync, no-directory-sync, no-rotation-sync, recovery-truncates-wrongly)"; exit 2 ;;
esac
# The rows: sabotage (none: the box as it is), then the file systems it runs on.
MATRIX=(
    "none ext4 ext4-writeback xfs f2fs"
    "worker-exception ext4"
    "lost-release ext4"
    "no-data-sync ext4"
    "no-rotation-sync ext4"
    "recovery-truncates-wrongly ext4"
    "no-directory-sync ext4 ext4-writeback xfs f2fs"
)
run_matrix() {
    local bad=0 row name f args out verdict any
    echo "test-powercut: the sabotage table"
    for row in "${MATRIX[@]}"; do
        read -r name fss <<<"$row"
        any=0
        for f in $fss; do
            args=()
            [ "$name" = none ] || args+=(--sabotage "$name")
            case "$f" in ext4) ;; ext4-writeback) args+=(--writeback) ;; *) args+=(--fs "$f") ;; esac
            if [ "$name" = none ]; then out=$("$0" "${args[@]}" 2>&1); else out=$(POWER_CUT_CUTS=${POWER_CUT_CUTS:-100} "$0" "${args[@]}" 2>&1); fi
            rc=$?
            verdict=$(grep -E '^test-powercut: [0-9]+ passed, [0-9]+ failed$' <<<"$out" | tail -1)
            if [ "$name" = none ]; then
                [ "$rc" -eq 0 ] && v=passes || { v=FAILS; bad=$((bad + 1)); }
            elif grep -q "sabotage $name: caught" <<<"$out"; then
                v=caught; any=1
            else
                v="not caught"
            fi
            echo "test-powercut: table: $name on $f: $v (${verdict#test-powercut: })"
        done
        if [ "$name" = no-directory-sync ] && [ "$any" = 0 ]; then
            echo "test-powercut: table: sabotage $name is caught on none of: $fss (its proof: swift test --filter JournalTests)"
        elif [ "$name" != none ] && [ "$any" = 0 ]; then
            echo "test-powercut: table: FAILED: sabotage $name is caught on none of: $fss"
            bad=$((bad + 1))
        fi
    done
    echo "test-powercut: the sabotage table: $bad failed"
    [ "$bad" -eq 0 ]
}
if [ "$matrix" = 2 ]; then run_matrix; exit; fi
vm=../shared/vm/run-in-vm.sh
fail() { echo "test-powercut: FAILED: $*"; echo "test-powercut: 0 passed, 1 failed"; exit 1; }
[ -x "$vm" ] || fail "no test VM at $vm"
binary=${POWER_CUT_BINARY:-}
if [ ${#mutant[@]} -gt 0 ]; then
    # The sabotaged copy: the sources as they are, one line changed, checked to have changed (a
    # copy that still syncs would pass and prove nothing). Timestamps kept, so a second
    # sabotage rebuilds only what changed.
    src=${SABOTAGE_DIR:-/var/tmp/aa-powercut-sabotage}
    mkdir -p "$src" || fail "no directory $src"
    # The sources replaced whole: a file an earlier run copied and this tree has since moved or
    # removed would be built too ("multiple producers"). The build directory stays.
    rm -rf "$src/Sources" "$src/Tests" || fail "can't clear the old sources in $src"
    cp -rp Package.swift Sources Tests "$src/" || fail "can't copy the sources to $src"
    file=$src/${mutant[0]}
    n=$(grep -cxF -- "${mutant[1]}" "$file")
    [ "$n" = 1 ] || fail "sabotage $sabotage: the line to change is in ${mutant[0]} $n times, not once"
    NEW=${mutant[2]} OLD=${mutant[1]} /usr/bin/python3 -c '
import os, sys
p = sys.argv[1]; s = open(p).read().split("\n")
open(p, "w").write("\n".join(os.environ["NEW"] if x == os.environ["OLD"] else x for x in s))' "$file"
    grep -qxF -- "${mutant[2]}" "$file" || fail "sabotage $sabotage: the change did not take"
    echo "test-powercut: sabotage $sabotage: ${mutant[0]}: $(sed 's/^ *//' <<<"${mutant[2]}")"
    log=$(mktemp)
    (cd "$src" && swift build --product anchor-alert) >"$log" 2>&1 ||
        { tail -20 "$log"; rm -f "$log"; fail "the sabotaged anchor-alert does not build"; }
    rm -f "$log"
    binary=$src/.build/debug/anchor-alert
elif [ -z "$binary" ]; then
    log=$(mktemp)
    if [ "$full" = 1 ]; then
        # image/build-deb.sh's flags and directory: the package's binary, built once for both.
        . image/lib.sh
        swift build -c release --static-swift-stdlib "${RELEASE_LINK_FLAGS[@]}" \
            --product anchor-alert --scratch-path .build/release-static >"$log" 2>&1 ||
            { tail -20 "$log"; rm -f "$log"; fail "anchor-alert does not build (release)"; }
        binary=.build/release-static/release/anchor-alert
    else
        swift build --product anchor-alert >"$log" 2>&1 || { tail -20 "$log"; rm -f "$log"; fail "anchor-alert does not build"; }
        binary=.build/debug/anchor-alert
    fi
    rm -f "$log"
fi
[ -x "$binary" ] || fail "no binary at $binary"
# Its own copy, where the VM sees it (the guest has its own /tmp): a rebuild during the run
# must not pull the binary from under it.
copy=$(mktemp -d /var/tmp/aa-powercut.XXXXXX) || fail "no directory for the binary's copy"
cp "$binary" "$copy/anchor-alert" || fail "can't copy $binary"
out=$(mktemp)
for attempt in 1 2; do
    POWER_CUT_SABOTAGE=$sabotage POWER_CUT_EXT4_DATA=$ext4_data POWER_CUT_FS=$fs POWER_CUT_WRITEBACK=$writeback \
    POWER_CUT_SEGMENT_BYTES=${POWER_CUT_SEGMENT_BYTES:-512} POWER_CUT_AGAIN_EVERY=$again \
    VM_PASS_ENV="${VM_PASS_ENV:-} POWER_CUT_SABOTAGE POWER_CUT_EXT4_DATA POWER_CUT_FS POWER_CUT_WRITEBACK POWER_CUT_SEGMENT_BYTES POWER_CUT_AGAIN_EVERY" \
    VM_TIMEOUT=${VM_TIMEOUT:-$limit} "$vm" "/usr/bin/python3 scripts/power-cut.py $copy/anchor-alert $decisions $cuts ${POWER_CUT_SEED:-2026}" 2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    # 125: the VM did not boot (under emulation on a busy host its kernel can miss the timer
    # check and panic). That is not the journal's doing: boot once more, and say so.
    [ "$rc" -eq 125 ] && [ "$attempt" -eq 1 ] || break
    echo "test-powercut: the VM did not boot (exit 125); trying once more"
done
summary=$(grep -E '^power-cut: [0-9]+ passed, [0-9]+ failed$' "$out" | tail -1)
touched=$(grep -E '^power-cut: sabotage lost-release dropped a release on [0-9]+ cards$' "$out" | tail -1 | sed -E 's/.* on ([0-9]+) cards$/\1/')
rm -rf "$out" "$copy"
[ -n "$summary" ] || fail "the power-cut run printed no result (VM exit $rc)"
p=$(echo "$summary" | sed -E 's/^power-cut: ([0-9]+) passed.*/\1/')
f=$(echo "$summary" | sed -E 's/.* ([0-9]+) failed$/\1/')
[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
echo "test-powercut: $p passed, $f failed"
ok=0
[ "$rc" -eq 0 ] && [ "$f" -eq 0 ] && [ "$p" -gt 0 ] && ok=1
if [ "$matrix" = 1 ]; then
    run_matrix || ok=0
fi
if [ -n "$sabotage" ]; then
    # A sabotage run proves something only when the cuts fail.
    if [ "$ok" = 1 ]; then
        echo "test-powercut: sabotage $sabotage: NOT caught (the cuts passed)"; exit 1
    fi
    # A harness sabotage that touched no card failed for another reason: not a catch.
    if [ "$sabotage" = lost-release ] && [ "${touched:-0}" -eq 0 ]; then
        echo "test-powercut: sabotage $sabotage: NOT caught (no card held two releases to drop one from)"; exit 1
    fi
    echo "test-powercut: sabotage $sabotage: caught (the cuts failed)"; exit 0
fi
[ "$ok" = 1 ]
