/// The OpenAPI 3.0 description of API v1 (accounts, sessions, notes, trips and their uploads) and `/metrics`, served at
/// `GET /v1/openapi.json`.
///
/// Hand-written (the history routes in `OpenAPIDocument+History.swift`); `OpenAPIDocumentTests`
/// checks that it parses and names every route the router serves.
enum OpenAPIDocument {
    static let json = #"""
        {
          "openapi": "3.0.3",
          "info": {
            "title": "Quire sync API",
            "version": "1",
            "description": "Offline-first, end-to-end encrypted notes. The server stores only sealed payloads. Errors are always {\"error\": {\"code\", \"message\"}} with Content-Type application/json, those of the HTTP layer included: 400 malformed_request, invalid_content_length, invalid_chunked_body or ambiguous_length (Content-Length beside Transfer-Encoding; the connection is closed), 413 payload_too_large, 431 or 414 request_too_large, 505 http_version_not_supported. A string in a JSON body may not hold a NUL (\\u0000): 400 invalid_request."
          },
          "components": {
            "securitySchemes": { "bearer": { "type": "http", "scheme": "bearer" } },
            "parameters": {
              "NoteID": { "name": "id", "in": "path", "required": true, "schema": { "type": "string", "format": "uuid" } },
              "TripID": { "name": "id", "in": "path", "required": true, "description": "A device-made UUID in lowercase.", "schema": { "type": "string", "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$" } },
              "TusResumable": { "name": "Tus-Resumable", "in": "header", "required": true, "description": "The tus version the client speaks; any other (or none) is 412 with Tus-Version.", "schema": { "type": "string", "enum": ["1.0.0"] } },
              "UploadID": { "name": "upload", "in": "path", "required": true, "description": "The id the server made (the last part of Location).", "schema": { "type": "string", "pattern": "^[0-9a-f]{32}$" } },
              "IdempotencyKey": { "name": "Idempotency-Key", "in": "header", "required": true, "description": "The change id; a resend with the same key and request gets the first answer, with another request 422.", "schema": { "type": "string", "minLength": 1, "maxLength": 200 } }
            },
            "schemas": {
        \#(historySchemas)
        \#(recoverySchemas)
        \#(sharingSchemas)
        \#(tripKeySchemas)
        \#(uploadSchemas)
        \#(sessionSchemas)
              "Error": {
                "type": "object", "required": ["error"],
                "properties": { "error": { "type": "object", "required": ["code", "message"], "properties": { "code": { "type": "string" }, "message": { "type": "string" } } } }
              },
              "NoteChange": {
                "type": "object", "required": ["id", "version", "updatedAt", "deleted"],
                "properties": {
                  "id": { "type": "string", "format": "uuid" },
                  "version": { "type": "integer", "minimum": 1 },
                  "updatedAt": { "type": "string", "format": "date-time" },
                  "deleted": { "type": "boolean" },
                  "payload": { "type": "string", "nullable": true, "description": "base64 of AES-GCM's combined form; null for a tombstone and for an ownWrite entry" },
                  "ownWrite": { "type": "boolean", "description": "True when the reader's own session wrote this state and its payload is left out (the device has the text): in every incremental page, and in a full listing asked for with ownPayloads=omit. The device confirms such an entry by version and versionTag, and lists again without ownPayloads when its copy differs. Absent otherwise." },
                  "versionTag": { "type": "string", "pattern": "^[0-9]{1,15}$", "description": "Opaque; with version, names this state in the server's history (after a restore from a backup one version number may name two texts). Send it back as baseVersionTag. Absent for states written before tags were kept." }
                }
              },
              "ChangesPage": {
                "type": "object", "required": ["changes", "nextCursor", "hasMore"],
                "properties": {
                  "changes": { "type": "array", "items": { "$ref": "#/components/schemas/NoteChange" } },
                  "nextCursor": { "type": "string", "description": "Opaque (sealed for this account and feed: another account's or feed's cursor is 400 invalid_cursor); send it back as since." },
                  "hasMore": { "type": "boolean" },
                  "remaining": { "type": "integer", "minimum": 0, "description": "About how many changes are still to come after this page (0 on the last); an estimate, for a progress total." }
                }
              },
              "PutNoteRequest": {
                "type": "object", "required": ["payload"],
                "properties": { "payload": { "type": "string", "minLength": 1 }, "baseVersion": { "type": "integer", "minimum": 1, "maximum": 9223372036854775807, "nullable": true }, "baseVersionTag": { "type": "string", "nullable": true, "pattern": "^[1-9][0-9]{0,14}$", "description": "The versionTag of baseVersion (null or absent: none); a base whose tag differs from the note's current one is a conflict (409) even when the numbers match." } }
              },
              "BatchRequest": {
                "type": "object", "required": ["changes"],
                "properties": { "changes": { "type": "array", "minItems": 1, "maxItems": 100, "items": { "oneOf": [{ "$ref": "#/components/schemas/BatchPut" }, { "$ref": "#/components/schemas/BatchDelete" }] } } }
              },
              "BatchPut": {
                "type": "object", "required": ["op", "id", "idempotencyKey", "payload"],
                "properties": {
                  "op": { "type": "string", "enum": ["put"] },
                  "id": { "type": "string", "format": "uuid" },
                  "idempotencyKey": { "type": "string", "minLength": 1, "maxLength": 200 },
                  "payload": { "type": "string", "minLength": 1 },
                  "baseVersion": { "type": "integer", "minimum": 1, "maximum": 9223372036854775807, "nullable": true },
                  "baseVersionTag": { "type": "string", "nullable": true, "pattern": "^[1-9][0-9]{0,14}$" }
                }
              },
              "BatchDelete": {
                "type": "object", "required": ["op", "id", "idempotencyKey", "baseVersion"],
                "properties": {
                  "op": { "type": "string", "enum": ["delete"] },
                  "id": { "type": "string", "format": "uuid" },
                  "idempotencyKey": { "type": "string", "minLength": 1, "maxLength": 200 },
                  "baseVersion": { "type": "integer", "minimum": 1, "maximum": 9223372036854775807 },
                  "baseVersionTag": { "type": "string", "nullable": true, "pattern": "^[1-9][0-9]{0,14}$" }
                }
              },
              "PutNoteResponse": { "type": "object", "required": ["version"], "properties": { "version": { "type": "integer" }, "versionTag": { "type": "string" } } },
              "Conflict": { "type": "object", "required": ["note"], "properties": { "note": { "$ref": "#/components/schemas/NoteChange" } } },
              "KDFParameters": {
                "type": "object", "required": ["algorithm", "salt", "iterations"],
                "properties": {
                  "algorithm": { "type": "string", "enum": ["pbkdf2-sha256"] },
                  "salt": { "type": "string", "format": "byte", "pattern": "\#(saltPattern)", "description": "base64 of 16 to 1024 bytes" },
                  "iterations": { "type": "integer", "minimum": \#(kdfFloorMarker), "maximum": 100000000, "description": "At least the server's floor (--min-kdf-iterations, 100000 by default), as this served document states it; the kdf route reports an account's own" }
                }
              },
              "CreateAccountRequest": {
                "type": "object", "required": ["username", "authKey", "kdf", "wrappedNotesKey"],
                "properties": {
                  "username": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$", "description": "case-insensitive; stored lowercased" },
                  "authKey": { "type": "string", "format": "byte", "pattern": "\#(authKeyPattern)", "description": "base64 of the 32-byte auth key derived from the password" },
                  "kdf": { "$ref": "#/components/schemas/KDFParameters" },
                  "wrappedNotesKey": { "type": "string", "format": "byte", "pattern": "\#(wrappedKeyPattern)", "description": "base64 of the sealed notes key, 28 to 1024 bytes" },
                  "recovery": { "allOf": [{ "$ref": "#/components/schemas/RecoveryMaterial" }], "nullable": true, "description": "null or absent: an account without a recovery key (it can make one later)" }
                }
              },
              "CreateAccountResponse": { "type": "object", "required": ["accountId"], "properties": { "accountId": { "type": "string", "format": "uuid" } } },
              "CreateSessionRequest": {
                "type": "object", "required": ["username", "authKey", "deviceName"],
                "properties": { "username": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$" }, "authKey": { "type": "string", "format": "byte", "pattern": "\#(authKeyPattern)" }, "deviceName": { "type": "string", "maxLength": 200 } }
              },
              "Session": {
                "type": "object", "required": ["accountId", "accessToken", "refreshToken", "expiresIn", "wrappedNotesKey"],
                "properties": {
                  "accountId": { "type": "string", "format": "uuid" },
                  "accessToken": { "type": "string" },
                  "refreshToken": { "type": "string", "description": "Single use: each refresh returns a new one; presenting a used one revokes the session, except one retry of the previous one soon after (60 seconds by default) while the pair it was traded for is unused: a lost reply." },
                  "expiresIn": { "type": "integer", "description": "Seconds until the access token expires." },
                  "wrappedNotesKey": { "type": "string", "format": "byte" }
                }
              },
              "RefreshSessionRequest": { "type": "object", "required": ["refreshToken"], "properties": { "refreshToken": { "type": "string", "minLength": 1, "maxLength": 512 } } },
              "CreateTripRequest": {
                "type": "object", "required": ["wrappedKey"],
                "properties": { "wrappedKey": { "type": "string", "format": "byte", "pattern": "\#(wrappedKeyPattern)", "description": "base64 of the trip key sealed with the account's notes key, 28 to 1024 bytes" } }
              },
              "TripEntry": {
                "type": "object", "required": ["id", "wrappedKey", "role", "deleted", "revision"],
                "properties": {
                  "id": { "type": "string", "format": "uuid" },
                  "wrappedKey": { "type": "string", "format": "byte", "description": "The trip key sealed for this account" },
                  "role": { "type": "string", "enum": ["owner", "editor", "viewer"] },
                  "deleted": { "type": "boolean", "description": "The trip's deleted field is true; the entry stays" },
                  "revision": { "type": "integer", "minimum": 0, "description": "The trip's newest revision" },
                  "removed": { "type": "boolean", "description": "Present and true when this account is no longer a member (removed or left): delete the local copy. role is the role it had, wrappedKey empty, revision 0." },
                  "keyEpoch": { "type": "integer", "minimum": 2, "description": "The epoch of the key in wrappedKey; absent for 1" },
                  "keyForm": { "type": "string", "enum": ["sealed"], "description": "sealed: a rotation sealed wrappedKey to this account's sharing public key; absent: wrapped with its notes key" },
                  "rekeyDue": { "type": "boolean", "description": "For an owner: a member left since the key last rotated; rotate it (POST /v1/trips/{id}/keys)" },
                  "deleteSeenRevision": { "type": "integer", "minimum": 0, "description": "For a deleted trip: the newest revision its deleter had seen; a device's own changes after it come back to it to restore the trip" }
                }
              },
              "TripsFeedPage": {
                "type": "object", "required": ["trips", "nextCursor", "hasMore"],
                "properties": {
                  "trips": { "type": "array", "items": { "$ref": "#/components/schemas/TripEntry" }, "description": "Each trip once, at its newest state, in the order the trips last changed" },
                  "nextCursor": { "type": "string", "description": "Opaque (sealed for this account and feed: another account's or feed's cursor is 400 invalid_cursor); send it back as since." },
                  "hasMore": { "type": "boolean" }
                }
              },
              "TripField": {
                "type": "object", "required": ["field", "revision"],
                "properties": {
                  "item": { "type": "string", "format": "uuid", "nullable": true, "description": "null for a field of the trip itself" },
                  "field": { "type": "string", "description": "Trip fields: title, startDate, endDate, notes, deleted. Item fields: title, kind, notes, location, start, end, order, deleted. The server also writes member.<username> on the trip when someone joins, changes role or leaves (sharing)." },
                  "value": { "type": "string", "nullable": true, "description": "Sealed value (base64), null when cleared; for deleted, the plain text true or false; for member.<username>, the plain-text role (owner, editor, viewer), null once the member left" },
                  "valueHash": { "type": "string", "nullable": true, "pattern": "^[0-9a-f]{64}$", "description": "The device's keyed hash of the plaintext" },
                  "revision": { "type": "integer", "minimum": 1, "description": "The trip revision that wrote this value (per trip, gap-free, from 1)" },
                  "seenRevision": { "type": "integer", "minimum": 0, "description": "On an item's deleted set to true: the op's base, the item's newest revision its deleter had seen. An edit of the item at a later revision was not seen by the delete; its device offers it back to restore. On a member.<username> entry of a role change or a departure (a leave or a removal): the revision of the join that started the membership, so a device can tell that membership, listed again by a server restored from a backup, from a join since. Absent on a join." },
                  "author": { "type": "string", "description": "The username of the account whose request wrote this value; absent on membership entries and on values written before the server kept authors. A device holding a value of someone who left sends it again when a server restored from a backup forgot it." }
                }
              },
              "TripChangesPage": {
                "type": "object", "required": ["changes", "nextCursor", "hasMore"],
                "properties": {
                  "changes": { "type": "array", "items": { "$ref": "#/components/schemas/TripField" }, "description": "Fields written after the cursor, in revision order, each once at its newest value" },
                  "nextCursor": { "type": "string", "description": "Opaque, sealed for this trip and account (any other is 400 invalid_cursor); send it back as cursor." },
                  "hasMore": { "type": "boolean" }
                }
              },
              "TripSnapshot": {
                "type": "object", "required": ["trip", "fields", "cursor"],
                "properties": {
                  "trip": { "$ref": "#/components/schemas/TripEntry" },
                  "fields": { "type": "array", "items": { "$ref": "#/components/schemas/TripField" }, "description": "Every stored field of the trip and its items, tombstones included, in revision order" },
                  "cursor": { "type": "string", "description": "Continues the changes feed after this snapshot." }
                }
              },
              "TripOp": {
                "type": "object", "required": ["field", "baseRevision"],
                "properties": {
                  "item": { "type": "string", "nullable": true, "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", "description": "A lowercase UUID; null or absent for the trip itself. An unknown item is created." },
                  "field": { "type": "string", "enum": ["title", "startDate", "endDate", "notes", "deleted", "kind", "location", "start", "end", "order"], "description": "For the trip: title, startDate, endDate, notes, deleted. For an item: title, kind, notes, location, start, end, order, deleted." },
                  "value": { "type": "string", "nullable": true, "minLength": 1, "maxLength": 65536, "description": "Base64 of the sealed value (after eN. for key epoch N of 2 or more), or null to clear it. For deleted: true or false (not null). A value sealed with another epoch than the trip's current one: 409 trip_key_rotated." },
                  "valueHash": { "type": "string", "nullable": true, "pattern": "^[0-9a-f]{64}$", "description": "Present exactly when value is (optional for deleted, whose plain value is compared)." },
                  "baseRevision": { "type": "integer", "minimum": 0, "maximum": 9223372036854775807, "description": "The revision of the value the person edited; 0 for a field never seen on the server. For deleted set to true on an item: the item's newest revision the device has seen (kept as the tombstone's seenRevision)." }
                }
              },
              "TripOpsRequest": {
                "type": "object", "required": ["opId", "ops"],
                "properties": {
                  "opId": { "type": "string", "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", "description": "Device-made, one per request; a resend of the same request gets the first answer byte for byte, another request with it 422 op_id_reused." },
                  "ops": { "type": "array", "minItems": 1, "maxItems": 200, "items": { "$ref": "#/components/schemas/TripOp" } },
                  "keyCheck": { "type": "string", "pattern": "^[A-Za-z0-9_-]{22}$", "description": "The check of the key the values are sealed with (epoch 2 or more); another check than the current epoch's: 409 trip_key_rotated" }
                }
              },
              "TripOpResult": {
                "type": "object", "required": ["status"],
                "properties": {
                  "status": { "type": "string", "enum": ["applied", "conflict", "rejected"] },
                  "revision": { "type": "integer", "description": "applied: the field's revision (unchanged when the value was already stored)" },
                  "conflictField": { "type": "string", "description": "conflict: the op's field, or deleted when the item (or trip) was deleted" },
                  "serverValue": { "type": "string", "nullable": true },
                  "serverValueHash": { "type": "string", "nullable": true },
                  "serverRevision": { "type": "integer" },
                  "reason": { "type": "string", "description": "rejected: why, e.g. trip_deleted for an item op in a deleted trip" }
                }
              },
              "TripOpsResponse": {
                "type": "object", "required": ["results", "revision"],
                "properties": {
                  "results": { "type": "array", "items": { "$ref": "#/components/schemas/TripOpResult" }, "description": "One per op, in order" },
                  "revision": { "type": "integer", "description": "The trip's newest revision after the request" },
                  "position": { "type": "string", "description": "Present when the request wrote something: the trip's position after it, opaque. Send it as known on the trip's changes pulls until one reaches the end: a server restored to before the write answers invalid_cursor." }
                }
              },
              "ChangePasswordRequest": {
                "type": "object", "required": ["currentAuthKey", "newAuthKey", "kdf", "wrappedNotesKey"],
                "properties": {
                  "currentAuthKey": { "type": "string", "format": "byte", "pattern": "\#(authKeyPattern)" },
                  "newAuthKey": { "type": "string", "format": "byte", "pattern": "\#(authKeyPattern)" },
                  "kdf": { "$ref": "#/components/schemas/KDFParameters" },
                  "wrappedNotesKey": { "type": "string", "format": "byte", "pattern": "\#(wrappedKeyPattern)" }
                }
              }
            },
            "responses": {
              "Error": { "description": "A refusal", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
              "Conflict": { "description": "The base version is stale: the server copy or its tombstone", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Conflict" } } } },
              "Throttled": {
                "description": "Too many failed sign-ins of this username from this address, or from this address (too_many_attempts): the wait doubles with each further failure (3 free per username and address, 20 per address, then 1 s up to 15 min). The owner on another address is not slowed.",
                "headers": { "Retry-After": { "description": "Seconds to wait", "schema": { "type": "integer" } } },
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
              },
              "RegistrationsThrottled": {
                "description": "Too many registrations from this address (too_many_registrations): a token bucket per address (--registration-burst, --registration-interval)",
                "headers": { "Retry-After": { "description": "Seconds to wait", "schema": { "type": "integer" } } },
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
              },
              "QuotaExceeded": {
                "description": "quota_exceeded: the put would pass the account's quota of live notes or of their payload bytes (--max-notes-per-account, --max-mib-per-account); nothing was stored. Edits that do not grow the account still pass; delete or shorten notes, then send again. Not recorded with the idempotency key.",
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
              },
              "Session": { "description": "A signed-in session", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Session" } } } }
            }
          },
          "paths": {
            "/v1/accounts/{username}/kdf": {
              "get": {
                "summary": "Key-derivation parameters to derive keys before signing in; stable fake ones for a username without an account",
                "parameters": [{ "name": "username", "in": "path", "required": true, "schema": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$" } }],
                "responses": {
                  "200": { "description": "Parameters", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/KDFParameters" } } } },
                  "400": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/accounts": {
              "post": {
                "summary": "Register an account",
                "description": "The server never sees the password, so it cannot judge its strength: the client refuses a weak one before registering (docs/security.md). With recovery, the account can later set a new password with its recovery key (POST /v1/accounts/recovery/password).",
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/CreateAccountRequest" } } } },
                "responses": {
                  "201": { "description": "Created", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/CreateAccountResponse" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "409": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/RegistrationsThrottled" }
                }
              }
            },
            "/v1/accounts/current/password": {
              "put": {
                "summary": "Change the password: new auth key, kdf parameters and wrapped notes key; every other session is signed out",
                "security": [{ "bearer": [] }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ChangePasswordRequest" } } } },
                "responses": {
                  "204": { "description": "Changed" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Throttled" }
                }
              }
            },
            "/v1/sessions": {
              "get": {
                "summary": "The account's signed-in devices: its sessions that are neither revoked nor ended (idle 60 days or 365 days old by default, --session-idle-days, --session-max-days)",
                "security": [{ "bearer": [] }],
                "responses": {
                  "200": { "description": "The sessions", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SessionList" } } } },
                  "401": { "$ref": "#/components/responses/Error" }
                }
              },
              "post": {
                "summary": "Sign in",
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/CreateSessionRequest" } } } },
                "responses": {
                  "200": { "$ref": "#/components/responses/Session" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "429": { "$ref": "#/components/responses/Throttled" }
                }
              }
            },
            "/v1/sessions/refresh": {
              "post": {
                "summary": "Trade the refresh token for a new pair; a reused refresh token revokes its session (one prompt retry of a lost reply excepted)",
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RefreshSessionRequest" } } } },
                "responses": {
                  "200": { "$ref": "#/components/responses/Session" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/sessions/current": {
              "delete": {
                "summary": "Sign out: the session's tokens stop working",
                "security": [{ "bearer": [] }],
                "responses": { "204": { "description": "Signed out" }, "401": { "$ref": "#/components/responses/Error" } }
              }
            },
            "/v1/health": {
              "get": { "summary": "Liveness", "responses": { "200": { "description": "{\"status\":\"ok\"}" } } }
            },
            "/v1/openapi.json": {
              "get": { "summary": "This document", "responses": { "200": { "description": "OpenAPI 3.0" } } }
            },
            "/metrics": {
              "get": {
                "summary": "Request counts and latency histograms per route, in the Prometheus text format 0.0.4",
                "description": "Started with --metrics-token-file, the server answers only 'Authorization: Bearer TOKEN' (TOKEN the file's first line), from any client, loopback included (401 otherwise). Without it, only loopback clients (127.0.0.0/8, ::1) are answered, others get 403 forbidden; behind a reverse proxy on the same machine every client looks like loopback, so block the path there or use the token. Labels are route templates, methods and status codes only; no note id, username, token or content ever appears.",
                "security": [{}, { "bearer": [] }],
                "responses": { "200": { "description": "Prometheus text exposition", "content": { "text/plain; version=0.0.4": { "schema": { "type": "string" } } } }, "401": { "$ref": "#/components/responses/Error" }, "403": { "$ref": "#/components/responses/Error" }, "405": { "$ref": "#/components/responses/Error" } }
              }
            },
            "/v1/notes/batch": {
              "post": {
                "summary": "Several pending changes in one request, applied in order in one transaction",
                "description": "Each change follows exactly the rules of its single route (PUT /v1/notes/{id} or DELETE /v1/notes/{id}), idempotency key included. Body: {changes: [{op: put|delete, id, idempotencyKey, payload?, baseVersion?, baseVersionTag?}]} with 1 to 100 changes; a malformed batch is refused whole (400) and nothing is stored. Answer: {results: [{status, version?, versionTag?, cursor?, previousCursor?, note?, error?, baseKnown?, replayed?}]}, one per change, in order; replayed is true for the recorded answer to an earlier send of the same change. A put past the account's quota is a result of status 403 with error quota_exceeded, counting the batch's earlier changes.",
                "security": [{ "bearer": [] }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/BatchRequest" } } } },
                "responses": { "200": { "description": "One result per change" }, "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" }, "413": { "$ref": "#/components/responses/Error" } }
              }
            },
        \#(historyPaths)
        \#(recoveryPaths)
        \#(sharingPaths)
        \#(tripKeyPaths)
        \#(uploadPaths)
        \#(sessionPaths)
            "/v1/notes/changes": {
              "get": {
                "summary": "One page of the account's changes feed",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "name": "since", "in": "query", "schema": { "type": "string" }, "description": "A nextCursor; absent for a full resync (live notes only)." },
                  { "name": "known", "in": "query", "schema": { "type": "string" }, "description": "Cursors of writes this device had acknowledged (from put or batch answers), comma-separated, at most 32. 400 invalid_cursor when the server no longer has one of those writes (it was restored from an older backup), however old since is: list everything again and upload what the server lost." },
                  { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 200 } },
                  { "name": "wait", "in": "query", "schema": { "type": "integer", "minimum": 0, "maximum": 30, "default": 0 }, "description": "Seconds to hold an empty page open until a change arrives." },
                  { "name": "ownPayloads", "in": "query", "schema": { "type": "string", "enum": ["omit"] }, "description": "omit: in a full listing too (no since, or a listing's continuation cursor), notes whose current state the reader's own session wrote come without payload, marked ownWrite, so a device that uploaded its notes does not download them back on its first sync. Incremental pages always leave them out. 400 invalid_request for any other value." }
                ],
                "responses": {
                  "200": { "description": "A page", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ChangesPage" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "410": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/trips": {
              "get": {
                "summary": "The account's trips feed: each trip it belongs to once, at its newest state, ordered by when it last changed",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "name": "since", "in": "query", "schema": { "type": "string" }, "description": "A nextCursor; absent for every trip." },
                  { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 200 } },
                  { "name": "wait", "in": "query", "schema": { "type": "integer", "minimum": 0, "maximum": 30, "default": 0 }, "description": "Seconds to hold an empty page open until one of the account's trips changes." }
                ],
                "responses": {
                  "200": { "description": "A page", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripsFeedPage" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/trips/{id}": {
              "put": {
                "summary": "Create a trip owned by the caller; idempotent for the same account",
                "description": "403 quota_exceeded when the caller already owns its most trips (--max-trips-per-account; deleted trips do not count): nothing is stored.",
                "security": [{ "bearer": [] }],
                "parameters": [{ "$ref": "#/components/parameters/TripID" }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/CreateTripRequest" } } } },
                "responses": {
                  "201": {
                    "description": "Created", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripEntry" } } },
                    "links": {
                      "Snapshot": { "operationRef": "#/paths/~1v1~1trips~1{id}/get", "parameters": { "id": "$response.body#/id" } },
                      "Ops": { "operationRef": "#/paths/~1v1~1trips~1{id}~1ops/post", "parameters": { "id": "$response.body#/id" } },
                      "Changes": { "operationRef": "#/paths/~1v1~1trips~1{id}~1changes/get", "parameters": { "id": "$response.body#/id" } }
                    }
                  },
                  "200": { "description": "The caller already has it (the stored entry)", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripEntry" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "409": { "$ref": "#/components/responses/Error" },
                  "413": { "$ref": "#/components/responses/Error" }
                }
              },
              "get": {
                "summary": "The trip's snapshot: every field (tombstones included) and the cursor that continues after it",
                "security": [{ "bearer": [] }],
                "parameters": [{ "$ref": "#/components/parameters/TripID" }],
                "responses": {
                  "200": { "description": "The snapshot", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripSnapshot" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/trips/{id}/ops": {
              "post": {
                "summary": "Apply field ops in order, in one transaction, with the per-field merge rule",
                "description": "An op applies when its field does not exist, has not changed since baseRevision, or already holds the value (equal valueHash; for deleted, the plain value); otherwise it is a conflict with the server's value. An op on a deleted item or trip, other than setting deleted, is a conflict on deleted. A trip the caller is not a member of is 404; a viewer gets 403. 403 quota_exceeded when the ops would grow the trip's values past --max-trip-mib (edits that shrink it always pass): nothing is applied or recorded with the op id, so the same request passes once there is room. The body is at most 4194304 bytes.",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/TripID" },
                  { "name": "cursor", "in": "query", "schema": { "type": "string" }, "description": "The device's changes cursor of this trip: the history the ops' bases come from. 400 invalid_cursor, nothing applied, when this server's history does not hold it (restored from a backup): fetch the snapshot and send the ops again on its revisions." },
                  { "name": "known", "in": "query", "schema": { "type": "string" }, "description": "Comma-separated, at most 32: the positions of the device's acknowledged requests no pull has checked yet, checked the same way." }
                ],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripOpsRequest" } } } },
                "responses": {
                  "200": { "description": "One result per op", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripOpsResponse" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "413": { "$ref": "#/components/responses/Error" },
                  "422": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/trips/{id}/changes": {
              "get": {
                "summary": "The trip's fields written after the cursor, in revision order",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/TripID" },
                  { "name": "cursor", "in": "query", "schema": { "type": "string" }, "description": "A nextCursor or snapshot cursor of this trip; absent for every field from the beginning." },
                  { "name": "known", "in": "query", "schema": { "type": "string" }, "description": "Comma-separated, at most 32: the positions of this device's acknowledged ops requests no pull has checked yet (TripOpsResponse.position). 400 invalid_cursor when this server's history does not hold one of them (restored from a backup): fetch the snapshot and send the forgotten writes again." },
                  { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 200 } }
                ],
                "responses": {
                  "200": { "description": "A page", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TripChangesPage" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "410": { "description": "cursor_expired: the cursor is older than the trip's purge of deleted items; fetch the snapshot", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
                }
              }
            },
            "/v1/notes/{id}": {
              "put": {
                "summary": "Create or update a note",
                "security": [{ "bearer": [] }],
                "parameters": [{ "$ref": "#/components/parameters/NoteID" }, { "$ref": "#/components/parameters/IdempotencyKey" }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/PutNoteRequest" } } } },
                "responses": {
                  "200": {
                    "description": "Saved", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/PutNoteResponse" } } },
                    "links": {
                      "EditAgain": { "operationRef": "#/paths/~1v1~1notes~1{id}/put", "parameters": { "id": "$request.path.id" }, "requestBody": { "payload": "$request.body#/payload", "baseVersion": "$response.body#/version", "baseVersionTag": "$response.body#/versionTag" } },
                      "Delete": { "operationRef": "#/paths/~1v1~1notes~1{id}/delete", "parameters": { "id": "$request.path.id", "baseVersion": "$response.body#/version" } },
                      "History": { "operationRef": "#/paths/~1v1~1notes~1{id}~1versions/get", "parameters": { "id": "$request.path.id" } }
                    }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "$ref": "#/components/responses/QuotaExceeded" },
                  "409": { "$ref": "#/components/responses/Conflict" },
                  "413": { "$ref": "#/components/responses/Error" },
                  "422": { "$ref": "#/components/responses/Error" }
                }
              },
              "delete": {
                "summary": "Delete a note (leaves a tombstone)",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/NoteID" },
                  { "$ref": "#/components/parameters/IdempotencyKey" },
                  { "name": "baseVersion", "in": "query", "required": true, "schema": { "type": "integer", "minimum": 1, "maximum": 999999999999999999 } },
                  { "name": "baseVersionTag", "in": "query", "required": false, "schema": { "type": "string", "pattern": "^[1-9][0-9]{0,14}$" } }
                ],
                "responses": {
                  "204": { "description": "Deleted, or already deleted" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "409": { "$ref": "#/components/responses/Conflict" },
                  "422": { "$ref": "#/components/responses/Error" }
                }
              }
            }
          }
        }
        """#
}
