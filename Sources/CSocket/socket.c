#define _GNU_SOURCE
#include "CSocket.h"
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/socket.h>

int raind_accept_nonblocking(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

int raind_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred cred;
    socklen_t length = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) < 0)
        return -1;
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}

_Static_assert(RAIND_EPOLL_ADD == EPOLL_CTL_ADD && RAIND_EPOLL_REMOVE == EPOLL_CTL_DEL
                   && RAIND_EPOLL_MODIFY == EPOLL_CTL_MOD, "epoll_ctl's operations");

int raind_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int raind_epoll_control(int epoll, int operation, int fd, uint32_t events, uint64_t data) {
    struct epoll_event event = {.events = events, .data.u64 = data};
    return epoll_ctl(epoll, operation, fd, &event);
}

int raind_epoll_wait(int epoll, struct raind_ready *ready, int capacity, int milliseconds) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epoll, events, capacity, milliseconds);
    for (int i = 0; i < count; i++) {
        ready[i].events = events[i].events;
        ready[i].data = events[i].data.u64;
    }
    return count;
}
