/* Yardstick for bench/fanout_bench.py: a NUL-framed broadcast server on a
 * Unix socket, the least a server can do to fan one event out. A message
 * holding "more":true subscribes its connection (answered with one frame of
 * SNAPSHOT_BYTES, as a Varlink Subscribe is with its snapshot); any other
 * message is a trigger: the same frame of EVENT_BYTES (padding and a NUL) is
 * written to every subscriber, then the sender gets one frame of
 * REPLY_BYTES. One thread, edge-triggered epoll, non-blocking writes; a
 * subscriber's frame that does not fit its socket is kept and written when it
 * drains (the benchmark client always reads, so this is rare).
 *
 *   broadcast_server SOCKET EVENT_BYTES SNAPSHOT_BYTES REPLY_BYTES */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_FDS 65536

struct client {
    int subscribed;
    /* Bytes of the last event still to write (0: none pending). */
    size_t pending;
    /* Received bytes of a message not yet complete. */
    char partial[256];
    size_t partial_length;
};

static struct client *clients[MAX_FDS];
static int subscribers[MAX_FDS];
static int subscriber_count;

static char *frame(size_t bytes) {
    if (bytes < 2) bytes = 2;
    char *f = malloc(bytes);
    memset(f, ' ', bytes);
    f[0] = '{';
    f[bytes - 2] = '}';
    f[bytes - 1] = 0;
    return f;
}

/* Writes what the socket takes of bytes[0..count); returns what is left. */
static size_t write_some(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t w = write(fd, bytes, count);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        bytes += w;
        count -= (size_t)w;
    }
    return count;
}

static void drop(int epoll, int fd) {
    struct client *c = clients[fd];
    if (c && c->subscribed) {
        for (int i = 0; i < subscriber_count; i++) {
            if (subscribers[i] == fd) {
                subscribers[i] = subscribers[--subscriber_count];
                break;
            }
        }
    }
    free(c);
    clients[fd] = NULL;
    epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
    close(fd);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s SOCKET EVENT_BYTES SNAPSHOT_BYTES REPLY_BYTES\n", argv[0]);
        return 64;
    }
    signal(SIGPIPE, SIG_IGN);
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max < MAX_FDS ? limit.rlim_max : MAX_FDS;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    size_t event_bytes = (size_t)atol(argv[2]), snapshot_bytes = (size_t)atol(argv[3]),
           reply_bytes = (size_t)atol(argv[4]);
    char *event = frame(event_bytes), *snapshot = frame(snapshot_bytes), *reply = frame(reply_bytes);
    if (event_bytes < 2) event_bytes = 2;
    if (snapshot_bytes < 2) snapshot_bytes = 2;
    if (reply_bytes < 2) reply_bytes = 2;

    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
    unlink(argv[1]);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 4096) < 0) {
        perror("bind");
        return 1;
    }
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event listen_event = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &listen_event);

    static char input[1 << 16];
    struct epoll_event ready[256];
    for (;;) {
        int count = epoll_wait(epoll, ready, 256, -1);
        for (int i = 0; i < count; i++) {
            int fd = ready[i].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0) {
                    if (client >= MAX_FDS) {
                        close(client);
                        continue;
                    }
                    clients[client] = calloc(1, sizeof(struct client));
                    struct epoll_event e = {.events = EPOLLIN | EPOLLOUT | EPOLLET, .data.fd = client};
                    epoll_ctl(epoll, EPOLL_CTL_ADD, client, &e);
                }
                continue;
            }
            struct client *c = clients[fd];
            if (!c) continue;
            if ((ready[i].events & EPOLLOUT) && c->pending) {
                c->pending = write_some(fd, event + event_bytes - c->pending, c->pending);
            }
            if (!(ready[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) continue;
            int closed = 0;
            for (;;) {
                ssize_t n = read(fd, input, sizeof input);
                if (n < 0 && errno == EINTR) continue;
                if (n < 0 && errno == EAGAIN) break;
                if (n <= 0) {
                    closed = 1;
                    break;
                }
                for (ssize_t start = 0, k = 0; k < n; k++) {
                    if (input[k] != 0) {
                        if (k + 1 == n) {
                            /* Keep the tail of a message split across reads (enough to spot "more"). */
                            size_t length = (size_t)(n - start);
                            size_t room = sizeof c->partial - 1 - c->partial_length;
                            if (length > room) length = room;
                            memcpy(c->partial + c->partial_length, input + start, length);
                            c->partial_length += length;
                        }
                        continue;
                    }
                    size_t length = (size_t)(k - start);
                    size_t room = sizeof c->partial - 1 - c->partial_length;
                    if (length > room) length = room;
                    memcpy(c->partial + c->partial_length, input + start, length);
                    c->partial[c->partial_length + length] = 0;
                    c->partial_length = 0;
                    start = k + 1;
                    if (strstr(c->partial, "\"more\":true")) {
                        if (!c->subscribed) {
                            c->subscribed = 1;
                            subscribers[subscriber_count++] = fd;
                        }
                        write_some(fd, snapshot, snapshot_bytes);
                        continue;
                    }
                    /* A trigger: the same bytes to every subscriber, then the answer. */
                    for (int s = 0; s < subscriber_count; s++) {
                        struct client *subscriber = clients[subscribers[s]];
                        if (subscriber->pending) continue; /* still writing the last one */
                        subscriber->pending = write_some(subscribers[s], event, event_bytes);
                    }
                    write_some(fd, reply, reply_bytes);
                }
            }
            if (closed) drop(epoll, fd);
        }
    }
}
