#!/bin/bash
# The Pi boot test's runner inside the card (see ../pi-boot-test.sh, the host side). It is not
# part of the image: the test puts it on its copy of the card's boot partition and starts it
# with systemd.run= on the kernel command line QEMU passes (QEMU's raspi3b has no firmware to
# read cmdline.txt). It checks what only the inside can see and says on the console, one line
# each, "PI-TEST ok ...", "PI-TEST FAIL ...", "PI-TEST info ...", and asks the host to act:
# "PI-TEST DRAG-NOW" (the feeder moves the boat), "PI-TEST LISTEN NAME SECONDS" (the host reads
# the buzzer's GPIO level through QEMU), "PI-TEST RESET-NOW" (system_reset).
set -u
T=/boot/firmware/anchor-test
SERVICE=anchor-alert.service
BOOT=1; [ -f "$T/boot1-done" ] && BOOT=2
passed=0 failed=0
say() { echo "PI-TEST $*" > /dev/console; }
ok() { passed=$((passed+1)); say "ok boot $BOOT: $*"; }
fail() { failed=$((failed+1)); say "FAIL boot $BOOT: $*"; }
info() { say "info boot $BOOT: $*"; }
up() { cut -d' ' -f1 /proc/uptime; }
prop() { systemctl show -p "$2" --value "$1"; }
st() { anchor-alert status --json 2>/dev/null | python3 "$T/status-field.py" | awk -v k="$1" '$1 == k {sub(/^[^ ]* /, ""); print}'; }
said() {   # said PATTERN SECONDS: the box's log of this boot has a matching line
    local end=$(( $(date +%s) + $2 ))
    while [ "$(date +%s)" -lt "$end" ]; do
        journalctl -b -u "$SERVICE" --no-pager -o cat 2>/dev/null | grep -q -- "$1" && return 0
        sleep 2
    done
    return 1
}
wait_active() {
    local i
    for ((i = 0; i < $1; i++)); do
        [ "$(systemctl is-active "$SERVICE")" = active ] && return 0
        (( i % 60 == 59 )) && info "waiting for $SERVICE at $(up) s: $(systemctl is-active "$SERVICE"); jobs: $(systemctl list-jobs --no-legend 2>&1 | head -6 | tr -s ' ' | paste -sd'|')"
        sleep 1
    done
    return 1
}
finish() {
    info "the box's log (last lines): $(journalctl -b -u "$SERVICE" --no-pager -o cat | tail -8 | paste -sd'|')"
    say "guest: $passed passed, $failed failed"
    say "END"
    exit 0
}
info "runner started $(up) s after the kernel, kernel $(uname -r), $(tr -d '\0' < /proc/device-tree/model)"

# systemd reached the box: the service active means READY=1 arrived (Type=notify).
if wait_active 900; then
    ok "systemd started anchor-alert.service by itself and it said ready ($(awk -v u="$(prop $SERVICE ActiveEnterTimestampMonotonic)" 'BEGIN{printf "%.1f", u/1e6}') s after the kernel)"
else
    fail "anchor-alert.service not active 900 s after the runner started ($(systemctl is-active $SERVICE), $(prop $SERVICE Result)): $(systemctl --failed --no-legend | paste -sd'|')"
    finish
fi
src=$(findmnt -n -o SOURCE,FSTYPE,OPTIONS /var/lib/anchor-alert)
if [ "$(findmnt -n -o SOURCE /var/lib/anchor-alert)" = "$(findfs LABEL=anchor-data)" ]; then ok "the journal's directory is the card's partition anchor-data ($src)"
else fail "/var/lib/anchor-alert is not the partition anchor-data (${src:-not a mount})"; fi
if [ "$(findmnt -n -o FSTYPE /)" = overlay ] && findmnt -n -o OPTIONS /media/root-ro | grep -q '^ro'; then ok "the root is anchor-root read-only under a RAM overlay"
else fail "the root is not the read-only overlay ($(findmnt -n -o FSTYPE,OPTIONS /))"; fi
if findmnt -n -o FSTYPE,OPTIONS /boot/firmware | grep -q '^vfat *ro'; then ok "the boot partition is mounted read-only at /boot/firmware"
else fail "the boot partition is not mounted read-only ($(findmnt -n -o FSTYPE,OPTIONS /boot/firmware))"; fi

# The configuration in force is the boot partition's: the test's copy says radius = 37.
r=$(st radius)
if [ "$(readlink -f /etc/anchor-alert/anchor-alert.conf)" = /boot/firmware/anchor-alert.conf ] && [ "${r%.*}" = 37 ]; then
    ok "the boot partition's anchor-alert.conf is in force (the box's alert radius is $r m, as it says)"
else fail "the boot partition's anchor-alert.conf is not in force (radius ${r:-none}, the link $(readlink /etc/anchor-alert/anchor-alert.conf))"; fi

# gpsd reads the NMEA the host feeds into the mini UART (GPIO14/15): the device it reads is
# the aux UART's tty, reached through udev's /dev/serial0 rule, and it has a fix.
ser=$(readlink -f /dev/serial0)
info "/dev/serial0 -> ${ser:-none} ($(udevadm info -q property -n /dev/serial0 2>/dev/null | grep -E '^ID_PATH=' | head -1))"
g=$(timeout 200 python3 "$T/gpsd-fix.py" 180); rc=$?
info "gpsd: $(echo "$g" | paste -sd'|')"
if [ "$rc" = 0 ] && [ -n "$ser" ] && echo "$g" | grep -q "^fix .* $ser\$"; then ok "gpsd reads the NMEA fed into the mini UART: fix from $ser (/dev/serial0)"
else fail "gpsd has no fix from the UART ${ser:-(no /dev/serial0)} within 180 s"; fi

info "gpio: $(gpiodetect 2>&1 | paste -sd';') | $(gpioinfo GPIO17 GPIO27 GPIO22 2>&1 | tr -s ' \t' ' ' | paste -sd';')"
info "watchdog: $(cat /sys/class/watchdog/watchdog0/identity 2>/dev/null || echo none); $(journalctl -b -o cat _PID=1 | grep -i -m1 'watchdog' || echo 'systemd said nothing of a watchdog')"
info "spi: $(ls /dev/spidev* 2>&1 | paste -sd' '); sound: $(cat /proc/asound/cards 2>/dev/null | head -1 || echo none)"
info "faults: $(st faults)"

if [ "$BOOT" = 1 ]; then
    # First verdict: the box judged its first GPS reading (anything but can't judge).
    for ((i = 0; i < 300; i++)); do v=$(st verdict); [ -n "$v" ] && [ "$v" != cant_judge ] && [ "$v" != None ] && break; sleep 1; done
    info "first verdict \"$v\" at $(up) s after the kernel"
    say "time boot1-first-verdict $(up)"
    # Mark: the CLI (QEMU's raspi3b cannot press the button: GPIO inputs are not driven).
    # The arm switch's line reads low in QEMU (no pull-ups modelled), which is "closed":
    # the default wiring's ARM. So the mark brings the alarm on.
    m=
    for ((i = 0; i < 20; i++)); do m=$(anchor-alert mark 2>&1) && break; sleep 5; done
    info "mark: $(echo "$m" | paste -sd'|')"
    if said '^Anchor marked' 20; then ok "anchor-alert mark marks the anchor"; else fail "no \"Anchor marked\" after anchor-alert mark"; fi
    if said '^Alarm on' 30; then ok "the box armed: \"Alarm on\" (the switch's line reads ARM under QEMU)"
    else fail "no \"Alarm on\" after the mark (switch line: $(gpioinfo GPIO27 2>&1 | tr -s ' \t' ' '))"; fi
    for ((i = 0; i < 120; i++)); do v=$(st verdict); [ "$v" = holding ] && break; sleep 1; done
    if [ "$v" = holding ]; then ok "holding while moored (verdict holding, alarm $(st alarm))"; else fail "not holding while moored (verdict $v)"; fi
    say "LISTEN moored 40 silent"; sleep 45
    pid=$(prop $SERVICE MainPID)
    c0=$(prop $SERVICE CPUUsageNSec); sleep 30; c1=$(prop $SERVICE CPUUsageNSec)
    say "mem boot1 $(grep -E '^Vm(HWM|RSS)' /proc/$pid/status | tr -s ' \t' ' ' | paste -sd' ')"
    case "$c0$c1" in *[!0-9]*|'') ;; *) say "cpu watching $(( (c1 - c0) / 30000 )) us per second";; esac
    say "DRAG-NOW"
    t0=$(date +%s)
    for ((i = 0; i < 400; i++)); do a=$(st alarm); [ "$a" = ringing ] && break; sleep 1; done
    if [ "$a" = ringing ]; then ok "the box says it is ringing $(( $(date +%s) - t0 )) s after the boat started to drag (verdict $(st verdict))"
    else fail "no ringing 400 s after the drag started (verdict $(st verdict), alarm $a)"; fi
    say "LISTEN drag 40 alarm"; sleep 45
    say "mem boot1-ringing $(grep -E '^Vm(HWM|RSS)' /proc/$(prop $SERVICE MainPID)/status | tr -s ' \t' ' ' | paste -sd' ')"
    # kill -9: systemd restarts it (Restart=always) and it rings again from its journal.
    pid=$(prop $SERVICE MainPID); n0=$(prop $SERVICE NRestarts)
    kill -9 "$pid"; t0=$(date +%s.%N)
    for ((i = 0; i < 600; i++)); do
        new=$(prop $SERVICE MainPID)
        [ "$new" != 0 ] && [ "$new" != "$pid" ] && [ "$(systemctl is-active $SERVICE)" = active ] && break
        sleep 0.5
    done
    if [ "$new" != "$pid" ] && [ "$(prop $SERVICE NRestarts)" -gt "$n0" ]; then
        ok "after kill -9 systemd restarted the box, ready again in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s"
    else fail "no restart after kill -9 (pid $pid -> $new)"; fi
    for ((i = 0; i < 120; i++)); do a=$(st alarm); [ "$a" = ringing ] && break; sleep 1; done
    say "LISTEN after-kill 40 alarm"; sleep 45
    if said '^Box restarted after a power cut or crash' 30; then ok "after kill -9 the box says it restarted after a power cut or crash"
    else fail "no \"Box restarted after a power cut or crash\" after kill -9"; fi
    # Before the reset: what the journal holds, and a file on the root (RAM: gone after it).
    ls -l --time-style=+%s /var/lib/anchor-alert | md5sum | cut -c1-8 > /run/j1
    j=$(ls /var/lib/anchor-alert | paste -sd' ')
    date > /etc/anchor-test-overlay-probe
    mount -o remount,rw /boot/firmware && echo "$j" > "$T/boot1-done" && sync && mount -o remount,ro /boot/firmware ||
        fail "could not note boot 1 on the boot partition"
    info "journal before the reset: $j"
    say "guest: $passed passed, $failed failed"
    sync
    say "RESET-NOW"
    sleep infinity
else
    [ -e /etc/anchor-test-overlay-probe ] && fail "a file written to the root before the reset survived it" ||
        ok "what was written to the root before the reset is gone (only the journal's partition keeps data)"
    before=$(cat "$T/boot1-done"); now=$(ls /var/lib/anchor-alert | paste -sd' ')
    missing=
    for f in $before; do [ -e "/var/lib/anchor-alert/$f" ] || missing="$missing $f"; done
    if [ -n "$before" ] && [ -z "$missing" ]; then ok "the journal survived system_reset ($before)"
    else fail "the journal lost files in the reset:${missing:- none written before it} (now: $now)"; fi
    for ((i = 0; i < 300; i++)); do a=$(st alarm); [ "$a" = ringing ] && break; sleep 1; done
    say "time boot2-ringing $(up)"
    if [ "$a" = ringing ]; then ok "after system_reset the box rings again (verdict $(st verdict))"
    else fail "after system_reset the box is not ringing (verdict $(st verdict), alarm $a)"; fi
    say "LISTEN after-reset 40 alarm"; sleep 45
    if said '^Box restarted after a power cut or crash' 30; then ok "after system_reset the box says it restarted after a power cut or crash"
    else fail "no \"Box restarted after a power cut or crash\" after system_reset"; fi
    say "mem boot2-ringing $(grep -E '^Vm(HWM|RSS)' /proc/$(prop $SERVICE MainPID)/status | tr -s ' \t' ' ' | paste -sd' ')"
    finish
fi
