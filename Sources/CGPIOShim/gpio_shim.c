#include <gpiod.h>
#include "gpio_shim.h"
/* v1's header defines GPIOD_LINE_BULK_MAX_LINES; v2's defines nothing but its include guard. */
int aa_gpio_api_version(void) {
#ifdef GPIOD_LINE_BULK_MAX_LINES
    return 1;
#else
    return 2;
#endif
}
