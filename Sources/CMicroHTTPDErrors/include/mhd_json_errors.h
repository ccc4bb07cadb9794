#ifndef QUIRE_MHD_JSON_ERRORS_H
#define QUIRE_MHD_JSON_ERRORS_H

#include <stddef.h>

/// The JSON error body that replaces one of libmicrohttpd's own HTML error pages (`html`, `size`
/// bytes), or NULL when the bytes are not one of them. Exposed for tests.
const char *quire_mhd_json_error_for(const void *html, size_t size);

#endif
