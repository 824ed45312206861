#!/bin/bash
# Creates the simulated header (see anchor-test-gpio.service). The inputs idle high, as with
# the pull-ups of the real wiring: switch open (not armed, unless the test slid it to ARM before
# a reset), button not pressed.
set -eu
lines=()
for i in $(seq 0 27); do lines+=("GPIO$i"); done
chip=$(/usr/local/sbin/gpio-sim-chip.sh create pi "${lines[@]}")
# A switch slid to ARM before a power cut is still at ARM after it (closed: low).
if [ -f /var/lib/anchor-test/switch-armed ]; then
    /usr/local/sbin/gpio-sim-chip.sh pull pi GPIO27 down
else
    /usr/local/sbin/gpio-sim-chip.sh pull pi GPIO27 up
fi
/usr/local/sbin/gpio-sim-chip.sh pull pi GPIO22 up
udevadm settle -t 10 || true
# The box opens the chip as its own user, through the package's udev rule (group gpio). Under
# emulation udev can take longer than the settle above: the arm64 twin's box once started while
# the chip was still root 600, said "no permission" and took the lines only on its retry 10 s
# later. A Pi's header chip exists from the kernel's start; here the header waits for the rule.
for i in $(seq 600); do [ "$(stat -c %G "/dev/$chip")" = gpio ] && break; sleep 0.2; done
echo "simulated header on /dev/$chip ($(stat -c '%G %a' "/dev/$chip"))"
