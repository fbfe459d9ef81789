/* Instruction trace for scripts/order-raindctl: runs COMMAND one instruction
 * at a time (ptrace single-step, natively, so the libc variants this CPU
 * selects are the ones seen) and writes every distinct instruction address
 * in [LOW, HIGH), in hexadecimal, one a line.
 *
 *   order-raindctl-trace OUT LOW HIGH COMMAND [ARGUMENT...]
 *
 * Slow (a few microseconds an instruction: half a minute for a command) and
 * only for regenerating the link order, never at build time. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s OUT LOW HIGH COMMAND [ARGUMENT...]\n", argv[0]);
        return 64;
    }
    uint64_t low = strtoull(argv[2], NULL, 16), high = strtoull(argv[3], NULL, 16);
    if (high <= low) {
        fprintf(stderr, "empty address range\n");
        return 64;
    }
    uint8_t *seen = calloc(high - low, 1);
    FILE *out = fopen(argv[1], "w");
    if (!seen || !out) {
        perror(argv[1]);
        return 1;
    }
    pid_t child = fork();
    if (child == 0) {
        ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        execvp(argv[4], argv + 4);
        _exit(127);
    }
    int status;
    waitpid(child, &status, 0);
    int signal_to_deliver = 0;
    for (;;) {
        errno = 0;
        uint64_t rip = (uint64_t)ptrace(PTRACE_PEEKUSER, child, offsetof(struct user_regs_struct, rip), NULL);
        if (rip >= low && rip < high) seen[rip - low] = 1;
        if (ptrace(PTRACE_SINGLESTEP, child, NULL, (void *)(intptr_t)signal_to_deliver) < 0) break;
        if (waitpid(child, &status, 0) < 0 || WIFEXITED(status) || WIFSIGNALED(status)) break;
        /* Anything but the step's own trap (SIGPIPE, say) goes on to the command. */
        signal_to_deliver = WIFSTOPPED(status) && WSTOPSIG(status) != SIGTRAP ? WSTOPSIG(status) : 0;
    }
    for (uint64_t address = low; address < high; address++) {
        if (seen[address - low]) fprintf(out, "%lx\n", (unsigned long)address);
    }
    fclose(out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
