# Sourced by make-image.sh (amd64) and make-arm64-image.sh: what both twins' roots get beyond
# their base, so the two machines are checked with the same files and units.
put_test_files() {   # put_test_files ROOT CONSOLE RUNNER...: RUNNER runs the root's own programs
    local root=$1 console=$2 here shared; shift 2
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
    shared=$(shared_dir)
    # The image's own settings, exactly as the Pi image gets them.
    "$here/../system/install-system-files.sh" "$root" >&2
    # The test's stand-ins and its runner.
    cp -r "$here/guest/rootfs/." "$root/"
    install -m 755 "$shared/vm/gpio-sim-chip.sh" "$root/usr/local/sbin/gpio-sim-chip.sh"
    mkdir -p "$root/usr/local/share/anchor-test" "$root/var/lib/anchor-test"
    grep '^\$GPRMC' "$shared/data/gps/avnav/segments/nmea-20130630_L7478-9454_leaving-berth.log" \
        > "$root/usr/local/share/anchor-test/drag.nmea"
    "$@" "$root" systemctl enable anchor-test-gpio.service gps-feeder.service anchor-boot-test.service \
        anchor-standin.service gpsd.service >/dev/null 2>&1 || die "could not enable the test's units"
    # No login prompts, no network time, no scrub of LVM snapshots (there are none).
    "$@" "$root" systemctl mask getty@tty1.service "serial-getty@$console.service" getty-static.service \
        systemd-timesyncd.service e2scrub_reap.service >/dev/null 2>&1 || true
    # Every Pi OS image has these; minbase has none, and without them "localhost" (gpsd's host)
    # does not resolve.
    printf '%s\n' "127.0.0.1 localhost" "::1 localhost ip6-localhost ip6-loopback" "127.0.1.1 anchor-twin" > "$root/etc/hosts"
    echo anchor-twin > "$root/etc/hostname"
}
