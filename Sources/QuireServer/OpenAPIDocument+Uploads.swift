/// The upload routes of ``OpenAPIDocument`` (issue 16: tus 1.0 under a trip): their schemas and
/// paths, as JSON fragments the document splices in.
extension OpenAPIDocument {
    static let uploadSchemas = #"""
              "UploadCreated": {
                "type": "object", "required": ["id", "location", "length"],
                "properties": {
                  "id": { "type": "string", "pattern": "^[0-9a-f]{32}$" },
                  "location": { "type": "string", "description": "The upload's path, as in the Location header" },
                  "length": { "type": "integer", "minimum": 0 },
                  "expiresAt": { "type": "string", "format": "date-time", "description": "When the unfinished upload expires (absent for an empty upload, complete at once)" }
                }
              },
        """#

    static let uploadPaths = #"""
            "/v1/trips/{id}/uploads": {
              "options": {
                "summary": "The tus protocol and the limits: Tus-Version 1.0.0, Tus-Extension creation,expiration,termination, Tus-Max-Size (the largest upload, --max-upload-mib) and Quire-Max-Chunk-Size (the largest PATCH body, --upload-chunk-mib); no token needed",
                "parameters": [{ "$ref": "#/components/parameters/TripID" }],
                "responses": {
                  "204": { "description": "The headers above, with Tus-Resumable" },
                  "400": { "$ref": "#/components/responses/Error" }
                }
              },
              "post": {
                "summary": "Create a resumable upload (tus creation) of the caller's in the trip; an editor or owner only",
                "description": "tus 1.0 with the creation, expiration and termination extensions, so any tus client uploads. The device seals the file first (docs/security.md, Photos) and uploads the ciphertext: the server stores only that. Every request but OPTIONS sends Tus-Resumable: 1.0.0 (else 412, with Tus-Version) and every answer has it; refusals are JSON errors. The body is empty (no creation-with-upload); Upload-Defer-Length is refused. The uploads of an account may declare at most --upload-quota-mib together, finished or not, until they are deleted: past it 403 quota_exceeded. An unfinished upload expires --upload-expiry-hours after its creation or last PATCH (Upload-Expires), then answers 410 and is removed by the background work.",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/TripID" },
                  { "$ref": "#/components/parameters/TusResumable" },
                  { "name": "Upload-Length", "in": "header", "required": true, "schema": { "type": "integer", "minimum": 0, "maximum": 1073741824 }, "description": "The whole upload's size in bytes, at most Tus-Max-Size (1073741824 by default: --max-upload-mib)" },
                  { "name": "Upload-Metadata", "in": "header", "schema": { "type": "string", "maxLength": 4096 }, "description": "tus metadata: comma-separated 'key base64value' pairs, each key once; kept as sent and answered by HEAD. Quire's own client sends none that says anything about the photo." }
                ],
                "responses": {
                  "201": {
                    "description": "Created at offset 0",
                    "headers": {
                      "Location": { "description": "The upload's path: /v1/trips/{id}/uploads/{upload}", "schema": { "type": "string" } },
                      "Upload-Expires": { "description": "When the unfinished upload expires (an HTTP date)", "schema": { "type": "string" } }
                    },
                    "content": { "application/json": { "schema": { "$ref": "#/components/schemas/UploadCreated" } } }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "403": { "description": "forbidden (a viewer of the trip) or quota_exceeded (the account's uploads would pass --upload-quota-mib)", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
                  "404": { "$ref": "#/components/responses/Error" },
                  "412": { "$ref": "#/components/responses/Error" },
                  "413": { "description": "upload_too_large: Upload-Length is past Tus-Max-Size", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
                  "501": { "$ref": "#/components/responses/Error" }
                }
              }
            },
            "/v1/trips/{id}/uploads/{upload}": {
              "options": {
                "summary": "As OPTIONS on the collection",
                "parameters": [{ "$ref": "#/components/parameters/TripID" }, { "$ref": "#/components/parameters/UploadID" }],
                "responses": {
                  "204": { "description": "The tus headers" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              },
              "get": {
                "summary": "Download a finished upload's bytes (ciphertext the device sealed): any member of the trip, whoever uploaded it",
                "description": "Not a tus request (no Tus-Resumable needed). Range: bytes=FIRST-LAST (or FIRST-, or -COUNT; one range) answers 206 with Content-Range, at most Quire-Max-Chunk-Size bytes at a time: a longer range is answered with its first part, which Content-Range names. Without Range, or with one that names no bytes (last before first, -0), the whole upload (200) when it fits in that limit, else 400 range_required. An unfinished upload, one in another trip, or a trip the caller is not a member of is 404, as one that does not exist.",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/TripID" },
                  { "$ref": "#/components/parameters/UploadID" },
                  { "name": "Range", "in": "header", "schema": { "type": "string", "pattern": "^bytes=([0-9]+-[0-9]*|-[0-9]+)$" }, "description": "One range of bytes to download, to resume from where a file ends" }
                ],
                "responses": {
                  "200": { "description": "The whole upload", "content": { "application/octet-stream": { "schema": { "type": "string", "format": "binary" } } } },
                  "206": {
                    "description": "The bytes Content-Range names",
                    "headers": { "Content-Range": { "description": "bytes FIRST-LAST/LENGTH", "schema": { "type": "string" } } },
                    "content": { "application/octet-stream": { "schema": { "type": "string", "format": "binary" } } }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "416": { "description": "range_not_satisfiable: the range starts at or past the end (Content-Range: bytes */LENGTH)", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
                  "500": { "description": "blob_damaged: the blob directory holds fewer bytes than the server confirmed", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
                }
              },
              "head": {
                "summary": "Where the upload stands: Upload-Offset (the confirmed offset: every byte before it is durable), Upload-Length, Upload-Metadata as sent, Upload-Expires while unfinished; Cache-Control: no-store",
                "description": "Another account's upload, or one under another trip, is 404 as one that does not exist; an unfinished upload past its expiry is 410.",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/TripID" },
                  { "$ref": "#/components/parameters/UploadID" },
                  { "$ref": "#/components/parameters/TusResumable" }
                ],
                "responses": {
                  "200": { "description": "The headers above, no body" },
                  "400": { "description": "No body (HEAD): a malformed trip id" },
                  "401": { "description": "No body (HEAD)" },
                  "404": { "description": "No body (HEAD)" },
                  "410": { "description": "No body (HEAD)" },
                  "412": { "description": "No body (HEAD)" }
                }
              },
              "patch": {
                "summary": "Append bytes at the confirmed offset (tus core)",
                "description": "Content-Type application/offset+octet-stream (else 415) and Upload-Offset equal to the confirmed offset (else 409 offset_mismatch, with the server's Upload-Offset). The answer's Upload-Offset is given only after the bytes are on disk (fsync) and the offset committed, so after any crash HEAD answers an offset whose bytes are all kept. A body is at most Quire-Max-Chunk-Size bytes (413 payload_too_large; send a larger file in several PATCHes) and must arrive within the server's request deadline, extended while it arrives at 16 KiB/s or faster. A second PATCH of the same upload while one is stored answers 423 upload_locked with Retry-After.",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/TripID" },
                  { "$ref": "#/components/parameters/UploadID" },
                  { "$ref": "#/components/parameters/TusResumable" },
                  { "name": "Upload-Offset", "in": "header", "required": true, "schema": { "type": "integer", "minimum": 0 } }
                ],
                "requestBody": { "required": true, "content": { "application/offset+octet-stream": { "schema": { "type": "string", "format": "binary" } } } },
                "responses": {
                  "204": {
                    "description": "Stored",
                    "headers": {
                      "Upload-Offset": { "description": "The new confirmed offset", "schema": { "type": "integer" } },
                      "Upload-Expires": { "description": "While the upload is unfinished: its new expiry", "schema": { "type": "string" } }
                    }
                  },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "409": { "$ref": "#/components/responses/Error" },
                  "410": { "$ref": "#/components/responses/Error" },
                  "412": { "$ref": "#/components/responses/Error" },
                  "413": { "description": "payload_too_large (a body past Quire-Max-Chunk-Size) or beyond_upload_length (bytes past Upload-Length); nothing stored", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
                  "415": { "$ref": "#/components/responses/Error" },
                  "423": { "$ref": "#/components/responses/Error" }
                }
              },
              "delete": {
                "summary": "Terminate the upload, finished or not (tus termination): its bytes are removed and its quota freed",
                "security": [{ "bearer": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/TripID" },
                  { "$ref": "#/components/parameters/UploadID" },
                  { "$ref": "#/components/parameters/TusResumable" }
                ],
                "responses": {
                  "204": { "description": "Terminated" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" },
                  "412": { "$ref": "#/components/responses/Error" }
                }
              }
            },
        """#
}
