#ifndef QUIRE_CCURL_SHIM_H
#define QUIRE_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift does not import: one typed
// wrapper per kind of argument.

static inline CURLcode qcurl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode qcurl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode qcurl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*qcurl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*qcurl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                       curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode qcurl_set_data_callback(CURL *handle, CURLoption option, qcurl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode qcurl_set_progress_callback(CURL *handle, qcurl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode qcurl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}

#endif
