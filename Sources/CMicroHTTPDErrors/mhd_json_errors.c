// libmicrohttpd (0.9.75, Debian's) answers some requests itself, before the access handler runs:
// a malformed request line, headers too large for the connection's memory pool, a bad
// Content-Length, malformed chunked encoding, an HTTP version it does not speak. Each answer is
// one of its built-in HTML pages, and it has no option to change them. Every answer this server
// sends must be the JSON error shape (issue 12, 9), so this file interposes the one function
// those answers are built with: libmicrohttpd calls MHD_create_response_from_buffer through its
// PLT, and a definition in the executable comes first. A buffer that is one of its HTML pages
// (only libmicrohttpd passes those, as MHD_RESPMEM_PERSISTENT) becomes a JSON body with
// Content-Type: application/json; every other call goes on unchanged to libmicrohttpd's own.
#define _GNU_SOURCE
#include "mhd_json_errors.h"

#include <dlfcn.h>
#include <string.h>

struct MHD_Response;
typedef struct MHD_Response *(*quire_create_response)(size_t, void *, int);
int MHD_add_response_header(struct MHD_Response *response, const char *name, const char *value);

/// MHD_RESPMEM_PERSISTENT in libmicrohttpd's enum MHD_ResponseMemoryMode.
static const int persistent = 0;

struct replacement {
    /// Bytes only that one of libmicrohttpd's pages holds (its title, or a word of its text).
    const char *marker;
    const char *json;
};

// The first marker found wins: the Content-Length and chunked pages share the title
// "Request malformed" with the request-line page, so their words come first.
static const struct replacement replacements[] = {
    {"<b>Content-Length</b> header.</body>",
     "{\"error\":{\"code\":\"invalid_content_length\",\"message\":\"Content-Length must be the body's "
     "size in bytes, a plain number no larger than the server accepts (4194304).\"}}"},
    {"chunked encoding was syntactically incorrect",
     "{\"error\":{\"code\":\"invalid_chunked_body\",\"message\":\"The chunked body is malformed: "
     "each chunk is its size in hex, CRLF, the bytes, CRLF; a last chunk of size 0 ends it.\"}}"},
    {"chunk size used in your HTTP chunked encoded request is too large",
     "{\"error\":{\"code\":\"payload_too_large\",\"message\":\"A chunk of the body is larger than "
     "the server accepts; send a smaller note.\"}}"},
    {"<title>Request too big</title>",
     "{\"error\":{\"code\":\"request_too_large\",\"message\":\"The request line or headers are "
     "larger than the server accepts; send a shorter URL and fewer or smaller headers.\"}}"},
    {"<title>Request malformed</title>",
     "{\"error\":{\"code\":\"malformed_request\",\"message\":\"The request is not valid HTTP/1.1; "
     "send a request line (METHOD /path HTTP/1.1) and headers, each ending in CRLF.\"}}"},
    {"<title>Requested HTTP version is not supported</title>",
     "{\"error\":{\"code\":\"http_version_not_supported\",\"message\":\"Speak HTTP/1.1 (or "
     "HTTP/1.0) to this server.\"}}"},
    {"header required</title>",
     "{\"error\":{\"code\":\"missing_host\",\"message\":\"An HTTP/1.1 request needs a Host "
     "header.\"}}"},
    {"<title>Request content too large</title>",
     "{\"error\":{\"code\":\"payload_too_large\",\"message\":\"The request body is larger than the "
     "server accepts (4194304 bytes); send a smaller note.\"}}"},
    {"<title>Internal server error</title>",
     "{\"error\":{\"code\":\"internal_error\",\"message\":\"The server could not complete the "
     "request; try again later.\"}}"},
};

const char *quire_mhd_json_error_for(const void *html, size_t size) {
    static const char opening[] = "<html><head><title>";
    if (html == NULL || size < sizeof opening - 1 || memcmp(html, opening, sizeof opening - 1) != 0) {
        return NULL;
    }
    for (size_t index = 0; index < sizeof replacements / sizeof replacements[0]; index++) {
        const char *marker = replacements[index].marker;
        if (memmem(html, size, marker, strlen(marker)) != NULL) return replacements[index].json;
    }
    return "{\"error\":{\"code\":\"bad_request\",\"message\":\"The server could not read the "
           "request; check that it is valid HTTP/1.1.\"}}";
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer, int mode) {
    static quire_create_response original;
    quire_create_response create = __atomic_load_n(&original, __ATOMIC_ACQUIRE);
    if (create == NULL) {
        create = (quire_create_response)dlsym(RTLD_NEXT, "MHD_create_response_from_buffer");
        if (create == NULL) return NULL;
        __atomic_store_n(&original, create, __ATOMIC_RELEASE);
    }
    const char *json = mode == persistent ? quire_mhd_json_error_for(buffer, size) : NULL;
    if (json == NULL) return create(size, buffer, mode);
    struct MHD_Response *response = create(strlen(json), (void *)json, persistent);
    if (response != NULL) {
        MHD_add_response_header(response, "Content-Type", "application/json");
        MHD_add_response_header(response, "Cache-Control", "no-store");
        MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    }
    return response;
}
