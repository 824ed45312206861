#ifndef ANCHOR_ALERT_GPIO_SHIM_H
#define ANCHOR_ALERT_GPIO_SHIM_H
/*
 * The one place that knows libgpiod v1 (1.6, Debian 12) from v2 (2.x, Pi OS trixie).
 * Everything above it (Sources/Drivers/GPIO*.swift) sees only this API.
 *
 * Conventions: every int-returning call returns a value >= 0 on success and -errno on
 * failure (never -1 with errno). A chip is named by its path ("/dev/gpiochip0") or by its
 * device name ("gpiochip0", looked up under /dev). A request holds one line and owns what
 * it needs (its chip, its event buffer): release it and nothing else stays open.
 * Values are physical levels (1 high, 0 low): polarity is decided above, not here.
 */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aa_gpio_request aa_gpio_request;

/* One edge seen by the kernel on a requested input line. */
typedef struct {
    /* CLOCK_MONOTONIC, stamped by the kernel when the edge happened (not when it was read). */
    uint64_t timestamp_ns;
    /* 1: rising (the line went high), 0: falling. */
    int rising;
} aa_gpio_edge;

/* 1 for libgpiod v1, 2 for v2, decided when this file was compiled. */
int aa_gpio_api_version(void);

/* Opens and closes the chip: 0, or -ENOENT (no such chip), -EACCES, ... */
int aa_gpio_chip_check(const char *chip);

/* Number of lines of the chip, or -errno. */
int aa_gpio_chip_num_lines(const char *chip);

/* The offset of the line called `name` on `chip`, or -ENOENT if the chip has no such line. */
int aa_gpio_find_line(const char *chip, const char *name);

/* Requests one output line driven to `initial` (0 or 1) from the first instant.
 * -EBUSY if another consumer holds it. */
int aa_gpio_request_output(const char *chip, unsigned int offset, const char *consumer,
                           int initial, aa_gpio_request **out);

/* Requests one input line with both-edge events stamped on CLOCK_MONOTONIC, with the internal
 * pull-up when `pull_up` is 1, or the line's bias left as it is when 0 (external resistors).
 * Its descriptor (aa_gpio_request_fd) is non-blocking and becomes readable (POLLIN) on an edge. */
int aa_gpio_request_input(const char *chip, unsigned int offset, const char *consumer,
                          int pull_up, aa_gpio_request **out);

/* The descriptor to poll for edges. Owned by the request: never close it. */
int aa_gpio_request_fd(const aa_gpio_request *request);

/* Reads up to `max` pending edges, oldest first. Returns how many (>= 1), -EAGAIN when none is
 * pending, or -errno. Never blocks. */
int aa_gpio_read_edges(aa_gpio_request *request, aa_gpio_edge *edges, unsigned int max);

/* The line's current level (0 or 1), or -errno. */
int aa_gpio_get_value(aa_gpio_request *request);

/* Drives an output line to `value` (0 or 1). 0 or -errno. */
int aa_gpio_set_value(aa_gpio_request *request, int value);

/* Gives the line back to the kernel and frees the request. NULL is allowed. */
void aa_gpio_release(aa_gpio_request *request);

#ifdef __cplusplus
}
#endif
#endif
