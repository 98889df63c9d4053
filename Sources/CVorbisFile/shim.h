#ifndef LT_CVORBISFILE_SHIM_H
#define LT_CVORBISFILE_SHIM_H
// libvorbisfile: decodes Ogg Vorbis files to the end, across chained streams (links).
#include <stdio.h>
#include <vorbis/vorbisfile.h>

// Opens `path` as a stream that cannot seek (link after link as they come; see
// lt_op_open_stream_only in COpusFile for why). Returns 0 or libvorbisfile's error.
static inline int lt_ov_open_stream_only(const char *path, OggVorbis_File *file) {
    FILE *stream = fopen(path, "rb");
    if (stream == NULL) return OV_EREAD;
    int result = ov_open_callbacks(stream, file, NULL, 0, OV_CALLBACKS_STREAMONLY);
    if (result < 0) fclose(stream);  // not taken over when opening fails
    return result;
}
#endif
