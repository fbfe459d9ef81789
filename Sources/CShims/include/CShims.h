#ifndef RAIND_CSHIMS_H
#define RAIND_CSHIMS_H

#include <curl/curl.h>
#include <stdint.h>
#include <sys/types.h>

/* libcurl. Its setopt and getinfo functions are variadic, which Swift cannot
 * call; each shim below passes one argument of one fixed type. They return
 * the CURLcode / CURLMcode unchanged for Swift's wrapper layer to check. */

/* curl_global_init(CURL_GLOBAL_DEFAULT), run exactly once per process under
 * pthread_once; every call returns the result of that one run. */
CURLcode raind_curl_global_init_once(void);

CURLcode raind_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode raind_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value);
CURLcode raind_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode raind_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
CURLcode raind_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value);
/* For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION. */
CURLcode raind_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback value);

CURLcode raind_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode raind_easy_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value);
/* The string stays owned by the easy handle. */
CURLcode raind_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value);

CURLMcode raind_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode raind_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value);
CURLMcode raind_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback value);
CURLMcode raind_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback value);

#endif
