/*
 * Samples one gpio-sim line's value (sysfs) every millisecond and prints each change with its
 * CLOCK_MONOTONIC time: how the end-to-end test hears the buzzer of a running anchor-alert.
 *
 *   line-sampler VALUE_FILE SECONDS
 * Output: one line per change, "SECONDS.NNNNNN VALUE", starting with the value at start.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: line-sampler VALUE_FILE SECONDS\n"); return 2; }
    double end = now() + atof(argv[2]);
    int last = -1;
    struct timespec tick = { 0, 1000000 };
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (now() < end) {
        char c = '?';
        int fd = open(argv[1], O_RDONLY);
        if (fd < 0 || pread(fd, &c, 1, 0) != 1) { perror(argv[1]); return 1; }
        close(fd);
        int v = c == '1';
        if (v != last) { printf("%.6f %d\n", now(), v); last = v; }
        nanosleep(&tick, NULL);
    }
    return 0;
}
