#include "CShims.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* libcurl is opened with dlopen on the first request, not linked: linking it
 * loads about thirty more shared objects (its TLS, SSH, LDAP and Kerberos
 * stacks) and runs their constructors at every start, which is most of raind's
 * time from exec to READY=1, and a daemon whose forecasts are fresh may make
 * no request for a long while. systemd opens its optional libraries the same
 * way. The function pointers below are typed from curl.h, so a call through
 * them is checked like a direct call. */

#define RAIND_CURL_SONAME "libcurl.so.4"

static struct {
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_multi_init) *multi_init;
    __typeof__(curl_multi_cleanup) *multi_cleanup;
    __typeof__(curl_multi_setopt) *multi_setopt;
    __typeof__(curl_multi_add_handle) *multi_add_handle;
    __typeof__(curl_multi_remove_handle) *multi_remove_handle;
    __typeof__(curl_multi_socket_action) *multi_socket_action;
    __typeof__(curl_multi_info_read) *multi_info_read;
    __typeof__(curl_multi_strerror) *multi_strerror;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
} api;

/* Loading and curl_global_init (which is not thread-safe and must run before
 * any other libcurl call) happen once per process, behind pthread_once, so
 * that one-time state stays in C and out of Swift. Neither dlclose nor
 * curl_global_cleanup is ever called; the process exit reclaims both. */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];

#define RESOLVE(library, field, symbol)                                                           \
    do {                                                                                          \
        api.field = (__typeof__(api.field))dlsym(library, #symbol);                               \
        if (!api.field) {                                                                         \
            snprintf(load_error, sizeof load_error, "%s has no %s", RAIND_CURL_SONAME, #symbol); \
            return;                                                                               \
        }                                                                                         \
    } while (0)

/* Debian's libcurl links librtmp, and librtmp GnuTLS, whose constructor sets
 * GnuTLS up as it is loaded (its random generator, p11-kit's trust modules):
 * 0.6 MiB of raind's memory and 47 page faults for a library it never
 * calls, as it never speaks RTMP and this libcurl speaks TLS through OpenSSL.
 * GNUTLS_NO_IMPLICIT_INIT=1 skips that constructor, so it is set for the
 * dlopen alone, unless the environment already has it. A libcurl built on
 * GnuTLS is not changed by it: its curl_global_init sets GnuTLS up itself. */
#define RAIND_GNUTLS_SKIP "GNUTLS_NO_IMPLICIT_INIT"

static void load(void) {
    int skip_set = getenv(RAIND_GNUTLS_SKIP) == NULL && setenv(RAIND_GNUTLS_SKIP, "1", 0) == 0;
    void *library = dlopen(RAIND_CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (skip_set) {
        unsetenv(RAIND_GNUTLS_SKIP);
    }
    if (!library) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "cannot open " RAIND_CURL_SONAME);
        return;
    }
    RESOLVE(library, global_init, curl_global_init);
    RESOLVE(library, easy_init, curl_easy_init);
    RESOLVE(library, easy_cleanup, curl_easy_cleanup);
    RESOLVE(library, easy_setopt, curl_easy_setopt);
    RESOLVE(library, easy_getinfo, curl_easy_getinfo);
    RESOLVE(library, easy_strerror, curl_easy_strerror);
    RESOLVE(library, multi_init, curl_multi_init);
    RESOLVE(library, multi_cleanup, curl_multi_cleanup);
    RESOLVE(library, multi_setopt, curl_multi_setopt);
    RESOLVE(library, multi_add_handle, curl_multi_add_handle);
    RESOLVE(library, multi_remove_handle, curl_multi_remove_handle);
    RESOLVE(library, multi_socket_action, curl_multi_socket_action);
    RESOLVE(library, multi_info_read, curl_multi_info_read);
    RESOLVE(library, multi_strerror, curl_multi_strerror);
    RESOLVE(library, slist_append, curl_slist_append);
    RESOLVE(library, slist_free_all, curl_slist_free_all);
    CURLcode code = api.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init: %s", api.easy_strerror(code));
        return;
    }
}

const char *raind_curl_load(void) {
    pthread_once(&load_once, load);
    return load_error[0] ? load_error : NULL;
}

CURL *raind_curl_easy_init(void) { return api.easy_init(); }
void raind_curl_easy_cleanup(CURL *easy) { api.easy_cleanup(easy); }
const char *raind_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }

CURLM *raind_curl_multi_init(void) { return api.multi_init(); }
CURLMcode raind_curl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode raind_curl_multi_add_handle(CURLM *multi, CURL *easy) { return api.multi_add_handle(multi, easy); }
CURLMcode raind_curl_multi_remove_handle(CURLM *multi, CURL *easy) { return api.multi_remove_handle(multi, easy); }

CURLMcode raind_curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running) {
    return api.multi_socket_action(multi, socket, events, running);
}

CURLMsg *raind_curl_multi_info_read(CURLM *multi, int *queued) { return api.multi_info_read(multi, queued); }
const char *raind_curl_multi_strerror(CURLMcode code) { return api.multi_strerror(code); }

struct curl_slist *raind_curl_slist_append(struct curl_slist *list, const char *line) {
    return api.slist_append(list, line);
}

void raind_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode raind_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return api.easy_setopt(easy, option, value);
}

CURLcode raind_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) {
    return api.easy_setopt(easy, option, value);
}

CURLcode raind_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return api.easy_setopt(easy, option, value);
}

CURLcode raind_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return api.easy_setopt(easy, option, value);
}

CURLcode raind_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
    return api.easy_setopt(easy, option, value);
}

CURLcode raind_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback value) {
    return api.easy_setopt(easy, option, value);
}

CURLcode raind_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return api.easy_getinfo(easy, info, value);
}

CURLcode raind_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value) {
    return api.easy_getinfo(easy, info, value);
}

CURLMcode raind_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return api.multi_setopt(multi, option, value);
}

CURLMcode raind_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return api.multi_setopt(multi, option, value);
}

CURLMcode raind_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback value) {
    return api.multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}

CURLMcode raind_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback value) {
    return api.multi_setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}
