#ifndef QUIRE_CGNUTLS_SHIM_H
#define QUIRE_CGNUTLS_SHIM_H

#include <sys/types.h>
#include <gnutls/gnutls.h>

/* GnuTLS is the TLS library Debian's libmicrohttpd is built with. The server uses it for two
   things only: checking a certificate and key before the daemon starts (so a bad file is one clear
   line, not a daemon that fails to start), and writing one answer on a TLS connection that
   libmicrohttpd will not queue (see writeDirectly in MicroHTTPCallbacks.swift). */

/* Loads `cert` (PEM, one or more certificates, leaf first) and `key` (PEM) the way
   libmicrohttpd does (gnutls_certificate_set_x509_key_mem). Returns 0, or a negative GnuTLS
   error code (gnutls_strerror says what it is): unparseable, or a key that is not the
   certificate's. */
static inline int quire_tls_check_pair(const char *cert, size_t cert_size, const char *key, size_t key_size) {
    gnutls_certificate_credentials_t credentials;
    int code = gnutls_certificate_allocate_credentials(&credentials);
    if (code < 0) return code;
    gnutls_datum_t cert_datum = {(unsigned char *)cert, (unsigned int)cert_size};
    gnutls_datum_t key_datum = {(unsigned char *)key, (unsigned int)key_size};
    code = gnutls_certificate_set_x509_key_mem(credentials, &cert_datum, &key_datum, GNUTLS_X509_FMT_PEM);
    gnutls_certificate_free_credentials(credentials);
    return code < 0 ? code : 0;
}

/* Sends `size` bytes as TLS records on `session` (a gnutls_session_t from libmicrohttpd).
   Returns the bytes sent, or a negative GnuTLS error code (GNUTLS_E_AGAIN on a full socket). */
static inline ssize_t quire_tls_send(void *session, const void *data, size_t size) {
    return gnutls_record_send((gnutls_session_t)session, data, size);
}

#endif
