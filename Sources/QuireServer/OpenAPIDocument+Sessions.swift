/// The sessions list parts of ``OpenAPIDocument`` (issue 12, item 7): their schemas and the
/// revoke path, as JSON fragments the document splices in.
extension OpenAPIDocument {
    static let sessionSchemas = #"""
              "SessionInfo": {
                "type": "object", "required": ["id", "deviceName", "createdAt", "lastUsedAt", "current"],
                "properties": {
                  "id": { "type": "string", "pattern": "^[0-9a-f]{16}$", "description": "For DELETE /v1/sessions/{id}; tells nothing of other sessions" },
                  "deviceName": { "type": "string", "description": "As the device gave it at sign-in" },
                  "createdAt": { "type": "string", "format": "date-time", "description": "The sign-in" },
                  "lastUsedAt": { "type": "string", "format": "date-time", "description": "The last sign-in or refresh: a device in use refreshes every access-token lifetime" },
                  "current": { "type": "boolean", "description": "The session of the request's own token" }
                }
              },
              "SessionList": {
                "type": "object", "required": ["sessions"],
                "properties": { "sessions": { "type": "array", "items": { "$ref": "#/components/schemas/SessionInfo" }, "description": "Oldest first; revoked and ended sessions are not listed" } }
              },
        """#

    static let sessionPaths = #"""
            "/v1/sessions/{id}": {
              "delete": {
                "summary": "Sign one of the account's sessions out (another device): its tokens stop working at once",
                "security": [{ "bearer": [] }],
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string", "pattern": "^[0-9a-f]{16}$" } }],
                "responses": {
                  "204": { "description": "Signed out" },
                  "400": { "$ref": "#/components/responses/Error" },
                  "401": { "$ref": "#/components/responses/Error" },
                  "404": { "$ref": "#/components/responses/Error" }
                }
              }
            },
        """#
}
