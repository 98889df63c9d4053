#ifndef LT_CMICROHTTPD_SHIM_H
#define LT_CMICROHTTPD_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>

/// libmicrohttpd's unescape callback, doing nothing: the path and the query arguments reach the
/// handler as sent (only a query's '+' already made a space), and Swift decodes them
/// (`WebRequest.percentDecoded`). libmicrohttpd's own decoding turns %00 into a NUL, which ends
/// the C string the handler reads: "name=a%00b.wav" would arrive as "a".
static inline size_t lt_mhd_keep_escaped(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    return strlen(text);
}

/// Slow clients (B73, issue 39): a connection that has not sent a whole request head within
/// LT_MHD_HEAD_SECONDS of inactivity is closed, and so is one idle that long between requests;
/// once a head is in, its request may take LT_MHD_REQUEST_SECONDS of inactivity (a long upload, a
/// transcription, a quiet event stream). One address other than loopback may hold
/// LT_MHD_PER_ADDRESS connections at once (`lt_mhd_accept`), all of them LT_MHD_CONNECTIONS:
/// connections one client left half-sent cannot take the threads of everybody else.
#define LT_MHD_HEAD_SECONDS 5
#define LT_MHD_REQUEST_SECONDS 120
#define LT_MHD_PER_ADDRESS 64
#define LT_MHD_CONNECTIONS 1024

/// Connections per client address, for LT_MHD_PER_ADDRESS (libmicrohttpd's own per-IP limit counts
/// the loopback address too, so one local client could lock the local page out): counted when a
/// connection starts and ends (`lt_mhd_connection_notice`), checked when one is accepted
/// (`lt_mhd_accept`, on the listening thread, as the start). Loopback clients are bounded by
/// LT_MHD_CONNECTIONS alone. One table for the process (every daemon's clients).
struct lt_mhd_peer { unsigned char key[17]; unsigned int count; };
struct lt_mhd_peers { pthread_mutex_t lock; struct lt_mhd_peer peers[LT_MHD_CONNECTIONS]; };

/// The table (a function's own static: Swift emits the C functions it calls, not a header's globals).
static inline struct lt_mhd_peers *lt_mhd_peer_table(void) {
    static struct lt_mhd_peers table = { PTHREAD_MUTEX_INITIALIZER, {{{0}, 0}} };
    return &table;
}

/// The address as a table key (its family, then 4 or 16 bytes); 0 for a loopback address or
/// one that is neither IPv4 nor IPv6 (not counted).
static inline int lt_mhd_peer_key(const struct sockaddr *addr, unsigned char key[17]) {
    memset(key, 0, 17);
    if (addr == NULL) return 0;
    if (addr->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)addr;
        const unsigned char *bytes = (const unsigned char *)&v4->sin_addr;
        if (bytes[0] == 127) return 0;
        key[0] = 4;
        memcpy(key + 1, bytes, 4);
        return 1;
    }
    if (addr->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)addr;
        const unsigned char *bytes = (const unsigned char *)&v6->sin6_addr;
        static const unsigned char loopback[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
        static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (memcmp(bytes, loopback, 16) == 0) return 0;
        if (memcmp(bytes, mapped, 12) == 0 && bytes[12] == 127) return 0;
        key[0] = 6;
        memcpy(key + 1, bytes, 16);
        return 1;
    }
    return 0;
}

/// The table entry of `key` (lock held), or NULL when `add` is 0 and there is none; with `add`,
/// a new entry (NULL only when the table is full).
static inline struct lt_mhd_peer *lt_mhd_peer_find(const unsigned char key[17], int add) {
    struct lt_mhd_peer *peers = lt_mhd_peer_table()->peers;
    struct lt_mhd_peer *free_entry = NULL;
    for (int i = 0; i < LT_MHD_CONNECTIONS; i++) {
        if (peers[i].count > 0 && memcmp(peers[i].key, key, 17) == 0) return &peers[i];
        if (free_entry == NULL && peers[i].count == 0) free_entry = &peers[i];
    }
    if (!add || free_entry == NULL) return NULL;
    memcpy(free_entry->key, key, 17);
    return free_entry;
}

/// libmicrohttpd's accept policy: a client address that already holds LT_MHD_PER_ADDRESS
/// connections is refused (closed at once); loopback is always let in.
static inline enum MHD_Result lt_mhd_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen) {
    (void)cls;
    (void)addrlen;
    unsigned char key[17];
    if (!lt_mhd_peer_key(addr, key)) return MHD_YES;
    pthread_mutex_lock(&lt_mhd_peer_table()->lock);
    struct lt_mhd_peer *peer = lt_mhd_peer_find(key, 0);
    enum MHD_Result allowed = (peer == NULL || peer->count < LT_MHD_PER_ADDRESS) ? MHD_YES : MHD_NO;
    pthread_mutex_unlock(&lt_mhd_peer_table()->lock);
    return allowed;
}

/// Counts a connection of a non-loopback address when it starts, and uncounts it when it closes
/// (its key is kept in the connection's socket context meanwhile).
static inline void lt_mhd_connection_notice(void *cls, struct MHD_Connection *connection, void **socket_context,
                                            enum MHD_ConnectionNotificationCode code) {
    (void)cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        unsigned char key[17];
        if (info == NULL || !lt_mhd_peer_key(info->client_addr, key)) return;
        unsigned char *kept = malloc(17);
        if (kept == NULL) return;
        memcpy(kept, key, 17);
        pthread_mutex_lock(&lt_mhd_peer_table()->lock);
        struct lt_mhd_peer *peer = lt_mhd_peer_find(key, 1);
        if (peer != NULL) peer->count += 1;
        pthread_mutex_unlock(&lt_mhd_peer_table()->lock);
        if (peer == NULL) { free(kept); return; }
        *socket_context = kept;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context != NULL) {
        pthread_mutex_lock(&lt_mhd_peer_table()->lock);
        struct lt_mhd_peer *peer = lt_mhd_peer_find((const unsigned char *)*socket_context, 0);
        if (peer != NULL && peer->count > 0) peer->count -= 1;
        pthread_mutex_unlock(&lt_mhd_peer_table()->lock);
        free(*socket_context);
        *socket_context = NULL;
    }
}

/// Gives `connection` the inactivity timeout of a request whose head is in (LT_MHD_REQUEST_SECONDS).
static inline void lt_mhd_head_received(struct MHD_Connection *connection) {
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned int)LT_MHD_REQUEST_SECONDS);
}

/// Gives `connection` back the head's timeout (LT_MHD_HEAD_SECONDS) once its request is done, for
/// the next request on it (keep-alive).
static inline void lt_mhd_request_done(struct MHD_Connection *connection) {
    if (connection != NULL) MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned int)LT_MHD_HEAD_SECONDS);
}

/// MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: these start a
/// daemon and read its port with fixed arguments.
///
/// Starts a daemon on `host` (an IPv4 or IPv6 address, never a name) and `port` (0: any free
/// one), one thread per connection, calling `handler` with `handler_cls` for every request and
/// `completed` when one is done; the request's path and query are left undecoded (`lt_mhd_keep_escaped`). Returns NULL with *not_an_address set to 1 when `host` is not an
/// IP address, or with errno set when the socket cannot be bound.
static inline struct MHD_Daemon *lt_mhd_start(const char *host, uint16_t port,
                                              MHD_AccessHandlerCallback handler, void *handler_cls,
                                              MHD_RequestCompletedCallback completed,
                                              int *not_an_address) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *address;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL;
    *not_an_address = 0;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        address = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        address = (const struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        *not_an_address = 1;
        return NULL;
    }
    return MHD_start_daemon(flags, port, lt_mhd_accept, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
                            MHD_OPTION_UNESCAPE_CALLBACK, lt_mhd_keep_escaped, NULL,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)LT_MHD_HEAD_SECONDS,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned int)LT_MHD_CONNECTIONS,
                            MHD_OPTION_NOTIFY_CONNECTION, lt_mhd_connection_notice, NULL,
                            MHD_OPTION_END);
}

/// The TCP port `daemon` listens on (the one the system chose when it was started with port 0).
static inline uint16_t lt_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
#endif
