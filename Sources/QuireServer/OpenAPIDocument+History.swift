/// The history and trash parts of ``OpenAPIDocument``: their schemas and their paths, as JSON
/// fragments the document splices in.
extension OpenAPIDocument {
    static let historySchemas = #"""
              "NoteVersion": {
                "type": "object", "required": ["version", "savedAt", "payload"],
                "properties": {
                  "version": { "type": "integer", "minimum": 1 },
                  "savedAt": { "type": "string", "format": "date-time", "description": "When the server accepted this version" },
                  "payload": { "type": "string", "description": "The sealed payload exactly as it was sent (base64 of AES-GCM's combined form); the server never opens it" },
                  "versionTag": { "type": "string", "pattern": "^[0-9]{1,15}$" },
                  "current": { "type": "boolean", "description": "true for the note's current text; absent for an earlier one" }
                }
              },
              "NoteHistory": {
                "type": "object", "required": ["id", "version", "deleted", "updatedAt", "versions", "hasMore"],
                "properties": {
                  "id": { "type": "string", "format": "uuid" },
                  "version": { "type": "integer", "minimum": 1, "description": "The note's current version (its tombstone's when deleted): a restore is a PUT with this baseVersion" },
                  "versionTag": { "type": "string", "pattern": "^[0-9]{1,15}$" },
                  "deleted": { "type": "boolean" },
                  "updatedAt": { "type": "string", "format": "date-time" },
                  "versions": { "type": "array", "items": { "$ref": "#/components/schemas/NoteVersion" }, "description": "Newest first; the current text first while the note is live" },
                  "hasMore": { "type": "boolean", "description": "Older versions follow: ask again with before = the last version here" }
                }
              },
              "TrashPage": {
                "type": "object", "required": ["notes", "hasMore"],
                "properties": {
                  "notes": {
                    "type": "array", "description": "Most recently deleted first",
                    "items": {
                      "type": "object", "required": ["id", "version", "deletedAt", "last"],
                      "properties": {
                        "id": { "type": "string", "format": "uuid" },
                        "version": { "type": "integer", "description": "The tombstone's version: a restore is a PUT with this baseVersion" },
                        "versionTag": { "type": "string", "pattern": "^[0-9]{1,15}$" },
                        "deletedAt": { "type": "string", "format": "date-time" },
                        "last": { "$ref": "#/components/schemas/NoteVersion" }
                      }
                    }
                  },
                  "hasMore": { "type": "boolean" }
                }
              },
        """#

    static let historyPaths = #"""
            "/v1/notes/{id}/versions": {
              "get": {
                "summary": "A note's stored versions, newest first (its history), and its current state",
                "description": "Earlier versions are kept under the server's retention policy (by default every version for 24 hours, then one a day for 30 days, then one a week for a year, at most 256 MiB per account, oldest pruned first); a deleted note's last text stays until its tombstone is purged. Restoring one is an ordinary PUT of its text on the current version, which keeps the version it replaces. Another account's note id answers 404, as an unknown one does.",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/NoteID" },
                  { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 200 } },
                  { "name": "before", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 999999999999999999 }, "description": "Only versions numbered below this (the next page)." }
                ],
                "responses": {
                  "200": { "description": "The history", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/NoteHistory" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/notes/trash": {
              "get": {
                "summary": "Deleted notes that can still be restored, with the last text each had",
                "description": "A note stays here until its tombstone is purged (--tombstone-days). Restore one with PUT /v1/notes/{id} of its text on the tombstone's version.",
                "security": [{ "bearer": [] }],
                "parameters": [{ "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 500, "default": 200 } }],
                "responses": {
                  "200": { "description": "The trash", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/TrashPage" } } } },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" }
                }
              }
            },
        """#
}
