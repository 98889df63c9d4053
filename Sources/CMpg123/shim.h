#ifndef LT_CMPG123_SHIM_H
#define LT_CMPG123_SHIM_H
#include <mpg123.h>

// mpg123.h names its file functions through a macro (MPG123_LARGENAME: mpg123_open is
// mpg123_open_64 with large-file support) and mpg123_param through another (mpg123_param2),
// which Swift cannot call; these wrappers can.
static inline int lt_mpg123_open(mpg123_handle *handle, const char *path) { return mpg123_open(handle, path); }
static inline int lt_mpg123_param(mpg123_handle *handle, enum mpg123_parms key, long value) { return mpg123_param(handle, key, value, 0.0); }
static inline int lt_mpg123_scan(mpg123_handle *handle) { return mpg123_scan(handle); }
static inline long long lt_mpg123_length(mpg123_handle *handle) { return (long long)mpg123_length(handle); }
#endif
