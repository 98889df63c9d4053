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
/// transcription, a quiet event stream). One address may hold LT_MHD_PER_ADDRESS connections at
/// once, all of them LT_MHD_CONNECTIONS: connections one client left half-sent cannot take the
/// threads of everybody else, a token holder on another address included.
#define LT_MHD_HEAD_SECONDS 5
#define LT_MHD_REQUEST_SECONDS 120
#define LT_MHD_PER_ADDRESS 64
#define LT_MHD_CONNECTIONS 1024

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
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
                            MHD_OPTION_UNESCAPE_CALLBACK, lt_mhd_keep_escaped, NULL,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)LT_MHD_HEAD_SECONDS,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned int)LT_MHD_CONNECTIONS,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)LT_MHD_PER_ADDRESS,
                            MHD_OPTION_END);
}

/// The TCP port `daemon` listens on (the one the system chose when it was started with port 0).
static inline uint16_t lt_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
#endif
