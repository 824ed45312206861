#!/bin/bash
# The boot test's guest side (see image/boot-test/boot-test.sh for the host side).
#
# anchor.test=trivial on the kernel command line checks the machine itself with a stand-in
# notify service; anchor.test=full checks anchor-alert.service:
#   boot 1: comes up by itself and says ready; rings on the buzzer line when the boat drags;
#           a frozen loop (SIGSTOP) is restarted by the watchdog, and the new process rings
#           again; then asks the host for a hard reset ("RESET-NOW")
#   boot 2: comes up by itself again, its journal on the data partition, and rings again
# Each result is a line on /dev/virtio-ports/results: "ok NAME", "FAIL NAME: why",
# "time NAME SECONDS", and at the end "boot test: N passed, M failed".
set -u
OUT=/dev/virtio-ports/results
STATE=/var/lib/anchor-test
mkdir -p "$STATE" /run/anchor-test
MODE=$(sed -n 's/.*anchor\.test=\([a-z]*\).*/\1/p' /proc/cmdline)
# anchor.only=nmea (boot-test.sh's BOOT_TEST_ONLY): one boot, only the NMEA allow check.
ONLY=$(sed -n 's/.*anchor\.only=\([a-z]*\).*/\1/p' /proc/cmdline)
case $MODE in
    trivial) SERVICE=anchor-standin.service;;
    full) SERVICE=anchor-alert.service;;
    *) echo "boot test: no anchor.test= mode on the kernel command line" > $OUT; exit 0;;
esac
BOOT=1; [ -f "$STATE/after-reset" ] && BOOT=2
passed=$(cat "$STATE/passed" 2>/dev/null || echo 0)
failed=$(cat "$STATE/failed" 2>/dev/null || echo 0)

report() { echo "$*" > $OUT; echo "boot-test: $*"; }
ok() { passed=$((passed+1)); report "ok $*"; }
fail() { failed=$((failed+1)); report "FAIL $*"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
prop() { systemctl show -p "$2" --value "$1"; }
save() { echo "$passed" > "$STATE/passed"; echo "$failed" > "$STATE/failed"; sync; }
finish() {
    save
    report "journal of $SERVICE (last lines):"
    journalctl -b -u "$SERVICE" --no-pager -n 15 -o short-monotonic | sed 's/^/  /' > $OUT
    report "boot test: $passed passed, $failed failed"
    sync
    systemctl poweroff --force
    exit 0
}

# The service must have come up by itself (nobody started it), ready (Type=notify: active
# means READY=1 arrived).
wait_active() {   # wait_active SECONDS -> 0 when active
    local i
    for ((i = 0; i < $1 * 5; i++)); do
        [ "$(systemctl is-active "$SERVICE")" = active ] && return 0
        sleep 0.2
    done
    return 1
}

# Ringing: the buzzer line (GPIO17 on the simulated header) plays the alarm's rhythm, read
# straight from gpio-sim's sysfs by buzzer-listen.py every 2 ms (a shell loop forking `date`
# and `sleep` per sample read it once a second under emulation on a loaded host, slower than
# the alarm's 0.2 s edges, so it heard the rhythm wrong; on the arm64 twin's one core a fork of
# sleep alone outlasts a beep). It tells the alarm from the fault pattern and a chirp, and says
# what the line played when no alarm came.
buzzer_file() {
    local sys; sys=$(/usr/local/sbin/gpio-sim-chip.sh sysfs pi) || return 1
    echo "$sys/sim_gpio17/value"
}
rings_within() {   # rings_within SECONDS -> 0 when the line plays the alarm's rhythm
    local f heard rc
    f=$(buzzer_file) || { report "  no simulated header to listen to"; return 1; }
    heard=$(/usr/local/sbin/buzzer-listen.py "$f" "$1"); rc=$?
    report "  buzzer line: $heard"
    return $rc
}

# What the service costs, for the report (not checks): process start to READY=1 and the
# memory high-water mark of the running loop.
measure() {   # measure LABEL
    local pid start enter
    pid=$(prop "$SERVICE" MainPID)
    start=$(prop "$SERVICE" ExecMainStartTimestampMonotonic)
    enter=$(prop "$SERVICE" ActiveEnterTimestampMonotonic)
    report "time $1-start-to-ready $(awk -v a="$start" -v b="$enter" 'BEGIN{printf "%.2f", (b-a)/1e6}')"
    [ "$pid" != 0 ] && report "mem $1 $(grep -E '^Vm(HWM|RSS)' "/proc/$pid/status" | tr -s ' \t' ' ' | paste -sd' ')"
}

# The skipper's hands, on the simulated header: a long press of the button marks the anchor,
# sliding the switch to ARM arms. Both inputs idle high (pull-ups); pressed and armed are low.
# The box's own log (its journal lines) says when each took.
said() {   # said PATTERN SECONDS -> 0 once the service's log of this boot has a matching line
    local end=$(( $(date +%s) + $2 ))
    while [ "$(date +%s)" -lt "$end" ]; do
        journalctl -b -u "$SERVICE" --no-pager -o cat 2>/dev/null | grep -q -- "$1" && return 0
        sleep 2
    done
    return 1
}
# The pulls are written straight to gpio-sim's sysfs with builtins: under emulation a helper
# script can take seconds to start, and a 2 s hold must stay under the 5 s of a release.
pull_file() { echo "$(/usr/local/sbin/gpio-sim-chip.sh sysfs pi)/sim_gpio$1/pull"; }
long_press() {
    local f; f=$(pull_file 22)
    echo pull-down > "$f"; sleep 2
    echo pull-up > "$f"; sleep 1
}
mark_and_arm() {
    # A mark needs a usable GPS reading: give gpsd and the box a few fixes first.
    sleep 15
    long_press
    if ! said '^Holding' 60; then
        report "  no \"Holding\" 60 s after the long press; pressing again"
        long_press
        if ! said '^Holding' 60; then
            report "  still no \"Holding\"; the box, gpsd and the feeder said:"
            journalctl -b -u "$SERVICE" -u gpsd -u gps-feeder --no-pager -n 40 -o short-monotonic | sed 's/^/    /' > $OUT
        fi
    fi
    if said '^Anchor marked' 5; then ok "a long press of the button marks the anchor"
    else fail "a long press of the button did not mark the anchor"; fi
    echo pull-down > "$(pull_file 27)"
    # The switch stays where the skipper left it through any restart: remember it for the
    # header script, which rebuilds the simulated chip at every boot.
    touch "$STATE/switch-armed"; sync
    if said '^Alarm on' 30; then ok "sliding the switch to ARM arms the box"
    else fail "no \"Alarm on\" 30 s after sliding the switch to ARM"; fi
    # The loop's cost while it watches a moored boat: one GPS reading a second, so the CPU time
    # per second is the cost per reading (under emulation: the emulated machine's seconds).
    local c0 c1
    c0=$(prop "$SERVICE" CPUUsageNSec); sleep 30; c1=$(prop "$SERVICE" CPUUsageNSec)
    case "$c0$c1" in *[!0-9]*|'') report "cpu watching: no CPU accounting ($c0, $c1)";;
        *) report "cpu watching $(( (c1 - c0) / 30000 )) us per second (1 GPS reading a second)";; esac
}

# NMEA on with nmea.allow empty: the unit's IP filter (IPAddressDeny=any, IPAddressAllow=
# localhost, plus what the generator derives from the configuration) and the Systems Check must
# say the same thing. A plotter "on the LAN" is 192.0.2.27 on lo (plotter-connect.py); one on
# the box itself is 127.0.0.1. Then nmea.allow names its network, and both say so the other way.
# The configuration is changed as Docs/network.md says: daemon-reload (the generator runs
# again), then a restart.
LAN=192.0.2.27
nmea_row() {   # the Systems Check's NMEA line, as `anchor-alert check` prints it
    anchor-alert check 2>/dev/null | grep 'Is NMEA 0183 going out?' | tr -s ' '
}
nmea_setting() {   # nmea_setting LABEL CONFIG-LINES...: a restart with [nmea] as given
    local label=$1 i row=; shift
    cp "$STATE/anchor-alert.conf.orig" /etc/anchor-alert/anchor-alert.conf
    printf '%s\n' '' '[nmea]' "$@" >> /etc/anchor-alert/anchor-alert.conf
    systemctl daemon-reload
    systemctl restart "$SERVICE"
    if ! wait_active 120; then fail "$label: $SERVICE not active 120 s after its restart"; return 1; fi
    for ((i = 0; i < 60; i++)); do
        row=$(nmea_row); [ -n "$row" ] && break; sleep 1
    done
    report "  $label: the unit allows $(systemctl show -p IPAddressAllow --value "$SERVICE")"
    report "  $label: drop-in: $(grep -v '^#' /run/systemd/generator/anchor-alert.service.d/50-network-allow.conf 2>&1 | paste -sd' ') $(grep -o 'nmea.allow is empty.*' /run/systemd/generator/anchor-alert.service.d/50-network-allow.conf)"
    report "  $label: check says: ${row:-no NMEA row in 60 s}"
    NMEA_ROW=$row
    NMEA_LOCAL=$(/usr/local/sbin/plotter-connect.py 127.0.0.1 10110 10)
    NMEA_LAN=$(/usr/local/sbin/plotter-connect.py "$LAN" 10110 10)
    report "  $label: a plotter on the box: $NMEA_LOCAL; one at $LAN: $NMEA_LAN"
}
nmea_allow_agrees() {
    cp /etc/anchor-alert/anchor-alert.conf "$STATE/anchor-alert.conf.orig"
    nmea_setting "nmea.allow empty" 'enabled = true'
    if [ "$NMEA_LOCAL" = "connected from 127.0.0.1" ] && [ "$NMEA_LAN" != "connected from $LAN" ] &&
       grep -q "^Attention Is NMEA 0183 going out? Yes: TCP port 10110, [0-9]* listening; for this box only: nmea.allow is empty$" <<<"$NMEA_ROW"; then
        ok "NMEA on, nmea.allow empty: the unit lets in a plotter on the box, not one at $LAN, and the Systems Check says for this box only"
    else
        fail "NMEA on, nmea.allow empty: the unit and the Systems Check disagree (on the box: $NMEA_LOCAL; at $LAN: $NMEA_LAN; check: ${NMEA_ROW:-none})"
    fi
    nmea_setting "nmea.allow 192.0.2.0/24" 'enabled = true' 'allow = "192.0.2.0/24"'
    if [ "$NMEA_LAN" = "connected from $LAN" ] &&
       grep -q "^Ok Is NMEA 0183 going out? Yes: TCP port 10110, [0-9]* listening$" <<<"$NMEA_ROW"; then
        ok "NMEA on, nmea.allow 192.0.2.0/24: the unit lets in the plotter at $LAN, and the Systems Check is a plain Yes"
    else
        fail "NMEA on, nmea.allow 192.0.2.0/24: the unit and the Systems Check disagree (at $LAN: $NMEA_LAN; check: ${NMEA_ROW:-none})"
    fi
    cp "$STATE/anchor-alert.conf.orig" /etc/anchor-alert/anchor-alert.conf
}

report "boot $BOOT of the $MODE boot test, kernel $(uname -r), $(uptime_s) s since the kernel started"

if wait_active 180; then
    enter=$(prop "$SERVICE" ActiveEnterTimestampMonotonic)
    ok "boot $BOOT: $SERVICE came up by itself and said ready"
    report "time boot$BOOT-ready $(awk -v u="$enter" 'BEGIN{printf "%.1f", u/1e6}')"
    report "arch $(uname -m), root $(findmnt -n -o FSTYPE,OPTIONS / | cut -c1-60)"
else
    fail "boot $BOOT: $SERVICE not active 180 s after the runner started ($(systemctl is-active "$SERVICE"), $(prop "$SERVICE" Result))"
    finish
fi
status=$(prop "$SERVICE" StatusText)
if [ -n "$status" ]; then ok "boot $BOOT: status line \"$status\""; else fail "boot $BOOT: no status line"; fi

if findmnt -n -o SOURCE /var/lib/anchor-alert | grep -q vdb; then
    ok "boot $BOOT: journal directory is the data partition"
else
    fail "boot $BOOT: /var/lib/anchor-alert is not on the data partition"
fi
if [ "$MODE" = full ] && [ "$ONLY" = nmea ]; then
    nmea_allow_agrees
    finish
fi
if [ "$MODE" = full ]; then
    if systemctl show -p After anchor-alert.service | grep -q 'x2dalert\.mount' &&
       systemctl show -p After anchor-alert.service | grep -q 'gpsd.service'; then
        ok "boot $BOOT: the watch starts after gpsd and after the journal's partition is mounted"
    else
        fail "boot $BOOT: anchor-alert.service is not ordered after gpsd and the journal's mount: $(systemctl show -p After anchor-alert.service)"
    fi
fi
# The arm64 twin boots as a Pi with raspi-config's overlay file system: the root read-only
# under RAM (anchor.root=overlay), so a write to it is gone after a reset.
if grep -q 'anchor\.root=overlay' /proc/cmdline; then
    if [ "$(findmnt -n -o FSTYPE /)" = overlay ] && findmnt -n -o OPTIONS /media/root-ro | grep -q '^ro'; then
        ok "boot $BOOT: the root is read-only under a RAM overlay"
    else
        fail "boot $BOOT: the root is not the read-only overlay ($(findmnt -n -o FSTYPE,OPTIONS /))"
    fi
    if [ "$BOOT" = 1 ]; then date > /etc/anchor-test-overlay-probe; sync
    elif [ -e /etc/anchor-test-overlay-probe ]; then fail "boot 2: a file written to the root before the reset survived it"
    else ok "boot 2: what was written to the root before the reset is gone (only the journal's partition keeps data)"
    fi
fi
# The GPIO side as the box found it, for the report (not a check): the chips, the simulated
# header's lines by name (libgpiod 2's gpioinfo takes names, 1.6's gpiofind), gpio-sim loaded,
# its configfs chip, the header unit's word, and any GPIO fault the box said.
{
    echo "  gpio: $(gpiodetect 2>&1 | paste -sd';')"
    echo "  gpio: $(ls -l /dev/gpiochip* 2>&1 | awk '{print $1, $3, $4, $NF}' | paste -sd';')"
    echo "  gpio: $( (gpioinfo GPIO17 GPIO27 GPIO22 2>/dev/null || gpiofind GPIO17 2>&1) | tr -s ' \t' ' ' | paste -sd';')"
    echo "  gpio: module $(lsmod | awk '$1 == "gpio_sim" {print "gpio_sim loaded"}'), configfs $(ls /sys/kernel/config/gpio-sim 2>&1 | paste -sd' ')"
    journalctl -b -u anchor-test-gpio --no-pager -o cat | tail -2 | sed 's/^/  gpio: header unit: /'
    journalctl -b -u "$SERVICE" --no-pager -o cat | grep -E '^(Fault: )?(Buzzer|Arm switch|Button):' | head -3 | sed 's/^/  gpio: box: /'
} > $OUT
# Where the boot's time goes, under emulation: for the report, not a check. Bounded: on the
# arm64 twin under load `blame` took 4 to 5 minutes, an alarm's worth of waiting per boot.
systemd-analyze time 2>/dev/null | head -1 | sed 's/^/  /' > $OUT
timeout 60 systemd-analyze blame 2>/dev/null | head -6 | sed 's/^/  /' > $OUT

if [ "$BOOT" = 1 ]; then
    if [ "$MODE" = full ]; then
        mark_and_arm
        touch /run/anchor-test/go
        t0=$(date +%s)
        if rings_within 300; then
            ok "rings on the buzzer line when the boat drags"
            report "time drag-to-ring $(( $(date +%s) - t0 ))"
            measure boot1
        else
            fail "no ring on the buzzer line within 300 s of the departure"
        fi
    fi

    pid=$(prop "$SERVICE" MainPID)
    restarts=$(prop "$SERVICE" NRestarts)
    kill -STOP "$pid"
    t0=$(date +%s.%N)
    new=$pid
    for ((i = 0; i < 300; i++)); do
        new=$(prop "$SERVICE" MainPID)
        [ "$new" != 0 ] && [ "$new" != "$pid" ] && [ "$(systemctl is-active "$SERVICE")" = active ] && break
        sleep 0.2
    done
    t1=$(date +%s.%N)
    if [ "$new" != "$pid" ] && [ "$new" != 0 ] && [ "$(prop "$SERVICE" NRestarts)" -gt "$restarts" ] &&
       journalctl -b -u "$SERVICE" --no-pager | grep -qi 'watchdog timeout'; then
        ok "frozen loop (SIGSTOP) killed by the watchdog and restarted"
        report "time freeze-to-ready $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')"
    else
        fail "no watchdog restart after SIGSTOP (pid $pid -> $new, restarts $restarts -> $(prop "$SERVICE" NRestarts))"
    fi
    if [ "$MODE" = full ]; then
        if rings_within 60; then ok "rings again at once after the watchdog restart"
        else fail "silent after the watchdog restart (no alarm on the buzzer line within 60 s)"; fi
        # The journal held no clean stop: the start says so (Docs/journal-format.md).
        if said '^Box restarted after a power cut or crash' 20; then ok "after the watchdog restart the box says it restarted after a power cut or crash"
        else fail "no \"Box restarted after a power cut or crash\" after the watchdog restart"; fi
    fi

    touch "$STATE/after-reset"
    save
    report "RESET-NOW"
    sleep infinity
else
    if [ "$MODE" = full ]; then
        if rings_within 60; then ok "rings again after a hard reset (the alarm came back from the journal)"
        else fail "silent after a hard reset (no alarm on the buzzer line within 60 s)"; fi
        measure boot2
        if said '^Box restarted after a power cut or crash' 20; then ok "after a hard reset the box says it restarted after a power cut or crash"
        else fail "no \"Box restarted after a power cut or crash\" after a hard reset"; fi
        nmea_allow_agrees
    fi
    finish
fi
