/* Yardstick for bench/varlink_bench.py: a NUL-framed server on a Unix socket
 * that answers every request with one reply of REPLY_BYTES (padding and a
 * NUL), the smallest work a Varlink server can do per call. One thread, epoll,
 * non-blocking sockets; replies to the requests of one read go out in one write.
 *
 *   echo_server SOCKET REPLY_BYTES */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s SOCKET REPLY_BYTES\n", argv[0]);
        return 64;
    }
    /* A client that leaves mid-reply must not kill the server. */
    signal(SIGPIPE, SIG_IGN);
    size_t reply_bytes = (size_t)atol(argv[2]);
    if (reply_bytes < 2) reply_bytes = 2;
    char *reply = malloc(reply_bytes);
    memset(reply, ' ', reply_bytes);
    reply[0] = '{';
    reply[reply_bytes - 2] = '}';
    reply[reply_bytes - 1] = 0;

    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
    unlink(argv[1]);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 128) < 0) {
        perror("bind");
        return 1;
    }
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event);

    static char input[1 << 16];
    size_t output_capacity = 1 << 16;
    char *output = malloc(output_capacity);
    struct epoll_event ready[64];
    for (;;) {
        int count = epoll_wait(epoll, ready, 64, -1);
        for (int i = 0; i < count; i++) {
            int fd = ready[i].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0) {
                    struct epoll_event e = {.events = EPOLLIN, .data.fd = client};
                    epoll_ctl(epoll, EPOLL_CTL_ADD, client, &e);
                }
                continue;
            }
            ssize_t n = read(fd, input, sizeof input);
            if (n <= 0) {
                if (n < 0 && errno == EAGAIN) continue;
                close(fd);
                continue;
            }
            size_t replies = 0;
            for (ssize_t k = 0; k < n; k++) replies += input[k] == 0;
            if (replies * reply_bytes > output_capacity) {
                output_capacity = replies * reply_bytes;
                output = realloc(output, output_capacity);
            }
            for (size_t r = 0; r < replies; r++) memcpy(output + r * reply_bytes, reply, reply_bytes);
            /* The benchmark client always reads, so a blocking-style loop is enough here. */
            size_t sent = 0;
            while (sent < replies * reply_bytes) {
                ssize_t w = write(fd, output + sent, replies * reply_bytes - sent);
                if (w < 0 && (errno == EAGAIN || errno == EINTR)) continue;
                if (w <= 0) break;
                sent += (size_t)w;
            }
        }
    }
}
