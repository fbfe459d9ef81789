#ifndef RAIND_CSHIMS_H
#define RAIND_CSHIMS_H

#include <curl/curl.h>
#include <stdint.h>
#include <sys/types.h>

/* libcurl, opened at the first request rather than linked (curl.c says why).
 * Its setopt and getinfo functions are variadic, which Swift cannot call; each
 * shim below passes one argument of one fixed type. They return the CURLcode /
 * CURLMcode unchanged for Swift's wrapper layer to check. */

/* Opens libcurl (dlopen of libcurl.so.4, see curl.c) and runs
 * curl_global_init(CURL_GLOBAL_DEFAULT), once per process under pthread_once.
 * Returns NULL when libcurl is ready, else what failed (dlerror's text, a
 * missing symbol, or curl_global_init's error); every call returns the result
 * of that one attempt. No other function here may be called before it has
 * returned NULL. */
const char *raind_curl_load(void);

/* The libcurl functions raind calls, through the loaded library. */
CURL *raind_curl_easy_init(void);
void raind_curl_easy_cleanup(CURL *easy);
const char *raind_curl_easy_strerror(CURLcode code);
CURLM *raind_curl_multi_init(void);
CURLMcode raind_curl_multi_cleanup(CURLM *multi);
CURLMcode raind_curl_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode raind_curl_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode raind_curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running);
CURLMsg *raind_curl_multi_info_read(CURLM *multi, int *queued);
const char *raind_curl_multi_strerror(CURLMcode code);
struct curl_slist *raind_curl_slist_append(struct curl_slist *list, const char *line);
void raind_curl_slist_free_all(struct curl_slist *list);

CURLcode raind_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode raind_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value);
CURLcode raind_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode raind_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
CURLcode raind_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value);
/* For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION. */
CURLcode raind_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback value);

CURLcode raind_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
/* The string stays owned by the easy handle. */
CURLcode raind_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value);

CURLMcode raind_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode raind_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value);
CURLMcode raind_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback value);
CURLMcode raind_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback value);

#endif
