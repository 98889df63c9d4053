#ifndef LT_WHISPER_LOADER_H
#define LT_WHISPER_LOADER_H

// Loads whisper.cpp models without letting a damaged file take the process down: whisper.cpp's
// loaders throw C++ exceptions on some damaged files (std::out_of_range from map::at) and accept a
// truncated file without noticing that its reads came up short. These wrappers read the file
// through whisper.cpp's custom loader, count short reads, and catch every exception.
// Plain C on purpose: Swift sees opaque pointers, and whisper.h stays in the CWhisper module.

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
    /// whisper.cpp refused the file or threw while reading it.
    LT_WHISPER_REJECTED = 2,
    /// The file ended before whisper.cpp had read all it needed (a truncated model).
    LT_WHISPER_TRUNCATED = 3,
} lt_whisper_load_status;

/// A Whisper model, CPU only, no flash attention, no state (`whisper_init_with_params_no_state`).
/// Returns NULL unless `*status` is `LT_WHISPER_LOADED`; free with `whisper_free`.
struct whisper_context *lt_whisper_load_model(const char *path, lt_whisper_load_status *status);

/// A Silero VAD model, CPU only, one thread (`whisper_vad_init_with_params`).
/// Returns NULL unless `*status` is `LT_WHISPER_LOADED`; free with `whisper_vad_free`.
struct whisper_vad_context *lt_whisper_load_vad_model(const char *path, lt_whisper_load_status *status);

#ifdef __cplusplus
}
#endif

#endif
