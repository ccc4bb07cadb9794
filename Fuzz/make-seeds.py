#!/usr/bin/env python3
"""Writes the fuzz targets' seed inputs into Fuzz/corpus/<target>/ (scripts/fuzz.sh reads them).

Run from the package root: python3 Fuzz/make-seeds.py. Needs python3-cryptography (Debian) for
the sealed seeds. The formats are written here from their documentation (ChangeCursor,
TripChangeCursor, ChunkedCipherFormat, SealedPayloadCodec), not by the Swift code, so a seed
that parses is also a check that the two agree. The keys are the fuzz targets' fixed keys.
"""
import base64
import hashlib
import hmac
import json
import os
import struct

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(target, name, data):
    os.makedirs(os.path.join(ROOT, target), exist_ok=True)
    with open(os.path.join(ROOT, target, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# merge: base, local, server cut at zero bytes.
write("merge", "lines", "a\nb\nc\n\0a\nB\nc\n\0a\nb\nC\n")
write("merge", "words", "the cat sat\n\0teh cat sat\n\0the cat sat today\n")
write("merge", "clash", "one\ntwo\n\0one\n2\n\0one\nzwei\n")
write("merge", "empty-base", "\0local\n\0server\n")
write("merge", "crlf", "a\r\nb\r\n\0a\r\nB\r\n\0A\r\nb\r\n")
write("merge", "open-last-line", "x\ny\0x\ny and more\0X\ny")
write("merge", "paragraphs", "p1 one\n\np2 two\n\np3 three\n\0p1 one\n\np3 three\n\0p1 one\n\np2 two!\n\np3 three\n")
write("merge", "emoji", "caf\u00e9 \U0001F600\n\0cafe\u0301 \U0001F600\n\0caf\u00e9 \U0001F601\n")

# cursor: ChangeCursor's forms, and a trip cursor for the target's trip under its key.
for name, plain in [("c2", "c2:5:3"), ("f3", "f3:10:2:4:1"), ("c1", "c1:7"), ("f1", "f1:3"), ("f2", "f2:4:2")]:
    write("cursor", name, b64url(plain.encode()))
trip = "0b7e2f4c-8d3a-4c1e-9f6b-2a5d7c8e9f10"
body = "t1:3:41:17"
tag = hmac.new(bytes([7] * 32), f"{trip}\n{body}".encode(), hashlib.sha256).digest()[:12].hex()
write("cursor", "trip", b64url(f"{body}:{tag}".encode()))
write("cursor", "known-list", b64url(b"c2:5:3") + "," + b64url(b"c2:6:1"))

# request: method, path, query, headers, body. $TOKEN becomes the fuzz account's token.
auth = "Authorization: Bearer $TOKEN\n"
note = "5c7a2e1f-0d3b-4a6c-8e9f-1a2b3c4d5e6f"
sealed = base64.b64encode(b"\1" * 40).decode()
requests = {
    "health": ("GET", "/v1/health", "", "", ""),
    "changes": ("GET", "/v1/notes/changes", "limit=5&since=" + b64url(b"c2:1:1"), auth, ""),
    "put": ("PUT", f"/v1/notes/{note}", "", auth + "Idempotency-Key: k1\n",
            json.dumps({"payload": sealed, "baseVersion": None})),
    # A base past Int.max: the PUT body's fast reader trapped on it (found by schemathesis).
    "put-huge-base": ("PUT", f"/v1/notes/{note}", "", auth + "Idempotency-Key: k3\n",
                      '{"payload": "0", "baseVersion": 9223372036854775808, "baseVersionTag": "1"}'),
    "batch": ("POST", "/v1/notes/batch", "", auth, json.dumps({"changes": [
        {"op": "put", "id": note, "idempotencyKey": "k4", "payload": sealed, "baseVersion": None},
        {"op": "delete", "id": note, "idempotencyKey": "k5", "baseVersion": 1, "baseVersionTag": "12"}]})),
    "delete": ("DELETE", f"/v1/notes/{note}", "baseVersion=1", auth + "Idempotency-Key: k2\n", ""),
    "register": ("POST", "/v1/accounts", "", "", json.dumps({
        "username": "seed", "authKey": base64.b64encode(b"\2" * 32).decode(),
        "kdf": {"salt": base64.b64encode(b"\7" * 16).decode(), "iterations": 1000},
        "wrappedNotesKey": base64.b64encode(b"\11" * 60).decode()})),
    "sign-in": ("POST", "/v1/sessions", "", "", json.dumps({
        "username": "fuzz", "authKey": base64.b64encode(b"\2" * 32).decode(), "deviceName": "d"})),
    "kdf": ("GET", "/v1/accounts/fuzz/kdf", "", "", ""),
    "create-trip": ("POST", "/v1/trips", "", auth, json.dumps({
        "id": trip, "wrappedKey": base64.b64encode(b"\3" * 60).decode()})),
    "trip-ops": ("POST", f"/v1/trips/{trip}/ops", "", auth, json.dumps({"ops": [{
        "opId": "op-1", "item": None, "field": "title", "value": sealed, "valueHash": "ab" * 32,
        "baseRevision": 0}]})),
    "trips-feed": ("GET", "/v1/trips", "limit=10", auth, ""),
    "trip-changes": ("GET", f"/v1/trips/{trip}/changes", "limit=10", auth, ""),
    "upload": ("POST", f"/v1/trips/{trip}/uploads", "", auth + "Tus-Resumable: 1.0.0\nUpload-Length: 10\n", ""),
    "sessions": ("GET", "/v1/sessions", "", auth, ""),
}
for name, fields in requests.items():
    write("request", name, "\0".join(fields))

# payload: form byte, then the input.
write("payload", "note-text", b"\0" + base64.b64encode(b"\0" * 12 + b"x" * 30))
write("payload", "note-json", b"\1" + json.dumps({"title": "T", "body": "B\n", "conflictOf": None}).encode())
write("payload", "note-json-extra", b"\1" + b'{"title":"","body":"","conflictOf":"5c7a2e1f-0d3b-4a6c-8e9f-1a2b3c4d5e6f","x":[1]}')
write("payload", "trip-value", b"\2" + base64.b64encode(b"\0" * 40))
write("payload", "invite", b"\3https://quire.example/join/0a1b2c3d#" + b64url(b"\4" * 32).encode())


# chunked: real sealed files under the target's key (ChunkedCipherFormat), and a bare header.
def sealed_file(plaintext, chunk_size, salt):
    header = b"QCHUNK" + bytes([1, 0]) + struct.pack(">I", chunk_size) + salt
    chunk_key = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt,
                     info=b"quire chunked file v1 chunk key").derive(bytes([5] * 32))
    chunks = [plaintext[i:i + chunk_size] for i in range(0, len(plaintext), chunk_size)] or [b""]
    out = header
    for index, chunk in enumerate(chunks):
        final = index == len(chunks) - 1
        nonce = b"\0" * 4 + struct.pack(">Q", index)
        ad = header + struct.pack(">Q", index) + bytes([1 if final else 0])
        out += AESGCM(chunk_key).encrypt(nonce, chunk, ad)
    return out


write("chunked", "three-chunks", sealed_file(b"photo bytes " * 4, 16, bytes(range(32))))
write("chunked", "one-chunk", sealed_file(b"tiny", 16, bytes([9] * 32)))
write("chunked", "empty-file", sealed_file(b"", 64, bytes([1] * 32)))
write("chunked", "header-only", b"QCHUNK" + bytes([1, 0]) + struct.pack(">I", 65536) + bytes(32))
