// See include/lt_whisper_loader.h.
#include "lt_whisper_loader.h"

#include <whisper.h>

#include <cstdio>
#include <cstdlib>

namespace {

/// The file being read and whether it ended before whisper.cpp was done with it.
///
/// whisper.cpp finds the end of a model by reading the next tensor's header (three 4-byte fields)
/// past the end and then asking eof: those three empty reads are the only ones a whole file gives.
/// A read that gets part of what it asked for, any other read past the end, or more than three,
/// means the file was cut short (whisper.cpp would otherwise go on with zeros, and a file cut
/// before its first tensor even loads, with no weights).
struct ModelFile {
    FILE *file = nullptr;
    int readsPastEnd = 0;
    bool truncated = false;
};

size_t readModel(void *context, void *output, size_t size) {
    auto *model = static_cast<ModelFile *>(context);
    size_t got = std::fread(output, 1, size, model->file);
    if (got < size) {
        // whisper.cpp does not look at the count: leave no stale bytes behind.
        for (size_t index = got; index < size; ++index) static_cast<unsigned char *>(output)[index] = 0;
        if (got > 0 || size != 4 || ++model->readsPastEnd > 3) model->truncated = true;
    } else if (model->readsPastEnd > 0) {
        model->truncated = true;
    }
    return size;
}

bool endOfModel(void *context) {
    auto *model = static_cast<ModelFile *>(context);
    return std::feof(model->file) != 0;
}

/// whisper.cpp calls this when it is done; the wrapper closes the file itself, after an exception too.
void closeModel(void *) {}

/// ggml prints a backtrace before aborting, by running gdb on the process when gdb is installed
/// (slow, hundreds of lines, and it can hang); GGML_NO_BACKTRACE turns that off (ggml.c,
/// ggml_print_backtrace). A value the user set is kept.
void quietAborts() { setenv("GGML_NO_BACKTRACE", "1", 0); }

template <typename Context, typename Load, typename Free>
Context *load(const char *path, lt_whisper_load_status *status, Load loadWith, Free freeContext) {
    quietAborts();
    ModelFile model;
    model.file = std::fopen(path, "rb");
    if (model.file == nullptr) {
        *status = LT_WHISPER_UNOPENABLE;
        return nullptr;
    }
    whisper_model_loader loader = {};
    loader.context = &model;
    loader.read = readModel;
    loader.eof = endOfModel;
    loader.close = closeModel;
    Context *context = nullptr;
    bool threw = false;
    try {
        context = loadWith(&loader);
    } catch (...) {
        // The partly built context leaks (whisper.cpp gives no way to free it); a failed load
        // ends the command.
        threw = true;
        context = nullptr;
    }
    std::fclose(model.file);
    if (model.truncated) {
        if (context != nullptr) freeContext(context);
        *status = LT_WHISPER_TRUNCATED;
        return nullptr;
    }
    if (context == nullptr || threw) {
        *status = LT_WHISPER_REJECTED;
        return nullptr;
    }
    *status = LT_WHISPER_LOADED;
    return context;
}

}  // namespace

extern "C" struct whisper_context *lt_whisper_load_model(const char *path, lt_whisper_load_status *status) {
    return load<whisper_context>(
        path, status,
        [](whisper_model_loader *loader) {
            whisper_context_params params = whisper_context_default_params();
            params.use_gpu = false;
            params.flash_attn = false;
            return whisper_init_with_params_no_state(loader, params);
        },
        [](whisper_context *context) { whisper_free(context); });
}

extern "C" struct whisper_vad_context *lt_whisper_load_vad_model(const char *path, lt_whisper_load_status *status) {
    return load<whisper_vad_context>(
        path, status,
        [](whisper_model_loader *loader) {
            whisper_vad_context_params params = whisper_vad_default_context_params();
            params.n_threads = 1;
            params.use_gpu = false;
            return whisper_vad_init_with_params(loader, params);
        },
        [](whisper_vad_context *context) { whisper_vad_free(context); });
}
