// See include/lt_whisper_loader.h.
#include "lt_whisper_loader.h"

#include <whisper.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

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

// ---------------------------------------------------------------------------------------------
// The whole file checked before whisper.cpp sees it.
//
// whisper.cpp frees nothing when it refuses a model part-way: `whisper_vad_init_with_params`
// returns NULL with its context, hyperparameter arrays and weight buffers still allocated (a
// truncated Silero file left 0.7 MB each time), `whisper_init_with_params_no_state` deletes its
// context without the ggml contexts and weight buffers (up to the whole model, 150 MB for base),
// and a C++ exception from either leaks everything allocated so far. None of that can be freed
// from outside: the pointers never come back. So a file is walked first, as whisper.cpp will read
// it (ggml's legacy format: header, then tensor records to the end of the file), and handed over
// only when every check whisper.cpp makes after it starts allocating will pass: each tensor's name
// is one the model expects, once, with the shape its hyperparameters give, its data is all there,
// and the records end exactly at the end of the file with every tensor present.
// ---------------------------------------------------------------------------------------------

constexpr uint32_t ggmlFileMagic = 0x67676d6c;  // "ggml", GGML_FILE_MAGIC

/// Bytes per block and elements per block of the ggml types a model file may store its tensors
/// in (ggml's type traits); {0, 0} for any other value.
std::array<int64_t, 2> typeLayout(int32_t type) {
    switch (type) {
    case 0: return {4, 1};      // F32
    case 1: return {2, 1};      // F16
    case 2: return {18, 32};    // Q4_0
    case 3: return {20, 32};    // Q4_1
    case 6: return {22, 32};    // Q5_0
    case 7: return {24, 32};    // Q5_1
    case 8: return {34, 32};    // Q8_0
    case 10: return {84, 256};  // Q2_K
    case 11: return {110, 256}; // Q3_K
    case 12: return {144, 256}; // Q4_K
    case 13: return {176, 256}; // Q5_K
    case 14: return {210, 256}; // Q6_K
    case 30: return {2, 1};     // BF16
    default: return {0, 0};
    }
}

/// ne[0], ne[1], ne[2] of a tensor, as ggml counts them (the fastest-changing dimension first).
using Shape = std::array<int64_t, 3>;

struct Walk {
    FILE *file;
    long long size = 0;
    bool truncated = false;
    /// A Whisper model's hyperparameters as `whisperFileIsWhole` read them (n_vocab … ftype), so
    /// the loader need not open the file again for them; all 0 until read.
    int32_t whisperHyperparameters[11] = {};

    /// Reads one value; false (and `truncated`) when the file ends first.
    template <typename T> bool get(T &value) {
        if (std::fread(&value, sizeof(T), 1, file) == 1) return true;
        truncated = true;
        return false;
    }

    /// Skips `bytes`; false (and `truncated`) when fewer are left. A short stretch (a vocabulary
    /// word) is read through the buffer: a seek would cost a system call per word, 50,000 of them.
    bool skip(long long bytes) {
        long long at = ftello(file);
        if (bytes < 0 || at < 0) return false;
        if (bytes > size - at) {
            truncated = true;
            return false;
        }
        if (bytes <= 256) {
            char scratch[256];
            return std::fread(scratch, 1, static_cast<size_t>(bytes), file) == static_cast<size_t>(bytes);
        }
        return fseeko(file, bytes, SEEK_CUR) == 0;
    }

    /// Reads `count` 32-bit integers, each within [low, high].
    bool ints(int32_t *values, int count, int32_t low, int32_t high) {
        for (int index = 0; index < count; ++index) {
            if (!get(values[index]) || values[index] < low || values[index] > high) return false;
        }
        return true;
    }

    /// The tensor records up to the end of the file: every one named in `expected`, once, with
    /// that shape and all of its data, and none missing.
    bool tensors(const std::map<std::string, Shape> &expected) {
        std::map<std::string, bool> seen;
        while (true) {
            long long at = ftello(file);
            if (at == size) break;  // whisper.cpp's three reads past the end, then eof
            int32_t header[3];      // n_dims, name length, type
            if (!get(header[0]) || !get(header[1]) || !get(header[2])) return false;
            if (header[0] < 0 || header[0] > 4 || header[1] < 1 || header[1] > 256) return false;
            auto layout = typeLayout(header[2]);
            if (layout[0] == 0) return false;
            int64_t ne[4] = {1, 1, 1, 1};
            int64_t elements = 1;
            for (int index = 0; index < header[0]; ++index) {
                int32_t extent;
                if (!get(extent) || extent < 1) return false;
                ne[index] = extent;
                elements *= extent;
                if (elements > INT32_MAX) return false;  // whisper.cpp counts in 32 bits
            }
            std::string name(static_cast<size_t>(header[1]), '\0');
            if (std::fread(&name[0], 1, name.size(), file) != name.size()) {
                truncated = true;
                return false;
            }
            auto wanted = expected.find(name);
            if (wanted == expected.end() || seen.count(name) != 0) return false;
            if (ne[3] != 1 || Shape{ne[0], ne[1], ne[2]} != wanted->second) return false;
            seen[name] = true;
            if (elements % layout[1] != 0) return false;
            if (!skip(elements / layout[1] * layout[0])) return false;
        }
        return seen.size() == expected.size();
    }
};

/// The tensors of a Silero VAD model with these hyperparameters (whisper.cpp's VAD_TENSOR_NAMES
/// and the shapes `whisper_vad_init_with_params` gives them).
std::map<std::string, Shape> vadTensors(const int32_t in[4], const int32_t out[4], const int32_t kernel[4],
                                        int32_t hidden, int32_t finalIn) {
    std::map<std::string, Shape> tensors = {
        {"_model.stft.forward_basis_buffer", {256, 1, 258}},
        {"_model.decoder.rnn.weight_ih", {hidden, 4 * hidden, 1}},
        {"_model.decoder.rnn.bias_ih", {4 * hidden, 1, 1}},
        {"_model.decoder.rnn.weight_hh", {hidden, 4 * hidden, 1}},
        {"_model.decoder.rnn.bias_hh", {4 * hidden, 1, 1}},
        {"_model.decoder.decoder.2.weight", {finalIn, 1, 1}},
        {"_model.decoder.decoder.2.bias", {1, 1, 1}},
    };
    for (int layer = 0; layer < 4; ++layer) {
        std::string prefix = "_model.encoder." + std::to_string(layer) + ".reparam_conv.";
        tensors[prefix + "weight"] = {kernel[layer], in[layer], out[layer]};
        tensors[prefix + "bias"] = {out[layer], 1, 1};
    }
    return tensors;
}

/// A Silero VAD file as `whisper_vad_init_with_params` reads it.
bool vadFileIsWhole(Walk &walk) {
    uint32_t magic;
    if (!walk.get(magic) || magic != ggmlFileMagic) return false;
    int32_t typeLength;
    if (!walk.ints(&typeLength, 1, 0, 256) || !walk.skip(typeLength)) return false;
    int32_t version[5];  // major, minor, patch, n_window, n_context
    if (!walk.ints(version, 5, INT32_MIN, INT32_MAX)) return false;
    // whisper.cpp reads four encoder layers whatever the count says: anything else is not its model.
    int32_t layers;
    if (!walk.ints(&layers, 1, 4, 4)) return false;
    int32_t in[4], out[4], kernel[4];
    for (int layer = 0; layer < 4; ++layer) {
        if (!walk.ints(&in[layer], 1, 1, 65536) || !walk.ints(&out[layer], 1, 1, 65536)
            || !walk.ints(&kernel[layer], 1, 1, 65536)) return false;
    }
    int32_t sizes[4];  // lstm_input_size, lstm_hidden_size, final_conv_in, final_conv_out
    if (!walk.ints(sizes, 4, 1, 65536)) return false;
    return walk.tensors(vadTensors(in, out, kernel, sizes[1], sizes[2]));
}

/// The tensors of a Whisper model with these hyperparameters (whisper.cpp's ASR_TENSOR_NAMES and
/// the shapes `whisper_model_load` gives them).
std::map<std::string, Shape> whisperTensors(const int32_t h[11]) {
    const int64_t vocab = h[0], audioContext = h[1], audioState = h[2], audioLayers = h[4];
    const int64_t textContext = h[5], textState = h[6], textLayers = h[8], mels = h[9];
    std::map<std::string, Shape> tensors = {
        {"encoder.positional_embedding", {audioState, audioContext, 1}},
        {"encoder.conv1.weight", {3, mels, audioState}},
        {"encoder.conv1.bias", {1, audioState, 1}},
        {"encoder.conv2.weight", {3, audioState, audioState}},
        {"encoder.conv2.bias", {1, audioState, 1}},
        {"encoder.ln_post.weight", {audioState, 1, 1}},
        {"encoder.ln_post.bias", {audioState, 1, 1}},
        {"decoder.positional_embedding", {textState, textContext, 1}},
        {"decoder.token_embedding.weight", {textState, vocab, 1}},
        {"decoder.ln.weight", {textState, 1, 1}},
        {"decoder.ln.bias", {textState, 1, 1}},
    };
    // One attention block's tensors under `prefix` ("encoder.blocks.0.attn"), `s` wide.
    auto attention = [&](const std::string &prefix, const std::string &norm, int64_t s) {
        tensors[norm + ".weight"] = {s, 1, 1};
        tensors[norm + ".bias"] = {s, 1, 1};
        for (const char *part : {".query", ".key", ".value", ".out"}) {
            tensors[prefix + part + ".weight"] = {s, s, 1};
            if (std::string(part) != ".key") tensors[prefix + part + ".bias"] = {s, 1, 1};
        }
    };
    auto block = [&](const std::string &prefix, int64_t s) {
        tensors[prefix + "mlp_ln.weight"] = {s, 1, 1};
        tensors[prefix + "mlp_ln.bias"] = {s, 1, 1};
        tensors[prefix + "mlp.0.weight"] = {s, 4 * s, 1};
        tensors[prefix + "mlp.0.bias"] = {4 * s, 1, 1};
        tensors[prefix + "mlp.2.weight"] = {4 * s, s, 1};
        tensors[prefix + "mlp.2.bias"] = {s, 1, 1};
        attention(prefix + "attn", prefix + "attn_ln", s);
    };
    for (int64_t layer = 0; layer < audioLayers; ++layer) block("encoder.blocks." + std::to_string(layer) + ".", audioState);
    for (int64_t layer = 0; layer < textLayers; ++layer) {
        std::string prefix = "decoder.blocks." + std::to_string(layer) + ".";
        block(prefix, textState);
        attention(prefix + "cross_attn", prefix + "cross_attn_ln", textState);
    }
    return tensors;
}

/// A Whisper model file as `whisper_model_load` reads it.
bool whisperFileIsWhole(Walk &walk) {
    uint32_t magic;
    if (!walk.get(magic) || magic != ggmlFileMagic) return false;
    // n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer, n_text_ctx,
    // n_text_state, n_text_head, n_text_layer, n_mels, ftype
    int32_t *h = walk.whisperHyperparameters;
    if (!walk.ints(h, 11, 0, 1 << 20)) return false;
    if (h[4] < 1 || h[4] > 256 || h[8] < 1 || h[8] > 256 || h[2] != h[6]) return false;
    int32_t filters[2];  // n_mel, n_fft
    if (!walk.ints(filters, 2, 0, 4096) || !walk.skip(4LL * filters[0] * filters[1])) return false;
    int32_t words;
    if (!walk.ints(&words, 1, 0, 1 << 20)) return false;
    for (int32_t index = 0; index < words; ++index) {
        uint32_t length;
        if (!walk.get(length) || length > (1u << 16) || !walk.skip(length)) return false;
    }
    return walk.tensors(whisperTensors(h));
}

/// Walks the file at `path` with `check`: LT_WHISPER_LOADED when whisper.cpp may be given it.
/// `walk` keeps what the check read (its file is closed).
lt_whisper_load_status walkModel(const char *path, bool (*check)(Walk &), Walk &walk) {
    walk.file = std::fopen(path, "rb");
    if (walk.file == nullptr) return LT_WHISPER_UNOPENABLE;
    lt_whisper_load_status status = LT_WHISPER_REJECTED;
    if (fseeko(walk.file, 0, SEEK_END) == 0 && (walk.size = ftello(walk.file)) >= 0 && fseeko(walk.file, 0, SEEK_SET) == 0) {
        bool whole = check(walk);
        status = whole ? LT_WHISPER_LOADED : walk.truncated ? LT_WHISPER_TRUNCATED : LT_WHISPER_REJECTED;
    }
    std::fclose(walk.file);
    walk.file = nullptr;
    return status;
}

template <typename Context, typename Load, typename Free>
Context *load(const char *path, lt_whisper_load_status *status, Load loadWith, Free freeContext,
              bool (*check)(Walk &)) {
    quietAborts();
    Walk walk;
    *status = walkModel(path, check, walk);
    if (*status != LT_WHISPER_LOADED) return nullptr;
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
        context = loadWith(&loader, walk);
    } catch (...) {
        // Not reached for a file the walk passed; if it is, the partly built context leaks
        // (whisper.cpp gives no way to free it).
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

/// The alignment heads of the model whose hyperparameters are `h` (as `whisperFileIsWhole` reads
/// them), told apart by their shapes: the layers of encoder and decoder, the vocabulary (51864 for
/// the English-only models, 51865 multilingual, 51866 large-v3) and the mel bands (128 from large-v3
/// on). WHISPER_AHEADS_NONE for a model whose heads are not known by its shape (large-v1 and -v2
/// have the same shape and different heads).
whisper_alignment_heads_preset alignmentHeads(const int32_t h[11]) {
    const bool english = h[0] == 51864;
    const int32_t audioLayers = h[4], textLayers = h[8], mels = h[9];
    if (mels == 128) {
        if (audioLayers == 32 && textLayers == 32) return WHISPER_AHEADS_LARGE_V3;
        if (audioLayers == 32 && textLayers == 4) return WHISPER_AHEADS_LARGE_V3_TURBO;
        return WHISPER_AHEADS_NONE;
    }
    if (audioLayers != textLayers) return WHISPER_AHEADS_NONE;
    switch (textLayers) {
    case 4: return english ? WHISPER_AHEADS_TINY_EN : WHISPER_AHEADS_TINY;
    case 6: return english ? WHISPER_AHEADS_BASE_EN : WHISPER_AHEADS_BASE;
    case 12: return english ? WHISPER_AHEADS_SMALL_EN : WHISPER_AHEADS_SMALL;
    case 24: return english ? WHISPER_AHEADS_MEDIUM_EN : WHISPER_AHEADS_MEDIUM;
    default: return WHISPER_AHEADS_NONE;
    }
}

}  // namespace

extern "C" struct whisper_context *lt_whisper_load_model(const char *path, lt_whisper_load_status *status,
                                                         bool want_token_onsets, bool *token_onsets) {
    whisper_alignment_heads_preset heads = WHISPER_AHEADS_NONE;
    *token_onsets = false;
    whisper_context *context = load<whisper_context>(
        path, status,
        [&heads, want_token_onsets](whisper_model_loader *loader, const Walk &walk) {
            // The heads come from the hyperparameters the walk read: the file is read once for them.
            if (want_token_onsets) heads = alignmentHeads(walk.whisperHyperparameters);
            whisper_context_params params = whisper_context_default_params();
            params.use_gpu = false;
            params.flash_attn = false;
            // DTW over the alignment heads' cross-attention: each text token's onset (t_dtw).
            params.dtw_token_timestamps = heads != WHISPER_AHEADS_NONE;
            params.dtw_aheads_preset = heads;
            return whisper_init_with_params_no_state(loader, params);
        },
        [](whisper_context *context) { whisper_free(context); }, whisperFileIsWhole);
    *token_onsets = context != nullptr && heads != WHISPER_AHEADS_NONE;
    return context;
}

extern "C" struct whisper_vad_context *lt_whisper_load_vad_model(const char *path, lt_whisper_load_status *status) {
    return load<whisper_vad_context>(
        path, status,
        [](whisper_model_loader *loader, const Walk &) {
            whisper_vad_context_params params = whisper_vad_default_context_params();
            params.n_threads = 1;
            params.use_gpu = false;
            return whisper_vad_init_with_params(loader, params);
        },
        [](whisper_vad_context *context) { whisper_vad_free(context); }, vadFileIsWhole);
}
