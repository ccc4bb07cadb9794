#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

/* MHD_get_daemon_info and MHD_get_connection_info are variadic, and Swift does not import C
   variadic functions: these two non-variadic wrappers are the only way to reach them. */
static inline uint16_t quire_mhd_bind_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

static inline const struct sockaddr *quire_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

static inline int quire_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* Whether this libmicrohttpd was built with TLS (HTTPS). Swift imports MHD_FEATURE without the
   names of its cases. */
static inline int quire_mhd_supports_tls(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

/* The connection's gnutls_session_t when the daemon serves HTTPS, else NULL. */
static inline void *quire_mhd_tls_session(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    return info == NULL ? NULL : info->tls_session;
}

static inline void *quire_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* The host's watch on suspended connections: an epoll set told only when a peer hangs up
   (EPOLLRDHUP), so a long-poll whose client went away ends at once. epoll_event is a packed
   struct on x86_64; these wrappers keep it out of Swift. */
#include <sys/epoll.h>

static inline int quire_watch_add(int epoll, int fd, uint64_t token) {
    struct epoll_event event = {0};
    event.events = EPOLLRDHUP;
    event.data.u64 = token;
    return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}

static inline int quire_watch_remove(int epoll, int fd) {
    struct epoll_event event = {0};
    return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event);
}

/* Waits up to `timeout` ms; writes the tokens of hung-up sockets to `tokens`, returns how many. */
static inline int quire_watch_wait(int epoll, uint64_t *tokens, int capacity, int timeout) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epoll, events, capacity, timeout);
    for (int index = 0; index < count; index++) tokens[index] = events[index].data.u64;
    return count;
}
