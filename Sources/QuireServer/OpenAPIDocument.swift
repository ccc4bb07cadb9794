/// The OpenAPI 3.0 description of API v1 (accounts, sessions and notes) and `/metrics`, served at
/// `GET /v1/openapi.json`.
///
/// Hand-written; `OpenAPIDocumentTests` checks that it parses and names every route the router serves.
enum OpenAPIDocument {
    static let json = #"""
        {
          "openapi": "3.0.3",
          "info": {
            "title": "Quire sync API",
            "version": "1",
            "description": "Offline-first, end-to-end encrypted notes. The server stores only sealed payloads. Errors are always {\"error\": {\"code\", \"message\"}}."
          },
          "components": {
            "securitySchemes": { "bearer": { "type": "http", "scheme": "bearer" } },
            "parameters": {
              "NoteID": { "name": "id", "in": "path", "required": true, "schema": { "type": "string", "format": "uuid" } },
              "IdempotencyKey": { "name": "Idempotency-Key", "in": "header", "required": true, "description": "The change id; a resend with the same key and request gets the first answer, with another request 422.", "schema": { "type": "string", "minLength": 1, "maxLength": 200 } }
            },
            "schemas": {
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
                  "payload": { "type": "string", "nullable": true, "description": "base64 of AES-GCM's combined form; null for a tombstone" },
                  "versionTag": { "type": "string", "pattern": "^[0-9]{1,15}$", "description": "Opaque; with version, names this state in the server's history (after a restore from a backup one version number may name two texts). Send it back as baseVersionTag. Absent for states written before tags were kept." }
                }
              },
              "ChangesPage": {
                "type": "object", "required": ["changes", "nextCursor", "hasMore"],
                "properties": {
                  "changes": { "type": "array", "items": { "$ref": "#/components/schemas/NoteChange" } },
                  "nextCursor": { "type": "string", "description": "Opaque; send it back as since." },
                  "hasMore": { "type": "boolean" }
                }
              },
              "PutNoteRequest": {
                "type": "object", "required": ["payload"],
                "properties": { "payload": { "type": "string", "minLength": 1 }, "baseVersion": { "type": "integer", "minimum": 1, "nullable": true }, "baseVersionTag": { "type": "string", "pattern": "^[0-9]{1,15}$", "description": "The versionTag of baseVersion; a base whose tag differs from the note's current one is a conflict (409) even when the numbers match." } }
              },
              "PutNoteResponse": { "type": "object", "required": ["version"], "properties": { "version": { "type": "integer" }, "versionTag": { "type": "string" } } },
              "Conflict": { "type": "object", "required": ["note"], "properties": { "note": { "$ref": "#/components/schemas/NoteChange" } } },
              "KDFParameters": {
                "type": "object", "required": ["algorithm", "salt", "iterations"],
                "properties": {
                  "algorithm": { "type": "string", "enum": ["pbkdf2-sha256"] },
                  "salt": { "type": "string", "format": "byte", "description": "base64, at least 16 bytes" },
                  "iterations": { "type": "integer", "minimum": 1, "description": "at least the server's floor (100000 by default) when registering" }
                }
              },
              "CreateAccountRequest": {
                "type": "object", "required": ["username", "authKey", "kdf", "wrappedNotesKey"],
                "properties": {
                  "username": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$", "description": "case-insensitive; stored lowercased" },
                  "authKey": { "type": "string", "format": "byte", "description": "base64 of the 32-byte auth key derived from the password" },
                  "kdf": { "$ref": "#/components/schemas/KDFParameters" },
                  "wrappedNotesKey": { "type": "string", "format": "byte", "description": "base64 of the sealed notes key, 28 to 1024 bytes" }
                }
              },
              "CreateAccountResponse": { "type": "object", "required": ["accountId"], "properties": { "accountId": { "type": "string", "format": "uuid" } } },
              "CreateSessionRequest": {
                "type": "object", "required": ["username", "authKey", "deviceName"],
                "properties": { "username": { "type": "string" }, "authKey": { "type": "string", "format": "byte" }, "deviceName": { "type": "string", "maxLength": 200 } }
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
              "RefreshSessionRequest": { "type": "object", "required": ["refreshToken"], "properties": { "refreshToken": { "type": "string" } } },
              "ChangePasswordRequest": {
                "type": "object", "required": ["currentAuthKey", "newAuthKey", "kdf", "wrappedNotesKey"],
                "properties": {
                  "currentAuthKey": { "type": "string", "format": "byte" },
                  "newAuthKey": { "type": "string", "format": "byte" },
                  "kdf": { "$ref": "#/components/schemas/KDFParameters" },
                  "wrappedNotesKey": { "type": "string", "format": "byte" }
                }
              }
            },
            "responses": {
              "Error": { "description": "A refusal", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
              "Conflict": { "description": "The base version is stale: the server copy or its tombstone", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Conflict" } } } },
              "Throttled": {
                "description": "Too many failed sign-ins for this username or address (too_many_attempts)",
                "headers": { "Retry-After": { "description": "Seconds to wait", "schema": { "type": "integer" } } },
                "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
              },
              "Session": { "description": "A signed-in session", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Session" } } } }
            }
          },
          "paths": {
            "/v1/accounts/{username}/kdf": {
              "get": {
                "summary": "Key-derivation parameters to derive keys before signing in; stable fake ones for a username without an account",
                "parameters": [{ "name": "username", "in": "path", "required": true, "schema": { "type": "string" } }],
                "responses": {
                  "200": { "description": "Parameters", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/KDFParameters" } } } },
                  "400": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/accounts": {
              "post": {
                "summary": "Register an account",
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/CreateAccountRequest" } } } },
                "responses": {
                  "201": { "description": "Created", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/CreateAccountResponse" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "409": { "$ref": "#/components/responses/Error" }
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
                "description": "No authentication: do not expose this path publicly (keep it on a private network or block it at the reverse proxy). Labels are route templates, methods and status codes only; no note id, username, token or content ever appears.",
                "responses": { "200": { "description": "Prometheus text exposition", "content": { "text/plain; version=0.0.4": { "schema": { "type": "string" } } } }, "405": { "$ref": "#/components/responses/Error" } }
              }
            },
            "/v1/notes/batch": {
              "post": {
                "summary": "Several pending changes in one request, applied in order in one transaction",
                "description": "Each change follows exactly the rules of its single route (PUT /v1/notes/{id} or DELETE /v1/notes/{id}), idempotency key included. Body: {changes: [{op: put|delete, id, idempotencyKey, payload?, baseVersion?, baseVersionTag?}]} with 1 to 100 changes; a malformed batch is refused whole (400) and nothing is stored. Answer: {results: [{status, version?, versionTag?, cursor?, previousCursor?, note?, error?}]}, one per change, in order.",
                "security": [{ "bearer": [] }],
                "responses": { "200": { "description": "One result per change" }, "400": { "$ref": "#/components/responses/Error" }, "401": { "$ref": "#/components/responses/Error" }, "413": { "$ref": "#/components/responses/Error" } }
              }
            },
            "/v1/notes/changes": {
              "get": {
                "summary": "One page of the account's changes feed",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "name": "since", "in": "query", "schema": { "type": "string" }, "description": "A nextCursor; absent for a full resync (live notes only)." },
                  { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 200 } },
                  { "name": "wait", "in": "query", "schema": { "type": "integer", "minimum": 0, "maximum": 30, "default": 0 }, "description": "Seconds to hold an empty page open until a change arrives." }
                ],
                "responses": {
                  "200": { "description": "A page", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ChangesPage" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "410": { "$ref": "#/components/responses/Error" }
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
                  "200": { "description": "Saved", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/PutNoteResponse" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
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
                  { "name": "baseVersion", "in": "query", "required": true, "schema": { "type": "integer", "minimum": 1 } },
                  { "name": "baseVersionTag", "in": "query", "required": false, "schema": { "type": "string", "pattern": "^[0-9]{1,15}$" } }
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
