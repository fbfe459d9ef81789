#ifndef CCURLSHIMS_H
#define CCURLSHIMS_H
#include <curl/curl.h>
#endif
