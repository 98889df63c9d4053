#ifndef LT_COPUSFILE_SHIM_H
#define LT_COPUSFILE_SHIM_H
// libopusfile: decodes Ogg Opus files to the end, across chained streams (links), at 48 kHz.
// libogg (which it is built on): the page walk that counts a file's links.
#include <stdio.h>
#include <ogg/ogg.h>
#include <opusfile.h>

// Opens `path` as a stream that cannot seek: libopusfile then decodes link after link as they
// come, without the bisection search it does in a seekable file, which takes a link whose serial
// number repeats an earlier one's (`cat a.opus b.opus a.opus`) for that earlier link and skips
// what lies between. No total length is known in this mode.
static inline OggOpusFile *lt_op_open_stream_only(const char *path, int *error) {
    OpusFileCallbacks callbacks;
    void *stream = op_fopen(&callbacks, path, "rb");
    if (stream == NULL) { *error = OP_EREAD; return NULL; }
    callbacks.seek = NULL;
    callbacks.tell = NULL;
    OggOpusFile *file = op_open_callbacks(stream, &callbacks, NULL, 0, error);
    if (file == NULL) callbacks.close(stream);  // not taken over when opening fails
    return file;
}
#endif
