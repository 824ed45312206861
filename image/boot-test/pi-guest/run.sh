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
listening22() {   # a TCP socket listening on port 22 (IPv4 or IPv6)
    awk 'NR > 1 && $4 == "0A" && $2 ~ /:0016$/ {found=1} END {exit !found}' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
access_said() { journalctl -b -u anchor-card-access.service --no-pager -o cat 2>/dev/null | grep -q -- "$1"; }
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
    # ssh and Wi-Fi are off: the boot partition has turned neither on.
    info "card access: $(journalctl -b -u anchor-card-access.service --no-pager -o cat | paste -sd'|')"
    if access_said '^ssh off' && [ "$(systemctl is-active ssh.service)" != active ] && ! listening22; then
        ok "ssh is off with no ssh file on the boot partition (ssh.service $(systemctl is-active ssh.service), nothing listens on port 22)"
    else fail "ssh is not off without an ssh file (ssh.service $(systemctl is-active ssh.service), port 22 $(listening22 && echo listening || echo closed))"; fi
    if access_said '^Wi-Fi off' && [ "$(systemctl is-active wpa_supplicant@wlan0.service)" != active ] && ! pgrep -x wpa_supplicant >/dev/null; then
        ok "Wi-Fi is off with no wpa_supplicant.conf on the boot partition (no wpa_supplicant running)"
    else fail "Wi-Fi is not off without wpa_supplicant.conf"; fi
    # The skipper turns both on for the next boot, on the boot partition: a public key in a file
    # named ssh, and a network in wpa_supplicant.conf.
    ssh-keygen -q -t ed25519 -N '' -C pi-boot-test -f /run/test-key && ssh-keygen -q -t ed25519 -N '' -C not-listed -f /run/other-key ||
        fail "ssh-keygen could not make the test's keys"
    # Before the reset: what the journal holds, and a file on the root (RAM: gone after it).
    ls -l --time-style=+%s /var/lib/anchor-alert | md5sum | cut -c1-8 > /run/j1
    j=$(ls /var/lib/anchor-alert | paste -sd' ')
    date > /etc/anchor-test-overlay-probe
    mount -o remount,rw /boot/firmware && echo "$j" > "$T/boot1-done" &&
        { echo "# the Pi boot test's key"; cat /run/test-key.pub; } > /boot/firmware/ssh &&
        cp /run/test-key /run/other-key "$T/" &&
        printf 'country=GB\nnetwork={\n\tssid="pi-boot-test"\n\tpsk="not a real network"\n}\n' > /boot/firmware/wpa_supplicant.conf &&
        sync && mount -o remount,ro /boot/firmware ||
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
    # ssh and Wi-Fi, turned on from the boot partition before the reset.
    info "card access: $(journalctl -b -u anchor-card-access.service --no-pager -o cat | paste -sd'|')"
    for ((i = 0; i < 120; i++)); do [ "$(systemctl is-active ssh.service)" = active ] && listening22 && break; sleep 1; done
    if access_said '^ssh on' && [ "$(systemctl is-active ssh.service)" = active ] && listening22; then
        ok "ssh is on with a key in the boot partition's ssh file (ssh.service active, port 22 listening)"
    else fail "ssh is not on with a key in the boot partition's ssh file (ssh.service $(systemctl is-active ssh.service))"; fi
    install -m 0600 "$T/test-key" /run/test-key; install -m 0600 "$T/other-key" /run/other-key
    sshopt=(-o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o ConnectTimeout=60 -o LogLevel=ERROR)
    got=$(timeout 120 ssh "${sshopt[@]}" -i /run/test-key root@127.0.0.1 cat /proc/sys/kernel/random/boot_id 2>&1)
    if [ "$got" = "$(cat /proc/sys/kernel/random/boot_id)" ]; then ok "root logs in over ssh with the key from the boot partition"
    else fail "no ssh login with the boot partition's key: $(echo "$got" | tail -2 | paste -sd'|')"; fi
    if timeout 120 ssh "${sshopt[@]}" -i /run/other-key root@127.0.0.1 true >/dev/null 2>&1; then fail "ssh let in a key that is not in the boot partition's ssh file"
    else ok "ssh refuses a key that is not in the boot partition's ssh file"; fi
    pw=$(sshd -T 2>/dev/null | awk '$1 == "passwordauthentication" || $1 == "kbdinteractiveauthentication" {print $1 "=" $2}' | paste -sd' ')
    case "$pw" in *=yes*|'') fail "sshd allows passwords or could not say ($pw)";; *) ok "sshd takes no password ($pw)";; esac
    hk=/var/lib/anchor-alert/.ssh-host-keys/ssh_host_ed25519_key
    if [ -s "$hk" ] && [ "$(findmnt -n -o SOURCE --target "$hk")" = "$(findfs LABEL=anchor-data)" ]; then
        ok "ssh's host key is kept on the journal's partition ($(ssh-keygen -l -f "$hk.pub" | cut -d' ' -f2))"
    else fail "ssh's host key is not on the journal's partition"; fi
    w=/etc/wpa_supplicant/wpa_supplicant-wlan0.conf
    if access_said '^Wi-Fi on' && grep -q 'ssid="pi-boot-test"' "$w" 2>/dev/null && [ "$(stat -c %a "$w")" = 600 ] &&
        [ "$(systemctl show -p LoadState --value wpa_supplicant@wlan0.service)" = loaded ] &&
        systemctl show -p WantedBy --value wpa_supplicant@wlan0.service | grep -q 'sys-subsystem-net-devices-wlan0.device'; then
        ok "Wi-Fi is on with the boot partition's wpa_supplicant.conf: wlan0's configuration is its networks (mode 600), wpa_supplicant@wlan0 starts when the chip's wlan0 appears"
    else fail "Wi-Fi is not set up from the boot partition's wpa_supplicant.conf ($(ls -l "$w" 2>&1))"; fi
    info "network: hostname $(hostname); systemd-networkd $(systemctl is-active systemd-networkd.service), systemd-resolved $(systemctl is-active systemd-resolved.service); wpa_supplicant@wlan0 $(systemctl is-active wpa_supplicant@wlan0.service)"
    say "mem boot2-ringing $(grep -E '^Vm(HWM|RSS)' /proc/$(prop $SERVICE MainPID)/status | tr -s ' \t' ' ' | paste -sd' ')"
    finish
fi
