#ifndef LT_CSQLITE_SHIM_H
#define LT_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
/// cannot import: bind text and blobs through these so SQLite copies them.
static inline int lt_sqlite3_bind_text(sqlite3_stmt *stmt, int index, const char *text) {
    return sqlite3_bind_text(stmt, index, text, -1, SQLITE_TRANSIENT);
}
static inline int lt_sqlite3_bind_blob(sqlite3_stmt *stmt, int index, const void *data, int count) {
    return sqlite3_bind_blob(stmt, index, data, count, SQLITE_TRANSIENT);
}
#endif
