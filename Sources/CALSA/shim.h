#ifndef LT_CALSA_SHIM_H
#define LT_CALSA_SHIM_H
#include <alsa/asoundlib.h>

/// ALSA's error handler type is variadic, which Swift cannot implement: this no-op handler
/// keeps alsa-lib from printing its own messages over ours (we report the error code instead).
static void lt_alsa_silent_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void lt_alsa_silence_errors(void) {
    snd_lib_error_set_handler(lt_alsa_silent_handler);
}
#endif
