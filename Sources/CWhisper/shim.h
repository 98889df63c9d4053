#ifndef LT_CWHISPER_SHIM_H
#define LT_CWHISPER_SHIM_H

// whisper.cpp 1.8.5, built from the pywhispercpp 1.5.1 source archive and installed under
// .deps/whisper by scripts/install-whisper.sh.
#include <whisper.h>

/// whisper.cpp and ggml log to stderr by default, which would corrupt the live view:
/// this callback drops every message.
static void lt_whisper_drop_log(enum ggml_log_level level, const char *text, void *user_data) {
    (void)level; (void)text; (void)user_data;
}

/// Silences whisper.cpp's and ggml's logging for the whole process.
static inline void lt_whisper_silence_logs(void) {
    whisper_log_set(lt_whisper_drop_log, NULL);
}

#endif
