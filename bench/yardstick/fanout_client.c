/* Load generator for bench/fanout_bench.py: opens SUBSCRIBERS connections
 * that each send SUBSCRIBE (a call with "more":true) and read its first reply
 * (the snapshot), and one control connection. Then, ROUNDS times after a
 * warm-up, it sends a trigger on the control connection (TRIGGER_A and
 * TRIGGER_B in turn: a change back and forth) and measures the time until
 * every subscriber has read one more NUL-terminated frame, and until the
 * control connection has its answer.
 *
 *   fanout_client SOCKET SUBSCRIBERS ROUNDS SUBSCRIBE TRIGGER_A TRIGGER_B
 *
 * Prints "subscribed" once every subscriber has its snapshot and waits for a
 * line on its standard input before the first trigger, so the caller can read
 * the server's CPU time around the triggers alone. Then prints "median_ms
 * p90_ms control_median_ms bytes_per_event triggers": the time until the
 * last subscriber got the event (median and 90th percentile of the measured
 * rounds), the trigger's round trip, what each subscriber read per event, and
 * how many triggers were sent (warm-up included), and keeps every connection
 * open until its standard input ends. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define WARMUP 10

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = write(fd, bytes, count);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            perror("write");
            exit(1);
        }
        bytes += n;
        count -= (size_t)n;
    }
}

static int connect_to(const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        perror("connect");
        exit(1);
    }
    return fd;
}

/* Blocking: reads until one whole frame (up to its NUL) has arrived; bytes after it are an error. */
static void read_frame(int fd) {
    static char buffer[1 << 16];
    for (;;) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            fprintf(stderr, "connection closed before its first reply\n");
            exit(1);
        }
        if (buffer[n - 1] == 0) return;
        if (memchr(buffer, 0, (size_t)n)) {
            fprintf(stderr, "more than one reply to a subscription\n");
            exit(1);
        }
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s SOCKET SUBSCRIBERS ROUNDS SUBSCRIBE TRIGGER_A TRIGGER_B\n", argv[0]);
        return 64;
    }
    int subscribers = atoi(argv[2]), rounds = atoi(argv[3]);
    const char *subscribe = argv[4], *triggers[2] = {argv[5], argv[6]};
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }

    int *fds = calloc((size_t)subscribers, sizeof *fds);
    long *frames = calloc((size_t)subscribers, sizeof *frames);
    /* Connect and subscribe in batches, so the server's backlog never fills. */
    for (int first = 0; first < subscribers; first += 64) {
        int last = first + 64 < subscribers ? first + 64 : subscribers;
        for (int i = first; i < last; i++) {
            fds[i] = connect_to(argv[1]);
            write_all(fds[i], subscribe, strlen(subscribe) + 1);
        }
        for (int i = first; i < last; i++) read_frame(fds[i]);
    }
    int control = connect_to(argv[1]);

    printf("subscribed\n");
    fflush(stdout);
    int c;
    while ((c = getchar()) != EOF && c != '\n') {}

    int epoll = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i <= subscribers; i++) {
        int fd = i < subscribers ? fds[i] : control;
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &e);
    }

    double *times = calloc((size_t)rounds, sizeof *times), *control_times = calloc((size_t)rounds, sizeof *times);
    struct epoll_event *ready = calloc((size_t)subscribers + 1, sizeof *ready);
    static char buffer[1 << 16];
    long bytes = 0, measured_bytes = 0;
    long control_frames = 0;
    for (int round = 0; round < WARMUP + rounds; round++) {
        if (round == WARMUP) measured_bytes = bytes;
        const char *trigger = triggers[round % 2];
        double started = now(), all_at = 0, control_at = 0;
        write_all(control, trigger, strlen(trigger) + 1);
        int waiting = subscribers;
        while (waiting > 0 || control_frames <= round) {
            int count = epoll_wait(epoll, ready, subscribers + 1, 10000);
            if (count == 0) {
                fprintf(stderr, "round %d: %d subscribers still waiting after 10 s\n", round, waiting);
                return 1;
            }
            if (count < 0) {
                if (errno == EINTR) continue;
                perror("epoll_wait");
                return 1;
            }
            for (int k = 0; k < count; k++) {
                int i = (int)ready[k].data.u32;
                int fd = i < subscribers ? fds[i] : control;
                ssize_t n = read(fd, buffer, sizeof buffer);
                if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
                if (n <= 0) {
                    fprintf(stderr, "connection %d closed\n", i);
                    return 1;
                }
                long complete = 0;
                for (ssize_t b = 0; b < n; b++) complete += buffer[b] == 0;
                if (i == subscribers) {
                    control_frames += complete;
                    if (control_frames > round && control_at == 0) control_at = now();
                    continue;
                }
                bytes += n;
                if (frames[i] <= round && frames[i] + complete > round) waiting--;
                frames[i] += complete;
            }
            if (waiting == 0 && all_at == 0) all_at = now();
        }
        if (round >= WARMUP) {
            times[round - WARMUP] = (all_at - started) * 1000;
            control_times[round - WARMUP] = (control_at - started) * 1000;
        }
    }
    for (int i = 0; i < subscribers; i++) {
        if (frames[i] != WARMUP + rounds) {
            fprintf(stderr, "subscriber %d read %ld events for %d triggers\n", i, frames[i], WARMUP + rounds);
            return 1;
        }
    }
    qsort(times, (size_t)rounds, sizeof *times, compare);
    qsort(control_times, (size_t)rounds, sizeof *control_times, compare);
    printf("%.3f %.3f %.3f %.0f %d\n", times[rounds / 2], times[(rounds * 9) / 10], control_times[rounds / 2],
           subscribers ? (double)(bytes - measured_bytes) / ((double)subscribers * rounds) : 0.0, WARMUP + rounds);
    fflush(stdout);
    while (getchar() != EOF) {}
    return 0;
}
