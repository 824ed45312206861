/*
 * libgpiod behind one small API (see include/gpio_shim.h). v1's header defines
 * GPIOD_LINE_BULK_MAX_LINES; v2's defines nothing but its include guard, so the macro tells the
 * two apart at compile time. Everything outside this file is version-blind.
 */
#define _GNU_SOURCE
#include <gpiod.h>
#include "gpio_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GPIOD_LINE_BULK_MAX_LINES
#define AA_GPIOD_V1 1
#else
#define AA_GPIOD_V2 1
#endif

/* The most edges one read hands back. A bouncing switch makes a handful per millisecond; the
 * kernel queues more (16 per line) and the loop comes back for the rest on its next turn. */
#define AA_EDGE_BATCH 16

int aa_gpio_api_version(void) {
#ifdef AA_GPIOD_V1
    return 1;
#else
    return 2;
#endif
}

/* -errno for the failure that just happened; libgpiod leaves errno at 0 on a few paths. */
static int aa_fail(void) { return errno > 0 ? -errno : -EIO; }

/* "gpiochip0" means "/dev/gpiochip0"; anything with a slash is a path already. */
static int aa_chip_path(const char *chip, char *path, size_t size) {
    if (chip == NULL || chip[0] == '\0') return -EINVAL;
    int n = strchr(chip, '/') ? snprintf(path, size, "%s", chip) : snprintf(path, size, "/dev/%s", chip);
    return (n < 0 || (size_t)n >= size) ? -ENAMETOOLONG : 0;
}

/* Makes an event descriptor safe to read after any poll wake-up: an empty read says EAGAIN
 * instead of blocking the one event loop. */
static int aa_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return -errno;
    return 0;
}

#ifdef AA_GPIOD_V1
/* ------------------------------------------------------------------ v1: libgpiod 1.x */

struct aa_gpio_request {
    /* In v1 a line belongs to its chip and closing the chip releases the line: the request
     * keeps its own chip open for as long as it holds the line. */
    struct gpiod_chip *chip;
    struct gpiod_line *line;
    int is_input;
};

static struct gpiod_chip *aa_open(const char *chip, int *err) {
    char path[PATH_MAX];
    int rc = aa_chip_path(chip, path, sizeof path);
    if (rc < 0) { *err = rc; return NULL; }
    errno = 0;
    struct gpiod_chip *c = gpiod_chip_open(path);
    if (c == NULL) *err = aa_fail();
    return c;
}

int aa_gpio_chip_check(const char *chip) {
    int err = 0;
    struct gpiod_chip *c = aa_open(chip, &err);
    if (c == NULL) return err;
    gpiod_chip_close(c);
    return 0;
}

int aa_gpio_chip_num_lines(const char *chip) {
    int err = 0;
    struct gpiod_chip *c = aa_open(chip, &err);
    if (c == NULL) return err;
    int n = (int)gpiod_chip_num_lines(c);
    gpiod_chip_close(c);
    return n;
}

int aa_gpio_find_line(const char *chip, const char *name) {
    int err = 0;
    struct gpiod_chip *c = aa_open(chip, &err);
    if (c == NULL) return err;
    errno = 0;
    struct gpiod_line *line = gpiod_chip_find_line(c, name);
    int rc = line ? (int)gpiod_line_offset(line) : (errno > 0 ? -errno : -ENOENT);
    gpiod_chip_close(c);
    return rc;
}

static int aa_request(const char *chip, unsigned int offset, const char *consumer, int input,
                      int initial, aa_gpio_request **out) {
    *out = NULL;
    int err = 0;
    struct gpiod_chip *c = aa_open(chip, &err);
    if (c == NULL) return err;
    errno = 0;
    struct gpiod_line *line = gpiod_chip_get_line(c, offset);
    if (line == NULL) { err = aa_fail(); gpiod_chip_close(c); return err; }
    errno = 0;
    int rc = input
        ? gpiod_line_request_both_edges_events_flags(line, consumer,
                                                     initial ? GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP : 0)
        : gpiod_line_request_output(line, consumer, initial ? 1 : 0);
    if (rc < 0) { err = aa_fail(); gpiod_chip_close(c); return err; }
    if (input && (err = aa_nonblocking(gpiod_line_event_get_fd(line))) < 0) {
        gpiod_chip_close(c);
        return err;
    }
    aa_gpio_request *r = calloc(1, sizeof *r);
    if (r == NULL) { gpiod_chip_close(c); return -ENOMEM; }
    r->chip = c;
    r->line = line;
    r->is_input = input;
    *out = r;
    return 0;
}

int aa_gpio_request_output(const char *chip, unsigned int offset, const char *consumer,
                           int initial, aa_gpio_request **out) {
    return aa_request(chip, offset, consumer, 0, initial, out);
}

int aa_gpio_request_input(const char *chip, unsigned int offset, const char *consumer,
                          int pull_up, aa_gpio_request **out) {
    /* For an input, aa_request's `initial` is the pull-up choice: an input drives nothing. */
    return aa_request(chip, offset, consumer, 1, pull_up ? 1 : 0, out);
}

int aa_gpio_request_fd(const aa_gpio_request *r) {
    /* v1 has a descriptor only for event requests; an output has nothing to poll. */
    return r->is_input ? gpiod_line_event_get_fd(r->line) : -EINVAL;
}

int aa_gpio_read_edges(aa_gpio_request *r, aa_gpio_edge *edges, unsigned int max) {
    struct gpiod_line_event events[AA_EDGE_BATCH];
    if (max > AA_EDGE_BATCH) max = AA_EDGE_BATCH;
    if (max == 0) return -EINVAL;
    errno = 0;
    int n = gpiod_line_event_read_multiple(r->line, events, max);
    if (n < 0) return aa_fail();
    if (n == 0) return -EAGAIN;
    for (int i = 0; i < n; i++) {
        /* Since Linux 5.7 the v1 uAPI stamps edges with ktime_get_ns(): CLOCK_MONOTONIC. */
        edges[i].timestamp_ns = (uint64_t)events[i].ts.tv_sec * 1000000000ull + (uint64_t)events[i].ts.tv_nsec;
        edges[i].rising = events[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
    }
    return n;
}

int aa_gpio_get_value(aa_gpio_request *r) {
    errno = 0;
    int v = gpiod_line_get_value(r->line);
    return v < 0 ? aa_fail() : v;
}

int aa_gpio_set_value(aa_gpio_request *r, int value) {
    errno = 0;
    return gpiod_line_set_value(r->line, value ? 1 : 0) < 0 ? aa_fail() : 0;
}

void aa_gpio_release(aa_gpio_request *r) {
    if (r == NULL) return;
    gpiod_line_release(r->line);
    gpiod_chip_close(r->chip);
    free(r);
}

#else
/* ------------------------------------------------------------------ v2: libgpiod 2.x */

struct aa_gpio_request {
    /* A v2 request lives on after its chip is closed: it is the only handle kept. */
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *buffer; /* inputs only */
    unsigned int offset;
};

static struct gpiod_chip *aa_open(const char *chip, int *err) {
    char path[PATH_MAX];
    int rc = aa_chip_path(chip, path, sizeof path);
    if (rc < 0) { *err = rc; return NULL; }
    errno = 0;
    struct gpiod_chip *c = gpiod_chip_open(path);
    if (c == NULL) *err = aa_fail();
    return c;
}

int aa_gpio_chip_check(const char *chip) {
    int err = 0;
    struct gpiod_chip *c = aa_open(chip, &err);
    if (c == NULL) return err;
    gpiod_chip_close(c);
    return 0;
}

int aa_gpio_chip_num_lines(const char *chip) {
    int err = 0;
    struct gpiod_chip *c = aa_open(chip, &err);
    if (c == NULL) return err;
    errno = 0;
    struct gpiod_chip_info *info = gpiod_chip_get_info(c);
    int n = info ? (int)gpiod_chip_info_get_num_lines(info) : aa_fail();
    gpiod_chip_info_free(info);
    gpiod_chip_close(c);
    return n;
}

int aa_gpio_find_line(const char *chip, const char *name) {
    int err = 0;
    struct gpiod_chip *c = aa_open(chip, &err);
    if (c == NULL) return err;
    errno = 0;
    int offset = gpiod_chip_get_line_offset_from_name(c, name);
    int rc = offset >= 0 ? offset : (errno > 0 ? -errno : -ENOENT);
    gpiod_chip_close(c);
    return rc;
}

static int aa_request(const char *chip, unsigned int offset, const char *consumer, int input,
                      int initial, aa_gpio_request **out) {
    *out = NULL;
    int err = 0;
    struct gpiod_chip *c = aa_open(chip, &err);
    if (c == NULL) return err;

    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    struct gpiod_line_config *line_cfg = gpiod_line_config_new();
    struct gpiod_request_config *req_cfg = gpiod_request_config_new();
    struct gpiod_line_request *request = NULL;
    struct gpiod_edge_event_buffer *buffer = NULL;
    aa_gpio_request *r = NULL;
    err = -ENOMEM;
    if (settings == NULL || line_cfg == NULL || req_cfg == NULL) goto done;

    errno = 0;
    if (input) {
        if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) < 0 ||
            gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH) < 0 ||
            gpiod_line_settings_set_bias(settings, initial ? GPIOD_LINE_BIAS_PULL_UP : GPIOD_LINE_BIAS_AS_IS) < 0 ||
            gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC) < 0) {
            err = aa_fail();
            goto done;
        }
    } else {
        if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT) < 0 ||
            gpiod_line_settings_set_output_value(
                settings, initial ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE) < 0) {
            err = aa_fail();
            goto done;
        }
    }
    if (gpiod_line_config_add_line_settings(line_cfg, &offset, 1, settings) < 0) { err = aa_fail(); goto done; }
    gpiod_request_config_set_consumer(req_cfg, consumer);

    errno = 0;
    request = gpiod_chip_request_lines(c, req_cfg, line_cfg);
    if (request == NULL) { err = aa_fail(); goto done; }
    if (input) {
        if ((err = aa_nonblocking(gpiod_line_request_get_fd(request))) < 0) goto done;
        errno = 0;
        buffer = gpiod_edge_event_buffer_new(AA_EDGE_BATCH);
        if (buffer == NULL) { err = aa_fail(); goto done; }
    }
    r = calloc(1, sizeof *r);
    if (r == NULL) { err = -ENOMEM; goto done; }
    r->request = request;
    r->buffer = buffer;
    r->offset = offset;
    request = NULL;
    buffer = NULL;
    *out = r;
    err = 0;

done:
    gpiod_edge_event_buffer_free(buffer);
    if (request) gpiod_line_request_release(request);
    gpiod_request_config_free(req_cfg);
    gpiod_line_config_free(line_cfg);
    gpiod_line_settings_free(settings);
    gpiod_chip_close(c);
    return err;
}

int aa_gpio_request_output(const char *chip, unsigned int offset, const char *consumer,
                           int initial, aa_gpio_request **out) {
    return aa_request(chip, offset, consumer, 0, initial, out);
}

int aa_gpio_request_input(const char *chip, unsigned int offset, const char *consumer,
                          int pull_up, aa_gpio_request **out) {
    /* For an input, aa_request's `initial` is the pull-up choice: an input drives nothing. */
    return aa_request(chip, offset, consumer, 1, pull_up ? 1 : 0, out);
}

int aa_gpio_request_fd(const aa_gpio_request *r) {
    return r->buffer ? gpiod_line_request_get_fd(r->request) : -EINVAL;
}

int aa_gpio_read_edges(aa_gpio_request *r, aa_gpio_edge *edges, unsigned int max) {
    if (r->buffer == NULL || max == 0) return -EINVAL;
    if (max > AA_EDGE_BATCH) max = AA_EDGE_BATCH;
    errno = 0;
    int n = gpiod_line_request_read_edge_events(r->request, r->buffer, max);
    if (n < 0) return aa_fail();
    if (n == 0) return -EAGAIN;
    for (int i = 0; i < n; i++) {
        struct gpiod_edge_event *e = gpiod_edge_event_buffer_get_event(r->buffer, (unsigned long)i);
        edges[i].timestamp_ns = gpiod_edge_event_get_timestamp_ns(e);
        edges[i].rising = gpiod_edge_event_get_event_type(e) == GPIOD_EDGE_EVENT_RISING_EDGE;
    }
    return n;
}

int aa_gpio_get_value(aa_gpio_request *r) {
    errno = 0;
    enum gpiod_line_value v = gpiod_line_request_get_value(r->request, r->offset);
    if (v == GPIOD_LINE_VALUE_ERROR) return aa_fail();
    return v == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
}

int aa_gpio_set_value(aa_gpio_request *r, int value) {
    errno = 0;
    int rc = gpiod_line_request_set_value(r->request, r->offset,
                                          value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
    return rc < 0 ? aa_fail() : 0;
}

void aa_gpio_release(aa_gpio_request *r) {
    if (r == NULL) return;
    gpiod_edge_event_buffer_free(r->buffer);
    gpiod_line_request_release(r->request);
    free(r);
}
#endif
