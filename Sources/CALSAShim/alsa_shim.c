#include <alsa/asoundlib.h>
#include "alsa_shim.h"

static void aa_alsa_quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void aa_alsa_silence_errors(void) {
    snd_lib_error_set_handler(aa_alsa_quiet);
}
