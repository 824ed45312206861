/*
 * Exercises the GPIO shim (Sources/CGPIOShim) from C, so that the same checks run against
 * libgpiod v1 and v2 builds of it. Without arguments: only what needs no GPIO (the API
 * version, a missing chip). With a gpio-sim chip made by scripts/test-gpio.sh inside the VM
 * (lines buzzer, arm-switch, button): requests, values, edges, busy.
 *
 *   shim-check EXPECTED_API [CHIP SYSFS_DIR]
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gpio_shim.h"

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static void sim_write(const char *sysfs, int offset, const char *attr, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/sim_gpio%d/%s", sysfs, offset, attr);
    int fd = open(path, O_WRONLY);
    if (fd < 0 || write(fd, text, strlen(text)) < 0) { perror(path); exit(2); }
    close(fd);
}

static int sim_value(const char *sysfs, int offset) {
    char path[512], c = '?';
    snprintf(path, sizeof path, "%s/sim_gpio%d/value", sysfs, offset);
    int fd = open(path, O_RDONLY);
    if (fd < 0 || read(fd, &c, 1) != 1) { perror(path); exit(2); }
    close(fd);
    return c == '1';
}

int main(int argc, char **argv) {
    int expected = argc > 1 ? atoi(argv[1]) : 0;
    CHECK(aa_gpio_api_version() == expected, "api %d, expected %d", aa_gpio_api_version(), expected);
    CHECK(aa_gpio_chip_check("gpiochip-none-such") == -ENOENT, "missing chip: %d", aa_gpio_chip_check("gpiochip-none-such"));
    aa_gpio_request *r = NULL;
    int rc = aa_gpio_request_output("/nonexistent/gpiochip0", 0, "anchor-alert", 0, &r);
    CHECK(rc == -ENOENT && r == NULL, "request on a missing chip: %d", rc);

    if (argc > 3) {
        const char *chip = argv[2], *sysfs = argv[3];
        CHECK(aa_gpio_chip_num_lines(chip) == 3, "num lines %d", aa_gpio_chip_num_lines(chip));
        CHECK(aa_gpio_find_line(chip, "button") == 2, "find button: %d", aa_gpio_find_line(chip, "button"));
        CHECK(aa_gpio_find_line(chip, "no-such-line") == -ENOENT, "find missing: %d", aa_gpio_find_line(chip, "no-such-line"));

        aa_gpio_request *out = NULL;
        rc = aa_gpio_request_output(chip, 0, "anchor-alert", 1, &out);
        CHECK(rc == 0 && out, "request output: %d", rc);
        if (out) {
            CHECK(sim_value(sysfs, 0) == 1, "initial value 1 from the first instant");
            CHECK(aa_gpio_set_value(out, 0) == 0 && sim_value(sysfs, 0) == 0, "set 0");
            CHECK(aa_gpio_set_value(out, 1) == 0 && sim_value(sysfs, 0) == 1, "set 1");
            aa_gpio_request *again = NULL;
            rc = aa_gpio_request_output(chip, 0, "other", 0, &again);
            CHECK(rc == -EBUSY && again == NULL, "second request of a held line: %d", rc);
            aa_gpio_release(out);
            CHECK(sim_value(sysfs, 0) == 0, "released: gpio-sim returns the line to its pull (down)");
        }
        rc = aa_gpio_request_output(chip, 7, "anchor-alert", 0, &out);
        CHECK(rc == -EINVAL, "offset past the end: %d", rc);

        aa_gpio_request *in = NULL;
        rc = aa_gpio_request_input(chip, 1, "anchor-alert", 1, &in);
        CHECK(rc == 0 && in, "request input: %d", rc);
        if (in) {
            CHECK(aa_gpio_get_value(in) == 1, "pull-up bias reads high: %d", aa_gpio_get_value(in));
            aa_gpio_edge edges[16];
            CHECK(aa_gpio_read_edges(in, edges, 16) == -EAGAIN, "nothing pending: never blocks");
            /* One change at a time, each awaited: gpio-sim's simulated interrupt coalesces
             * changes that come faster than it runs (a burst of three pulls within a
             * millisecond gave one edge on v2 and two, both "falling", on v1, whose direction
             * is read from the line when its IRQ thread runs). The driver never trusts a
             * burst: it reads the line once the contact has settled. */
            const char *pulls[3] = { "pull-down", "pull-up", "pull-down" };
            struct timespec t0;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            uint64_t start = (uint64_t)t0.tv_sec * 1000000000ull + (uint64_t)t0.tv_nsec, last = start;
            for (int i = 0; i < 3; i++) {
                sim_write(sysfs, 1, "pull", pulls[i]);
                struct pollfd p = { .fd = aa_gpio_request_fd(in), .events = POLLIN };
                CHECK(poll(&p, 1, 2000) == 1, "poll sees edge %d", i);
                int n = aa_gpio_read_edges(in, edges, 16);
                CHECK(n == 1, "edge %d: read %d", i, n);
                if (n < 1) continue;
                int rising = i == 1;
                printf("edge %d: %s at +%.3f ms\n", i, edges[0].rising ? "rising" : "falling",
                       (double)(edges[0].timestamp_ns - start) / 1e6);
                CHECK(edges[0].rising == rising, "edge %d direction", i);
                CHECK(edges[0].timestamp_ns >= last && edges[0].timestamp_ns - start < 5000000000ull,
                      "stamped on CLOCK_MONOTONIC, in order: %llu after %llu",
                      (unsigned long long)edges[0].timestamp_ns, (unsigned long long)last);
                last = edges[0].timestamp_ns;
            }
            CHECK(aa_gpio_get_value(in) == 0, "reads low after");
            CHECK(aa_gpio_set_value(in, 1) < 0, "an input can't be driven");
            aa_gpio_release(in);
        }
    }
    printf("shim-check (libgpiod v%d): %s\n", aa_gpio_api_version(), failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
