#include <gps.h>

/* What Swift cannot import from <gps.h> across the versions the box meets (3.22 on Debian 12,
 * 3.25 on Pi OS trixie): from API 14 the WATCH_* flags are casts to watch_t, a macro form the
 * importer does not promise to take. A function hides the difference. */
static inline unsigned int aa_gps_watch_json(void) {
    return (unsigned int)(WATCH_ENABLE | WATCH_JSON);
}

/* The API major version the headers declare, for diagnostics. */
static inline int aa_gps_api_major(void) {
    return GPSD_API_MAJOR_VERSION;
}
