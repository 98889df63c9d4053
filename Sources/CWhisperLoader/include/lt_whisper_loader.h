#ifndef LT_WHISPER_LOADER_H
#define LT_WHISPER_LOADER_H

// Loads whisper.cpp models without letting a damaged file take the process down: whisper.cpp's
// loaders throw C++ exceptions on some damaged files (std::out_of_range from map::at) and accept a
// truncated file without noticing that its reads came up short, and both leak what they had
// allocated when they refuse a file part-way (up to the whole model). These wrappers first walk
// the file as whisper.cpp will read it (every tensor known, once, with its shape and all its data,
// nothing after the last) and hand whisper.cpp only a file it will accept; then they read it
// through whisper.cpp's custom loader, count short reads, and catch every exception.
// Plain C on purpose: Swift sees opaque pointers, and whisper.h stays in the CWhisper module.

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

struct whisper_context;
struct whisper_vad_context;

/// How a load ended.
typedef enum lt_whisper_load_status {
    /// Loaded; the caller owns the context.
    LT_WHISPER_LOADED = 0,
    /// The file could not be opened for reading.
    LT_WHISPER_UNOPENABLE = 1,
    /// The file is not a model whisper.cpp would load (checked before it is read), or whisper.cpp
    /// refused it or threw while reading it.
    LT_WHISPER_REJECTED = 2,
    /// The file ends before all of the model is there (a truncated model).
    LT_WHISPER_TRUNCATED = 3,
} lt_whisper_load_status;

/// A Whisper model, CPU only, no flash attention, no state (`whisper_init_with_params_no_state`).
/// With `want_token_onsets`, when the model's alignment heads are known from its shape (tiny, base,
/// small, medium, each also English-only, large-v3 and large-v3-turbo), DTW token times are on:
/// every decode then also times each text token's onset (`t_dtw`), at the cost of one more decoder
/// pass per window, and `*token_onsets` is set to true; else false.
/// Returns NULL unless `*status` is `LT_WHISPER_LOADED`; free with `whisper_free`.
struct whisper_context *lt_whisper_load_model(const char *path, lt_whisper_load_status *status,
                                              bool want_token_onsets, bool *token_onsets);

/// A Silero VAD model, CPU only, one thread (`whisper_vad_init_with_params`).
/// Returns NULL unless `*status` is `LT_WHISPER_LOADED`; free with `whisper_vad_free`.
struct whisper_vad_context *lt_whisper_load_vad_model(const char *path, lt_whisper_load_status *status);

#ifdef __cplusplus
}
#endif

#endif
