#ifndef RAIND_CSOCKET_H
#define RAIND_CSOCKET_H

#include <stdint.h>
#include <sys/socket.h>

/* Socket calls behind _GNU_SOURCE, which Swift's Glibc module does not see.
 * Apart from the libcurl shims, so the client links no libcurl. */

/* accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK); -1 and errno on failure. */
int raind_accept_nonblocking(int fd);

/* SO_PEERCRED: fills pid, uid, gid; -1 and errno on failure. */
int raind_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

/* One ready descriptor as epoll_wait reports it: its events and the number
 * it was added with (struct epoll_event is packed, which Swift cannot import). */
struct raind_ready {
    uint32_t events;
    uint64_t data;
};

/* epoll_ctl's operations (EPOLL_CTL_ADD, _DEL, _MOD; socket.c checks they are the same). */
enum { RAIND_EPOLL_ADD = 1, RAIND_EPOLL_REMOVE = 2, RAIND_EPOLL_MODIFY = 3 };

/* epoll_create1(EPOLL_CLOEXEC); -1 and errno on failure. */
int raind_epoll_create(void);

/* epoll_ctl(epoll, operation, fd) with `events` and `data`; -1 and errno on failure. */
int raind_epoll_control(int epoll, int operation, int fd, uint32_t events, uint64_t data);

/* epoll_wait(epoll, …, capacity, milliseconds) into `ready`; the count, or -1 and errno. */
int raind_epoll_wait(int epoll, struct raind_ready *ready, int capacity, int milliseconds);

#endif
