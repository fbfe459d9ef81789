/* Load generator for bench/varlink_bench.py: sends one Varlink call over and
 * over on a Unix socket and counts the NUL-terminated replies.
 *
 *   varlink_client SOCKET CONNECTIONS DEPTH SECONDS CALL
 *
 * CONNECTIONS sockets each keep DEPTH calls in flight (DEPTH > 1 pipelines
 * them on one connection; CONNECTIONS > 1 with DEPTH 1 is many clients with
 * one call each). Prints "calls_per_second mean_reply_bytes". */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = write(fd, bytes, count);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { perror("write"); exit(1); }
        bytes += n;
        count -= (size_t)n;
    }
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s SOCKET CONNECTIONS DEPTH SECONDS CALL\n", argv[0]);
        return 64;
    }
    int connections = atoi(argv[2]), depth = atoi(argv[3]);
    double seconds = atof(argv[4]);
    size_t call_length = strlen(argv[5]) + 1; /* with its NUL */
    char *batch = malloc(call_length * depth);
    for (int i = 0; i < depth; i++) memcpy(batch + i * call_length, argv[5], call_length);

    struct pollfd *fds = calloc(connections, sizeof *fds);
    for (int i = 0; i < connections; i++) {
        struct sockaddr_un address = {.sun_family = AF_UNIX};
        strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
        fds[i].fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (connect(fds[i].fd, (struct sockaddr *)&address, sizeof address) < 0) { perror("connect"); return 1; }
        fds[i].events = POLLIN;
        write_all(fds[i].fd, batch, call_length * depth);
    }

    static char buffer[1 << 16];
    double warmup_end = now() + 0.3, end = warmup_end + seconds;
    long replies = 0, reply_bytes = 0, measured = 0, measured_bytes = 0;
    int measuring = 0;
    for (;;) {
        double t = now();
        if (!measuring && t >= warmup_end) { measuring = 1; measured = replies; measured_bytes = reply_bytes; }
        if (t >= end) break;
        if (poll(fds, connections, 1000) < 0 && errno != EINTR) { perror("poll"); return 1; }
        for (int i = 0; i < connections; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
            if (n <= 0) { fprintf(stderr, "connection %d closed\n", i); return 1; }
            int complete = 0;
            for (ssize_t k = 0; k < n; k++) complete += buffer[k] == 0;
            replies += complete;
            reply_bytes += n;
            /* Refill the window: one new call per finished one. */
            size_t remaining = call_length * complete;
            while (remaining > 0) {
                size_t part = remaining < call_length * depth ? remaining : call_length * depth;
                write_all(fds[i].fd, batch, part);
                remaining -= part;
            }
        }
    }
    long calls = replies - measured;
    printf("%.0f %.0f\n", calls / seconds, calls ? (double)(reply_bytes - measured_bytes) / calls : 0.0);
    return 0;
}
