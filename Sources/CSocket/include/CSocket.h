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

#endif
