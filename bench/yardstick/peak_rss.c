/* Peak resident memory of a command, for bench/daemon_bench.py: runs it RUNS
 * times (output to /dev/null) and prints the median of its ru_maxrss in KiB,
 * then this launcher's own, the floor of every figure.
 *
 *   peak_rss RUNS COMMAND [ARGUMENT...]
 *
 * A child's ru_maxrss counts the memory of the process it was forked from up
 * to its exec, so a launcher must be small: from Python every figure would be
 * Python's size. Built static, this one is a few hundred KiB. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static int compare(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s RUNS COMMAND [ARGUMENT...]\n", argv[0]);
        return 64;
    }
    int runs = atoi(argv[1]);
    if (runs < 1) runs = 1;
    long *peaks = calloc((size_t)runs, sizeof *peaks);
    for (int run = 0; run < runs; run++) {
        pid_t child = fork();
        if (child < 0) {
            perror("fork");
            return 1;
        }
        if (child == 0) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
            execvp(argv[2], argv + 2);
            _exit(127);
        }
        int status;
        struct rusage usage;
        if (wait4(child, &status, 0, &usage) < 0) {
            perror("wait4");
            return 1;
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
            fprintf(stderr, "cannot run %s\n", argv[2]);
            return 1;
        }
        peaks[run] = usage.ru_maxrss;
    }
    qsort(peaks, (size_t)runs, sizeof *peaks, compare);
    struct rusage self;
    getrusage(RUSAGE_SELF, &self);
    printf("%ld %ld\n", peaks[runs / 2], self.ru_maxrss);
    return 0;
}
