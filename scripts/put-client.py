#!/usr/bin/env python3
"""A small, deterministic load for scripts/put-instructions.sh: registers an account on a running
quire-server, signs in, then, on a signal file, PUTs a fixed number of new notes (a 2 KB payload
each, a fresh note id and Idempotency-Key each) over CONNECTIONS keep-alive connections, and
checks every answer is 200.

usage: put-client.py PORT PUTS CONNECTIONS READY_FILE GO_FILE DONE_FILE

It writes READY_FILE once signed in, waits for GO_FILE (the caller zeroes callgrind's counters
first), runs the PUTs, then writes DONE_FILE ("PUTS failures").
"""
import base64
import http.client
import json
import os
import sys
import threading
import time
import uuid

port, puts, connections = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
ready_file, go_file, done_file = sys.argv[4], sys.argv[5], sys.argv[6]


def call(conn, method, path, body=None, headers=None):
    conn.request(method, path, body=body, headers=headers or {})
    answer = conn.getresponse()
    return answer.status, answer.read()


b64 = lambda n: base64.b64encode(os.urandom(n)).decode()
auth_key = b64(32)
username = "callgrind-" + uuid.uuid4().hex[:8]
setup = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
for _ in range(600):
    try:
        call(setup, "GET", "/v1/health")
        break
    except OSError:
        setup.close()
        time.sleep(0.5)
status, body = call(setup, "POST", "/v1/accounts", json.dumps({
    "username": username, "authKey": auth_key,
    "kdf": {"algorithm": "pbkdf2-sha256", "salt": b64(16), "iterations": 1},
    "wrappedNotesKey": b64(60)}), {"Content-Type": "application/json"})
assert status == 201, (status, body)
status, body = call(setup, "POST", "/v1/sessions", json.dumps({
    "username": username, "authKey": auth_key, "deviceName": "callgrind"}),
    {"Content-Type": "application/json"})
assert status == 201 or status == 200, (status, body)
token = json.loads(body)["accessToken"]
# The same shape as quire-bench's server-put: a sealed 2 KB note is base64 text.
payload = base64.b64encode(os.urandom(1536)).decode()
put_body = json.dumps({"payload": payload, "baseVersion": None})
open(ready_file, "w").close()
while not os.path.exists(go_file):
    time.sleep(0.05)

failures = []
per_lane = [puts // connections + (1 if i < puts % connections else 0) for i in range(connections)]


def lane(count):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    for _ in range(count):
        note = str(uuid.uuid4())
        status, answer = call(conn, "PUT", "/v1/notes/" + note, put_body, {
            "Authorization": "Bearer " + token, "Content-Type": "application/json",
            "Idempotency-Key": note})
        if status != 200:
            failures.append((status, answer[:200]))
    conn.close()


threads = [threading.Thread(target=lane, args=(n,)) for n in per_lane]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
with open(done_file, "w") as done:
    done.write(f"{puts} {len(failures)}\n")
if failures:
    print("put-client: failed answers, first:", failures[0], file=sys.stderr)
    sys.exit(1)
