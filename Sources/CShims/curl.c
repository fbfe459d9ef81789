#include "CShims.h"
#include <pthread.h>

/* curl_global_init is not thread-safe and must run before any other libcurl
 * call. Doing it here, behind pthread_once, keeps that one-time state in C and
 * out of Swift (no global mutable Swift state): every HTTPClient calls this in
 * its initializer and gets the same result. curl_global_cleanup is never
 * called; the process exit reclaims what init allocated. */
static pthread_once_t global_init_once = PTHREAD_ONCE_INIT;
static CURLcode global_init_result = CURLE_FAILED_INIT;

static void global_init(void) {
    global_init_result = curl_global_init(CURL_GLOBAL_DEFAULT);
}

CURLcode raind_curl_global_init_once(void) {
    pthread_once(&global_init_once, global_init);
    return global_init_result;
}

CURLcode raind_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode raind_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode raind_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode raind_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode raind_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode raind_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode raind_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

CURLcode raind_easy_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

CURLcode raind_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value) {
    return curl_easy_getinfo(easy, info, value);
}

CURLMcode raind_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLMcode raind_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

CURLMcode raind_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}

CURLMcode raind_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}
